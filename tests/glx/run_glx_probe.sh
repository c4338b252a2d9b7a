#!/usr/bin/env bash
# The GLX vendor against Mesa's own GLX, side by side under one Xvfb:
# glx-probe runs natively and through `mgl run` on TRANSPORT, and every line
# it prints (pixels read back, what the window shows after swaps, which
# context requests succeed) must be the same. The stack's run must also
# report our renderer: glvnd silently hands a program to the machine's own
# vendor when ours declines, so a bare "same output" would prove nothing.
#   run_glx_probe.sh MGL PROBE TRANSPORT
set -uo pipefail
mgl=${1:?mgl binary}
probe=${2:?glx-probe binary}
transport=${3:-inproc}
work=$(mktemp -d)
source "$(dirname "$0")/../xvfb.sh"

timeout 60 "$probe" >"$work/native.txt" 2>"$work/native.err"
native_rc=$?
timeout 120 "$mgl" run --transport "$transport" -- "$probe" >"$work/stack.txt" 2>"$work/stack.err"
stack_rc=$?
fail=0
if [[ $native_rc -ne 0 ]]; then echo "native glx-probe failed ($native_rc): the reference is missing"; cat "$work/native.err"; fail=1; fi
if [[ $stack_rc -ne 0 ]]; then echo "glx-probe through $transport failed ($stack_rc)"; tail -20 "$work/stack.err"; fail=1; fi
if ! grep -q "^GL_RENDERER .*MobileGL" "$work/stack.err"; then
    echo "the run through the stack did not report MobileGL's renderer:"; grep "^GL_" "$work/stack.err"; fail=1
fi
if ! diff -u "$work/native.txt" "$work/stack.txt"; then echo "glx-probe through $transport differs from native"; fail=1; fi
pass=$(grep -c . "$work/stack.txt")
if [[ $fail -eq 0 ]]; then echo "$pass passed, 0 failed"; else echo "0 passed, 1 failed"; fi
exit $fail
