# Sourced by the GPU benchmark scripts: sets `retrace`, `mgl` and `bundle_lib`
# (where the bundle's own libraries are) and the environment for replaying
# natively and through the stack. $1: a bundle unpacked by run-traces.sh, or
# "-" for this machine (eglretrace from PATH, build/).
if [[ "$1" == - ]]; then
    bundle_lib=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../../build" && pwd)
    retrace=eglretrace mgl=$bundle_lib/tools/mgl
    export WAFFLE_PLATFORM=surfaceless_egl
else
    bundle_lib=$(cd "$1" && pwd)/mgl
    export LD_LIBRARY_PATH=$(cd "$1" && pwd)/egl/retrace/lib WAFFLE_PLATFORM=surfaceless_egl
    export __EGL_VENDOR_LIBRARY_DIRS=/usr/local/nvidia/share/glvnd/egl_vendor.d:/usr/share/glvnd/egl_vendor.d
    [[ -f /usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json ]] &&
        export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
    retrace=$(cd "$1" && pwd)/egl/retrace/eglretrace mgl=$bundle_lib/mgl
fi
