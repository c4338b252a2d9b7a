#!/usr/bin/env bash
# Runs on the GPU machine (see ../shared/gpu/bundle-eglretrace.sh): eglretrace
# --benchmark fps of each trace natively, with NVIDIA's threaded mode, with
# glvnd's entry-point patching disallowed (to test why inproc is slower than
# shm there), and through the stack on each transport; arms interleaved.
# Prints one "TRACE ARM average of N fps" line per run.
#   tools/bench/gpu/run-traces.sh BUNDLE RUNS "ARMS" TRACE...
# BUNDLE holds egl/ (the bundler's output), mgl/ (mgl, libEGL_mobilegl.so.0 and
# its json, laid out as in build/), and the traces. ARMS: native threaded
# nopatch direct inproc shm tcp magma-T (Magma on transport T); nopad-T: transport T with glibc's
# default malloc top pad (128 KiB) instead of the server's 8 MiB.
set -uo pipefail
bundle=$(cd "${1:?bundle}" && pwd); runs=${2:-3}; arms=${3:-"native threaded inproc shm tcp"}; shift 3
for f in "$bundle"/egl/debs/*.deb; do dpkg -x "$f" /; done; ldconfig
export LD_LIBRARY_PATH=$bundle/egl/retrace/lib
export WAFFLE_PLATFORM=surfaceless_egl
nv_egl=/usr/local/nvidia/share/glvnd/egl_vendor.d
export __EGL_VENDOR_LIBRARY_DIRS=$nv_egl:/usr/share/glvnd/egl_vendor.d
[[ -f /usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json ]] &&
    export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
retrace=$bundle/egl/retrace/eglretrace
mgl=$bundle/mgl/mgl
# mgl points glvnd at the vendor JSON its build wrote: put both where it looks.
lib=$(sed -n 's/.*"library_path" *: *"\(.*\)".*/\1/p' "$bundle/mgl/50_mobilegl.json")
mkdir -p "$(dirname "$lib")" && cp "$bundle/mgl/$(basename "$lib")" "$lib" &&
    cp "$bundle/mgl/50_mobilegl.json" "$(dirname "$lib")/"
for tr in "$@"; do
  name=$(basename "$tr" .trace)
  for ((r = 0; r < runs; r++)); do
    for a in $arms; do
      case $a in
        native) out=$(timeout 120 "$retrace" --benchmark --headless "$tr" 2>&1) ;;
        threaded) out=$(__GL_THREADED_OPTIMIZATIONS=1 timeout 120 "$retrace" --benchmark --headless "$tr" 2>&1) ;;
        nopatch) out=$(__GLVND_DISALLOW_PATCHING=1 timeout 120 "$retrace" --benchmark --headless "$tr" 2>&1) ;;
        nopad-*) out=$(MALLOC_TOP_PAD_=131072 timeout 120 "$mgl" run --transport "${a#nopad-}" -- "$retrace" --benchmark --headless "$tr" 2>&1) ;;
        magma-*) out=$(timeout 120 "$mgl" run --backend magma --transport "${a#magma-}" -- "$retrace" --benchmark --headless "$tr" 2>&1) ;;
        *) out=$(timeout 120 "$mgl" run --transport "$a" -- "$retrace" --benchmark --headless "$tr" 2>&1) ;;
      esac
      fps=$(sed -n 's/.*average of \([0-9.]*\) fps.*/\1/p' <<<"$out" | tail -1)
      echo "$name $a average of ${fps:-FAILED} fps"
      [[ -z "$fps" ]] && tail -3 <<<"$out" | sed "s/^/  $name $a: /"
    done
  done
done
