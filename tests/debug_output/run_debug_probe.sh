#!/usr/bin/env bash
# KHR_debug against Mesa's: debug-probe runs natively (llvmpipe's desktop GL)
# and through `mgl run` (TRANSPORT, or BACKEND:TRANSPORT); its whole output
# must be the same, and the stack's run must report MobileGL's renderer (glvnd
# would silently pick the machine's own vendor if ours declined).
#   run_debug_probe.sh MGL PROBE [BACKEND:]TRANSPORT
set -uo pipefail
mgl=${1:?mgl binary}
probe=${2:?debug-probe binary}
arm=${3:-inproc}
backend=espryt transport=$arm
[[ $arm == *:* ]] && backend=${arm%%:*} transport=${arm#*:}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
unset DISPLAY
timeout 60 "$probe" >"$work/native.txt" 2>"$work/native.err" || { echo "native debug-probe failed"; cat "$work/native.err"; exit 1; }
timeout 120 "$mgl" run --backend "$backend" --transport "$transport" -- "$probe" >"$work/stack.txt" 2>"$work/stack.err"
rc=$?
fail=0
if [[ $rc -ne 0 ]]; then echo "debug-probe through $backend on $transport failed ($rc)"; tail -20 "$work/stack.err"; fail=1; fi
if ! grep -q "^GL_RENDERER .*MobileGL" "$work/stack.err"; then echo "not MobileGL's renderer:"; grep "^GL_" "$work/stack.err"; fail=1; fi
if ! diff -u "$work/native.txt" "$work/stack.txt"; then echo "FAIL: the output differs from native (- native, + $backend on $transport)"; fail=1
else echo "ok: $(wc -l <"$work/native.txt") lines as native"; cat "$work/native.txt"; fi
[[ $fail -eq 0 ]]
