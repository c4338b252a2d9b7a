#!/usr/bin/env bash
# The compatibility profile's fixed function against Mesa's: ff-probe draws
# its scenes natively (llvmpipe's desktop GL) and through `mgl run` on
# TRANSPORT; every scene's pixel hash must be the same. The stack's run must
# report MobileGL's renderer (glvnd would silently pick the machine's own
# vendor if ours declined, and a bare "same output" would prove nothing).
# BACKEND (espryt when not given) and SCENES (an extended regex: only the
# native scenes whose name matches are compared) select a backend's part.
#   run_ff_probe.sh MGL PROBE TRANSPORT [BACKEND [SCENES]]

set -uo pipefail
mgl=${1:?mgl binary}
probe=${2:?ff-probe binary}
transport=${3:-inproc}
backend=${4:-espryt}
scenes=${5:-.*}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export WAFFLE_PLATFORM=surfaceless_egl
unset DISPLAY
timeout 60 "$probe" >"$work/native.txt" 2>"$work/native.err" || { echo "native ff-probe failed"; cat "$work/native.err"; exit 1; }
timeout 120 "$mgl" run --backend "$backend" --transport "$transport" -- "$probe" >"$work/stack.txt" 2>"$work/stack.err"
rc=$?
fail=0
if [[ $rc -ne 0 ]]; then echo "ff-probe through $transport failed ($rc)"; tail -20 "$work/stack.err"; fail=1; fi
if ! grep -q "^GL_RENDERER .*MobileGL" "$work/stack.err"; then echo "not MobileGL's renderer:"; grep "^GL_" "$work/stack.err"; fail=1; fi
pass=0
while read -r scene rest; do
    [[ $scene =~ ^($scenes)$ ]] || continue
    got=$(grep "^$scene " "$work/stack.txt" | sed "s/^$scene *//")
    if [[ "$got" == "$rest" ]]; then echo "ok   $scene"; pass=$((pass + 1))
    else echo "FAIL $scene: native $rest, stack ${got:-missing}"; fail=$((fail + 1)); fi
done <"$work/native.txt"
grep -i "warn\|error" "$work/stack.err" | sort | uniq -c | head -10
echo "$pass passed, $fail failed"
# A run that compared nothing checked nothing.
[[ $pass -gt 0 ]] || { echo "no scene compared"; fail=1; }
[[ $fail -eq 0 ]]
