#!/usr/bin/env bash
# A probe program whose whole stdout must be the same natively (Mesa's
# llvmpipe) and through `mgl run` (TRANSPORT, or BACKEND:TRANSPORT), and
# whose stack run must report MobileGL's renderer on stderr (glvnd would
# silently pick the machine's own vendor if ours declined). Used by
# tests/debug_output (KHR_debug) and tests/egl_image (EGLImages).
#   run_same_output.sh MGL PROBE [BACKEND:]TRANSPORT [PROBE ARGS...]
set -uo pipefail
mgl=${1:?mgl binary}
probe=${2:?probe binary}
arm=${3:-inproc}
shift 3 2>/dev/null || shift $#
name=$(basename "$probe")
backend=espryt transport=$arm
[[ $arm == *:* ]] && backend=${arm%%:*} transport=${arm#*:}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
unset DISPLAY
timeout 60 "$probe" "$@" >"$work/native.txt" 2>"$work/native.err" || { echo "native $name failed"; cat "$work/native.err"; exit 1; }
timeout 120 "$mgl" run --backend "$backend" --transport "$transport" -- "$probe" "$@" >"$work/stack.txt" 2>"$work/stack.err"
rc=$?
fail=0
if [[ $rc -ne 0 ]]; then echo "$name through $backend on $transport failed ($rc)"; tail -20 "$work/stack.err"; fail=1; fi
if ! grep -q "^GL_RENDERER .*MobileGL" "$work/stack.err"; then echo "not MobileGL's renderer:"; grep "^GL_" "$work/stack.err"; fail=1; fi
if ! diff -u "$work/native.txt" "$work/stack.txt"; then echo "FAIL: the output differs from native (- native, + $backend on $transport)"; fail=1
else echo "ok: $(wc -l <"$work/native.txt") lines as native"; cat "$work/native.txt"; fi
[[ $fail -eq 0 ]]
