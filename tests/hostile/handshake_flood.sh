#!/usr/bin/env bash
# Issue 11 item 3: exhaustion before authentication.
#  a) ~300 sockets that never say hello (40 of them send half a hello and
#     stall) held against tcp and unix listeners: a real client still gets in,
#     the server makes no thread per socket, the victim is undisturbed.
#  b) a server out of fds (prlimit --nofile=64) with 100 sockets knocking:
#     accept errors back off (bounded CPU, a few log lines) and it recovers.
#  c) a server out of address space (prlimit --as) asked for sessions until a
#     thread cannot be made: that client is refused with a reason, the server
#     lives and serves again once they are gone.
# usage: handshake_flood.sh MGL TRACE_DIR ATTACK
source "$(dirname "$0")/lib.sh"
hostile_init "$1" "$2"
attack=${3:?attack_handshake binary}

cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat" 2>/dev/null || echo 0; }
threads_of() { awk '/^Threads:/ {print $2}' "/proc/$1/status" 2>/dev/null || echo 0; }
bound_of() { sed -n "s/.*listening on \(tcp:[^ ]*\).*/\1/p" "$work/$1.log" | head -1; }

# --- a) idle and half-hello sockets -----------------------------------------
start_server main --listen "unix:$work/main.sock" --listen tcp://127.0.0.1:0 || exit 1
tcp=$(bound_of main)
pid=$(server_pid main)
"$attack" idle "$tcp" 300 40 25 >"$work/idle-tcp.log" 2>&1 &
idle_tcp=$!
"$attack" idle "unix:$work/main.sock" 100 20 25 >"$work/idle-unix.log" 2>&1 &
idle_unix=$!
sleep 3
start_victim "shm:$work/main.sock"
threads=$(threads_of "$pid")
echo "server threads with 400 sockets held: $threads"
# A real client on tcp, then on the unix socket, while the sockets are held.
check_server_alive main "$tcp"
check_server_alive main "shm:$work/main.sock"
if [[ $threads -lt 64 ]]; then ok "no thread per pending socket ($threads threads for 400 held)"
else bad "$threads server threads for 400 held sockets: one per socket"; fi
wait $idle_tcp $idle_unix
cat "$work/idle-tcp.log" "$work/idle-unix.log"
check_victim "idle sockets"
grep -c "refused" "$work/main.log" | sed 's/^/refusal lines in the server log: /'

# --- b) out of fds -----------------------------------------------------------
env -u __EGL_VENDOR_LIBRARY_FILENAMES prlimit --nofile=64 "$mgl" server --backend null \
    --listen tcp://127.0.0.1:0 >"$work/fds.log" 2>&1 &
hostile_servers[fds]=$!
for ((t = 0; t < 100; t++)); do grep -q "listening on" "$work/fds.log" && break; sleep 0.05; done
fds_tcp=$(bound_of fds)
fpid=$(server_pid fds)
lines0=$(wc -l <"$work/fds.log")
"$attack" idle "$fds_tcp" 100 0 8 >"$work/idle-fds.log" 2>&1 &
idle_fds=$!
sleep 2
c0=$(cpu_ticks "$fpid")
sleep 5
c1=$(cpu_ticks "$fpid")
wait $idle_fds
cat "$work/idle-fds.log"
lines=$(($(wc -l <"$work/fds.log") - lines0))
hz=$(getconf CLK_TCK)
echo "fd-limited server: $((c1 - c0)) CPU ticks of $((5 * hz)) in 5 s, $lines log lines"
grep -m3 "accept" "$work/fds.log" | sed 's/^/    /'
if [[ $((c1 - c0)) -le $hz ]]; then ok "out of fds: accept backs off (CPU $((c1 - c0))/$((5 * hz)) ticks)"
else bad "out of fds: the server spun ($((c1 - c0))/$((5 * hz)) CPU ticks in 5 s)"; fi
if [[ $lines -le 40 ]]; then ok "out of fds: $lines log lines"
else bad "out of fds: $lines log lines in ~8 s"; fi
sleep 2.5  # the longest accept pause
if kill -0 "$fpid" 2>/dev/null && "$attack" hello "$fds_tcp" - null | tee "$work/fds-hello.log" | grep -q "^welcome"; then
    ok "out of fds: the server recovered and welcomes a client"
else bad "out of fds: no recovery: $(cat "$work/fds-hello.log" 2>/dev/null)"; fi

# --- c) no thread can be made ------------------------------------------------
# The address-space limit: what an idle server maps, plus room for a few
# sessions (each thread's stack and malloc arena need more than that).
env -u __EGL_VENDOR_LIBRARY_FILENAMES "$mgl" server --backend null --listen "unix:$work/probe-as.sock" >"$work/probe-as.log" 2>&1 &
probe=$!
for ((t = 0; t < 100; t++)); do grep -q "listening on" "$work/probe-as.log" && break; sleep 0.05; done
vm_kb=$(awk '/^VmSize:/ {print $2}' "/proc/$probe/status")
kill $probe; wait $probe 2>/dev/null
as_limit=$(( (vm_kb + 400 * 1024) * 1024 ))
echo "idle server maps $((vm_kb / 1024)) MiB: running one under prlimit --as=$((as_limit >> 20)) MiB"
env -u __EGL_VENDOR_LIBRARY_FILENAMES prlimit --as=$as_limit "$mgl" server --backend null \
    --listen tcp://127.0.0.1:0 >"$work/as.log" 2>&1 &
hostile_servers[as]=$!
for ((t = 0; t < 100; t++)); do grep -q "listening on" "$work/as.log" && break; sleep 0.05; done
as_tcp=$(bound_of as)
apid=$(server_pid as)
"$attack" sessions "$as_tcp" - 250 2 | tee "$work/sessions.log"
if ! kill -0 "$apid" 2>/dev/null; then
    bad "thread creation failure: the server died"; tail -3 "$work/as.log" | sed 's/^/    /'
else
    if grep -q "cannot start a session" "$work/sessions.log"; then
        ok "thread creation failure: the client was refused with a reason, the server lives"
    else bad "thread creation failure: not provoked under this limit"; fi
    sleep 1
    if "$attack" hello "$as_tcp" - null | grep -q "^welcome"; then ok "thread creation failure: serves again"
    else bad "thread creation failure: does not serve again"; fi
fi
hostile_done
