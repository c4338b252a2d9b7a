#!/usr/bin/env bash
# Item 1 of the isolation issue: no client-chosen address reaches a host
# driver. Each case of mgl-attack-pointers (tests/hostile/attack_pointers.cc)
# is a short sequence of valid records ending in a call that would make the
# host read or write at an address the client chose (a deleted buffer's
# offset, a null client array, buffer 0 with an offset, a range past a
# buffer's end). Against a live `mgl server` whose attacked backend is
# BACKEND, while a victim replays a reference trace on the same server:
#   - every case must be refused with a GL error (exit 0 of the attack),
#   - the server must survive all of them and still serve a new client,
#   - the victim's snapshots must stay identical to native.
#
#   stale_pointers.sh MGL TRACE_DIR BACKEND ATTACK_BINARY
source "$(dirname "$0")/lib.sh"
hostile_init "$1" "$2"
backend=${3:?backend}
attack=${4:?attack binary}

sock="$work/server.sock"
start_server srv --listen "unix:$sock" --backend "$backend" || { bad "server did not start"; hostile_done; exit; }
url="shm:$sock"
# The victim runs on Espryt (pixel-identical to native); the attacks name BACKEND.
start_victim "$url"

mapfile -t names < <("$attack" list)
for name in "${names[@]}"; do
    out=$(timeout 30 "$attack" "$url" "$backend" "$name" 2>&1)
    rc=$?
    case $rc in
        0) ok "$backend $name: $out" ;;
        1) bad "$backend $name: the attack's session was lost: $out" ;;
        2) bad "$backend $name: $out" ;;
        4) echo "skip $backend $name: $out" ;;
        *) bad "$backend $name: the attack could not run (rc $rc): $out" ;;
    esac
    sleep 0.3  # a crash in the GPU work of the last call comes a little later
    if ! kill -0 "$(server_pid srv)" 2>/dev/null; then
        bad "$backend $name: the server died"; tail -3 "$work/srv.log" | sed 's/^/    /'
        start_server srv --listen "unix:$sock" --backend "$backend" || break  # the next cases still count
    fi
done
# One log line per refused verb, and it names the reason.
grep -E "refused|unsupported" "$work/srv.log" | sed 's/^/    log: /' | head -20

check_victim "$backend"
check_server_alive srv "$url"
hostile_done
