# Sourced by the suites that need an X server (tests/glmark2, tests/glx):
# starts Xvfb on a free display number, exports DISPLAY, and stops it and
# removes $work on exit. Needs $work (a temporary folder) set by the caller.
command -v Xvfb >/dev/null || { echo "SKIP: Xvfb not installed"; exit 77; }
disp=$((200 + RANDOM % 500))
# -noreset: a reset after the last client leaves would refuse the next one for a moment
Xvfb ":$disp" -screen 0 1280x1024x24 -nolisten tcp -noreset >"$work/xvfb.log" 2>&1 &
xvfb=$!
trap 'kill $xvfb 2>/dev/null; rm -rf "$work"' EXIT
for _ in $(seq 50); do [[ -e /tmp/.X11-unix/X$disp ]] && break; sleep 0.1; done
export DISPLAY=":$disp"
