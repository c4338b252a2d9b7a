#!/usr/bin/env bash
# Issue 11, item 2: a client whose server dies ends promptly. An unmodified
# eglretrace replays a long trace with snapshots through a live `mgl server`;
# the server is killed (SIGKILL) mid-replay. The replay must end within 60 s
# (a GL_CONTEXT_LOST that never clears kept it in its glGetError loop until
# killed), its output must stay within the trace's length (it wrote 1.1 GB of
# warnings), and the
# client must log the loss once per context. Over shm and over tcp. The
# victim replays on another server, which must be untouched.
#   lost_context.sh MGL_BINARY TRACE_DIR
source "$(dirname "$0")/lib.sh"
hostile_init "$1" "$2"
# Long enough (about 8 s natively here, more through the stack) that the kill 2 s in
# lands mid-replay on a fast, quiet machine too (a 1 s trace ended first there).
long_trace=${HOSTILE_LONG_TRACE:-chunks-1471.trace}
long_calls=$(snapshot_calls "$long_trace")
last_call=${long_calls##*,}

start_server victim_srv --listen "unix:$work/victim.sock" || exit 1
start_victim "shm:$work/victim.sock"

# doomed TRANSPORT: a replay through a server that is killed 2 s into the session.
doomed() {
    local kind=$1 name="doomed_$1" url
    if [[ $kind == tcp ]]; then
        start_server "$name" --listen tcp://127.0.0.1:0 || return
        url=$(grep -o 'tcp://127.0.0.1:[0-9]*' "$work/$name.log" | head -1)
    else
        start_server "$name" --listen "unix:$work/$name.sock" || return
        url="shm:$work/$name.sock"
    fi
    mkdir -p "$work/$name"
    local t0=$SECONDS
    env -u DISPLAY WAFFLE_PLATFORM=surfaceless_egl timeout 120 "$mgl" run --transport "$url" -- \
        eglretrace --headless -S "$long_calls" -s "$work/$name/" "$traces/$long_trace" >"$work/$name.out" 2>&1 &
    local replay=$! t
    # Killed once the session is open and has run a while (bounded waits).
    for ((t = 0; t < 300; t++)); do
        grep -q "session .* open" "$work/$name.log" && break
        kill -0 "$replay" 2>/dev/null || break
        sleep 0.1
    done
    sleep 2
    if ! kill -0 "$replay" 2>/dev/null; then bad "$kind: the replay ended before the server was killed"; return; fi
    kill -9 "$(server_pid "$name")"
    local rc=0
    wait "$replay" || rc=$?
    local took=$((SECONDS - t0)) lines bytes losses
    lines=$(wc -l <"$work/$name.out")
    bytes=$(wc -c <"$work/$name.out")
    losses=$(grep -c "context lost" "$work/$name.out")
    echo "$kind: the replay ended (status $rc) ${took}s after it started; output $lines lines, $bytes bytes;" \
         "$losses loss line(s)"
    if ((rc == 124 || rc == 137)); then bad "$kind: the replay did not end within 120 s of its start"
    elif ((took > 63)); then bad "$kind: the replay took ${took}s to end after its server died"
    else ok "$kind: the replay ended ${took}s after it started (server killed 2 s into the session)"; fi
    # eglretrace may warn once per remaining call (a query on a lost context
    # writes nothing: "program validation failed" after each draw); a loop
    # that never ends writes without bound. The bound: one line per call of
    # the trace (its last snapshot's call number), at most 100 bytes each.
    if ((lines < last_call && bytes < last_call * 100)); then
        ok "$kind: its output stayed within the trace's length ($lines lines for $last_call calls)"
    else bad "$kind: its output grew to $lines lines, $bytes bytes ($last_call calls)"; tail -3 "$work/$name.out" | cut -c1-200; fi
    if ((losses >= 1 && losses <= 4)); then ok "$kind: the client logged the loss $losses time(s)"
    else bad "$kind: the client logged the loss $losses times"; grep -m3 -i "lost" "$work/$name.out" | cut -c1-200; fi
}
doomed shm
doomed tcp

check_victim "while two other servers were killed"
check_server_alive victim_srv "shm:$work/victim.sock"
hostile_done
