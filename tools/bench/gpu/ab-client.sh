#!/bin/bash
# A/B of the client library on the GPU machine: eglretrace --benchmark fps of
# each trace natively and through Espryt and Magma (inproc) with the vendor
# library before and after a change, arms interleaved; one line per run.
#   tools/bench/gpu/ab-client.sh BUNDLE RUNS TRACE...
# BUNDLE as for run-traces.sh (run that first: it unpacks the bundle), plus
# BUNDLE/old-libEGL.so.0 and BUNDLE/new-libEGL.so.0 (stripped vendor libraries).
B=$1; runs=$2; shift 2
export LD_LIBRARY_PATH=$B/egl/retrace/lib WAFFLE_PLATFORM=surfaceless_egl
export __EGL_VENDOR_LIBRARY_DIRS=/usr/local/nvidia/share/glvnd/egl_vendor.d:/usr/share/glvnd/egl_vendor.d
[[ -f /usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json ]] && export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
lib=$(sed -n 's/.*"library_path" *: *"\(.*\)".*/\1/p' "$B/mgl/50_mobilegl.json")
fps_of() { sed -n 's/.*average of \([0-9.]*\) fps.*/\1/p' | tail -1; }
for tr in "$@"; do
  for ((r=0;r<runs;r++)); do
    echo "$(basename $tr .trace) native $(timeout 120 $B/egl/retrace/eglretrace --benchmark --headless $tr 2>&1 | fps_of)"
    for v in old new; do
      cp $B/$v-libEGL.so.0 "$lib"
      for be in espryt magma; do
        echo "$(basename $tr .trace) $v-$be $(timeout 120 $B/mgl/mgl run --transport inproc --backend $be -- $B/egl/retrace/eglretrace --benchmark --headless $tr 2>&1 | fps_of)"
      done
    done
    cp $B/new-libEGL.so.0 "$lib"
  done
done
