#!/usr/bin/env bash
# A shader the compiler crashes on ends neither the server nor any other
# session (backends/gl/shaders/compiler_process.h). The attacker is an
# unmodified GL program, piglit's glslparsertest, on a desktop context
# through `mgl run`, compiling a well-formed vertex shader of one long sum:
# Debian's glslang runs out of stack on it (glslangValidator ends with
# SIGSEGV). On each backend, while a victim replays a reference trace:
#   - the compile fails (glslparsertest expecting failure passes) and the
#     attacker's log says the shader compiler crashed,
#   - the attacker's next compile in a new session (a plain shader) succeeds,
#   - the server survives and still serves a new client; the victim's
#     snapshots stay identical to native.
#
#   compiler_crash.sh MGL TRACE_DIR
source "$(dirname "$0")/lib.sh"
hostile_init "$1" "$2"
parser=/usr/lib/x86_64-linux-gnu/piglit/bin/glslparsertest
[[ -x $parser ]] || { echo "SKIP: piglit's glslparsertest is not installed"; exit 77; }

python3 - "$work" <<'PY'
import sys
work = sys.argv[1]
terms = " + y" * 200000
open(f"{work}/deep.vert", "w").write(
    "#version 330\nlayout(location = 0) in float y;\nvoid main() { float x = y" + terms + ";\n  gl_Position = vec4(x);\n}\n")
open(f"{work}/plain.vert", "w").write(
    "#version 330\nlayout(location = 0) in vec4 p;\nvoid main() { gl_Position = p; }\n")
PY

sock="$work/server.sock"
start_server srv --listen "unix:$sock" || { bad "server did not start"; hostile_done; exit; }
url="shm:$sock"
start_victim "$url"

parse() {  # parse BACKEND FILE EXPECTATION: glslparsertest through the server
    env -u DISPLAY PIGLIT_PLATFORM=surfaceless_egl MOBILEGL_LOG_LEVEL=info timeout 120 \
        "$mgl" run --transport "$url" --backend "$1" -- "$parser" "$2" "$3" 3.30 >"$work/parse.log" 2>&1
}
for backend in espryt magma; do
    parse "$backend" "$work/deep.vert" fail
    if grep -q '"result": "pass"' "$work/parse.log" && grep -q "shader compiler process crashed" "$work/parse.log"; then
        ok "$backend: the crashing shader fails to compile, and its log says why"
    else
        bad "$backend: the crashing shader's compile did not fail as expected"; tail -5 "$work/parse.log" | sed 's/^/    /'
    fi
    if ! kill -0 "$(server_pid srv)" 2>/dev/null; then
        bad "$backend: the server died"; tail -5 "$work/srv.log" | sed 's/^/    /'; break
    fi
    parse "$backend" "$work/plain.vert" pass
    if grep -q '"result": "pass"' "$work/parse.log"; then ok "$backend: the next compile succeeds"
    else bad "$backend: the next compile failed"; tail -5 "$work/parse.log" | sed 's/^/    /'; fi
done
grep "shader compiler:" "$work/srv.log" | sed 's/^/    log: /' | head -4

check_victim "compiler crash"
check_server_alive srv "$url"
hostile_done
