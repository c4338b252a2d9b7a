#!/usr/bin/env bash
# Issue 11, item 4: one session must not take the server's memory. A live
# `mgl server` with a 64 MiB session budget; a victim replays a trace through
# it while two hostile clients ask for far more:
#   - chunk:   announces a 1 GiB chunked record, sends 768 MiB of it, never ends it
#   - buffers: makes 96 buffers of 8 MiB (768 MiB) with their data inline
# Each attacker's session must end with the budget's fault, the server's peak
# RSS must stay within 256 MiB of what it was before, the victim's snapshots
# must equal native, and the server must go on serving.
#   memory_budget.sh MGL_BINARY TRACE_DIR   (HOSTILE_ATTACK_MEMORY: the attack program)
source "$(dirname "$0")/lib.sh"
hostile_init "$1" "$2"
attack=${HOSTILE_ATTACK_MEMORY:?the attack_memory program}
budget=$((64 << 20))

vm() { awk -v k="$2:" '$1 == k {print $2 * 1024}' "/proc/$1/status"; }  # bytes
mib() { echo $(($1 >> 20)); }

start_server srv --listen "unix:$work/srv.sock" --listen tcp://127.0.0.1:0 --session-memory 64M || exit 1
pid=$(server_pid srv)
tcp=$(grep -o 'tcp://127.0.0.1:[0-9]*' "$work/srv.log" | head -1)
start_victim "shm:$work/srv.sock"
sleep 1
before=$(vm "$pid" VmRSS)

# attack NAME MODE URL: runs one attacker; its session must end with the fault.
attack() {
    local name=$1 mode=$2 url=$3
    timeout 90 "$attack" "$mode" "$url" >"$work/$name.out" 2>&1
    local sent fault
    sent=$(awk '$1 == "sent" {print $2}' "$work/$name.out")
    fault=$(sed -n 's/^fault //p' "$work/$name.out")
    if [[ "$fault" == *"session memory budget of $budget bytes exceeded"* ]]; then
        ok "$name: the session ended with the budget's fault after $(mib "${sent:-0}") MiB sent: $fault"
    else
        bad "$name: no budget fault ($(mib "${sent:-0}") MiB sent):"; sed 's/^/    /' "$work/$name.out"
    fi
}
attack chunk chunk "$tcp"
attack buffers buffers "shm:$work/srv.sock"

peak=$(vm "$pid" VmHWM)
echo "server RSS: before $(mib "$before") MiB, peak $(mib "$peak") MiB (budget $(mib $budget) MiB per session)"
if ((peak - before < (256 << 20))); then ok "the server's peak RSS stayed within 256 MiB of the start"
else bad "the server's RSS grew by $(mib $((peak - before))) MiB under the attack"; fi
if grep -q "session memory budget of $budget bytes exceeded" "$work/srv.log"; then
    ok "the server logged the budget's fault"
else bad "the server's log does not name the budget"; fi

check_victim "during the memory attacks"
check_server_alive srv "shm:$work/srv.sock"
hostile_done
