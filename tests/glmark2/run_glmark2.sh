#!/usr/bin/env bash
# glmark2-es2 (EGL/X11) or glmark2 (GLX, desktop GL), unmodified, under Xvfb
# through `mgl run`: the full default scene list at 400x300 with a short
# duration per scene. Every scene must report an FPS and glmark2 must print
# its score, and its GL_RENDERER must be ours (glvnd would otherwise hand the
# program to the machine's own driver). VISUAL (optional): a glmark2
# --visual-config (e.g. samples=4:stencil=8), which glmark2 must report as its
# surface config. PROGRAM: glmark2-es2 (default) or glmark2.
#   run_glmark2.sh MGL TRANSPORT [VISUAL] [PROGRAM]
set -uo pipefail
mgl=${1:?mgl binary}
transport=${2:-inproc}
visual=${3:-}
program=${4:-glmark2-es2}
visual_args=()
[[ -n "$visual" ]] && visual_args=(--visual-config "$visual")
command -v "$program" >/dev/null || { echo "SKIP: $program not installed"; exit 77; }
work=$(mktemp -d)
source "$(dirname "$0")/../xvfb.sh"

# The default scene list, from glmark2 itself.
timeout 600 "$mgl" run --transport "$transport" -- \
    "$program" --size 400x300 "${visual_args[@]}" -b ':duration=0.2' >"$work/out.log" 2>"$work/err.log"
rc=$?
scenes=$(grep -cE '^\[[a-z0-9]+\] .*FPS: [0-9]+' "$work/out.log")
# glmark2's GLX build says "** Failed to set swap interval" when it gets none
# (natively on Xvfb too, whose Mesa GLX offers no swap control): not an error.
errors=$(cat "$work/out.log" "$work/err.log" | grep -v 'Failed to set swap interval' | grep -ciE '\b(error|failed|unsupported)\b')
score=$(sed -n 's/.*glmark2 Score: \([0-9]*\).*/\1/p' "$work/out.log")
grep -E '^\[|Score' "$work/out.log"
grep -iE '\b(error|failed|unsupported)\b' "$work/err.log" | head -5
grep -E 'GL_RENDERER' "$work/out.log"
ours=1
grep -qE 'GL_RENDERER: .*MobileGL' "$work/out.log" || { ours=0; echo "GL_RENDERER is not MobileGL's: the program did not run on the stack"; }
echo "$program through $transport: exit $rc, $scenes scenes with FPS, score ${score:-none}, $errors error lines"
# A requested sample count must be the surface's (glmark2 falls back to no other config).
config_ok=1
if [[ "$visual" =~ samples=([0-9]+) ]]; then
    grep -E 'Surface Config:' "$work/out.log"
    grep -qE "Surface Config:.* samples=${BASH_REMATCH[1]}\b" "$work/out.log" || config_ok=0
fi
# The default list of glmark2 2023.01 (Debian 12, both flavours) has 33 scene configurations.
[[ $rc -eq 0 && $scenes -ge 33 && -n "$score" && $errors -eq 0 && $config_ok -eq 1 && $ours -eq 1 ]]
