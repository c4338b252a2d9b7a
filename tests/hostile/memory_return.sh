#!/usr/bin/env bash
# Issue 11, item 6: the memory of ended sessions goes back to the system. A
# live `mgl server`, warmed by one session (the host driver loaded: what an
# idle server holds); then 16 concurrent replays of a trace, 8 over shm and 8
# over tcp. Its RSS after every session ended must be within 1.5x of before.
# One of the 16 is the victim, compared with native as in every hostile test.
# Prints the figures for docs/RELIABILITY.md.
#   memory_return.sh MGL_BINARY TRACE_DIR
source "$(dirname "$0")/lib.sh"
hostile_init "$1" "$2"
load_trace=${HOSTILE_LOAD_TRACE:-glmark2-es2-texture_texture-filter-linear.trace}
sessions=16

vm() { awk -v k="$2:" '$1 == k {print $2 * 1024}' "/proc/$1/status"; }  # bytes
mib() { echo $(($1 >> 20)); }
# ended N: waits (bounded) until the server's log shows N ended sessions.
ended() {
    local t
    for ((t = 0; t < 600; t++)); do
        (($(grep -c "ended (" "$work/srv.log") >= $1)) && return 0
        sleep 0.1
    done
    return 1
}

start_server srv --listen "unix:$work/srv.sock" --listen tcp://127.0.0.1:0 || exit 1
pid=$(server_pid srv)
tcp=$(grep -o 'tcp://127.0.0.1:[0-9]*' "$work/srv.log" | head -1)
start=$(vm "$pid" VmRSS)

# Warm-up: one session loads the host driver, which stays loaded.
env -u DISPLAY WAFFLE_PLATFORM=surfaceless_egl timeout 120 "$mgl" run --transport "shm:$work/srv.sock" -- \
    eglretrace --headless "$traces/$load_trace" >"$work/warm.log" 2>&1 || { bad "the warm-up replay failed"; tail -3 "$work/warm.log"; }
ended 1 || bad "the warm-up session did not end"
sleep 0.5
before=$(vm "$pid" VmRSS)

# The load: 15 replays plus the victim, all at once, half on each transport.
start_victim "shm:$work/srv.sock"
pids=()
for ((i = 1; i < sessions; i++)); do
    url="shm:$work/srv.sock"; ((i % 2)) && url=$tcp
    env -u DISPLAY WAFFLE_PLATFORM=surfaceless_egl timeout 300 "$mgl" run --transport "$url" -- \
        eglretrace --headless "$traces/$load_trace" >"$work/load$i.log" 2>&1 &
    pids+=($!)
done
peak=0
while :; do
    r=$(vm "$pid" VmRSS); ((r > peak)) && peak=$r
    running=0
    for p in "${pids[@]}" "$victim_pid"; do kill -0 "$p" 2>/dev/null && running=1; done
    ((running)) || break
    sleep 0.2
done
failed=0
for p in "${pids[@]}"; do wait "$p" || failed=$((failed + 1)); done
((failed == 0)) && ok "$((sessions - 1)) load replays finished" || bad "$failed of $((sessions - 1)) load replays failed"
check_victim "under $sessions concurrent sessions"

ended $((sessions + 1)) || bad "not every session ended"
sleep 1
after=$(vm "$pid" VmRSS)
hwm=$(vm "$pid" VmHWM)
echo "server RSS: at start $(mib "$start") MiB, idle after one session $(mib "$before") MiB," \
     "peak under $sessions sessions $(mib "$((hwm > peak ? hwm : peak))") MiB, after they ended $(mib "$after") MiB"
if ((after * 2 <= before * 3)); then
    ok "RSS after the load ($(mib "$after") MiB) is within 1.5x of before ($(mib "$before") MiB)"
else
    bad "RSS after the load ($(mib "$after") MiB) is above 1.5x of before ($(mib "$before") MiB)"
fi
check_server_alive srv "shm:$work/srv.sock"
hostile_done
