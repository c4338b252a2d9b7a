#!/bin/bash
# Magma's startup on the GPU machine: each Vulkan device open (MOBILEGL_LOG_LEVEL=info),
# frames 1 and 2 (MOBILEGL_MAGMA_STATS=1: wall, compile, pipelines) and the fps, per
# trace, inproc and shm, twice each (the disk caches are warm the second time); then native fps.
#   tools/bench/gpu/magma-startup.sh BUNDLE TRACE...   (BUNDLE unpacked by run-traces.sh)
B=$1; shift
export LD_LIBRARY_PATH=$B/egl/retrace/lib WAFFLE_PLATFORM=surfaceless_egl
export __EGL_VENDOR_LIBRARY_DIRS=/usr/local/nvidia/share/glvnd/egl_vendor.d:/usr/share/glvnd/egl_vendor.d
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
for tr in "$@"; do for r in 1 2; do for tp in inproc shm; do
  echo "== $(basename $tr .trace) $tp run $r"
  MOBILEGL_MAGMA_STATS=1 MOBILEGL_LOG_LEVEL=info timeout 60 $B/mgl/mgl run --backend magma --transport $tp -- $B/egl/retrace/eglretrace --benchmark --headless $tr 2>&1 | grep -E "opened in|magma frame [12]:|fps" | sed 's/.*magma: Vulkan device/device/; s/ (GPU, Vulkan.*opened/ opened/' | cut -c1-300
done; done; done
echo "== native"; for tr in "$@"; do timeout 60 $B/egl/retrace/eglretrace --benchmark --headless $tr 2>&1 | grep fps; done
