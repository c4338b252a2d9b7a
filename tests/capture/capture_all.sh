#!/usr/bin/env bash
# Every public trace (ES and desktop) captured from eglretrace and replayed
# with `mgl replay` on Espryt and on Magma (issue 15's acceptance), compared
# with the native replay: capture_traces.sh four times.
#   - ES, every trace: captured on Espryt, replayed on Espryt (pixel for pixel);
#   - ES, the traces Magma renders within its tolerance live (the magma-traces
#     suite's list, tests/magma/meson.build): captured on Espryt and replayed on
#     Magma, captured on Magma and replayed on Espryt;
#   - desktop, every trace but those Espryt does not render like native live
#     (docs/DESKTOP-GL.md): captured on Espryt, replayed on Espryt;
#   - desktop, the magma-traces-gl list: captured on Espryt, replayed on Magma.
#
#   tests/capture/capture_all.sh build/tools/mgl ../shared
# TRACES_NATIVE_CACHE / TRACES_NATIVE_CACHE_GL: native snapshot caches (optional).
set -uo pipefail
mgl=${1:?mgl binary}
shared=${2:?shared dir (with traces/ and traces-gl/)}
here=$(dirname "$0")
# Keep in step with tests/magma/meson.build (magma-traces, magma_traces_gl).
magma_es='(build_|buffer_|texture_texture|desktop_effect-shadow|jellyfish|es2-shadow)'
magma_gl='^glmark2-(build_|bump|desktop_|jellyfish|loop|shading|texture|shadow)'
# Keep in step with docs/USER-GUIDE.md (Espryt's desktop exclusions).
espryt_gl_known='^glmark2-(shadow|refract|terrain)\.trace$'

status=0
run() {
    echo "== capture_traces.sh $*"
    "$here/capture_traces.sh" "$mgl" "$@" || status=1
}
TRACES_NATIVE_CACHE=${TRACES_NATIVE_CACHE:-} run "$shared/traces" "espryt" . "$magma_es"
TRACES_NATIVE_CACHE=${TRACES_NATIVE_CACHE:-} run "$shared/traces" "espryt espryt:magma magma:espryt" "$magma_es"
TRACES_NATIVE_CACHE=${TRACES_NATIVE_CACHE_GL:-} run "$shared/traces-gl" "espryt" '^(glmark2|chunks)' "$espryt_gl_known"
TRACES_NATIVE_CACHE=${TRACES_NATIVE_CACHE_GL:-} run "$shared/traces-gl" "espryt:magma" "$magma_gl"
exit $status
