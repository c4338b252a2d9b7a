#!/usr/bin/env bash
# Issue 11 item 8: the defaults are what the docs say. A daemon started
# without --backend serves espryt (docs/USER-GUIDE.md) and still has null by
# name; every option of `mgl run` and `mgl server` missing its value says so
# by name. A victim replays on the default daemon meanwhile.
# usage: defaults.sh MGL TRACE_DIR ATTACK
source "$(dirname "$0")/lib.sh"
hostile_init "$1" "$2"
attack=${3:?attack_handshake binary}

start_server main --listen "unix:$work/main.sock" || exit 1
start_victim "shm:$work/main.sock"
reply=$("$attack" hello "unix:$work/main.sock" - -)
echo "a hello naming no backend: $reply"
[[ "$reply" == "welcome backend=espryt "* ]] && ok "the daemon's default backend is espryt" \
    || bad "the daemon's default backend: $reply"
reply=$("$attack" hello "unix:$work/main.sock" - null)
[[ "$reply" == "welcome backend=null "* ]] && ok "null is still there by name" || bad "null by name: $reply"

for opt in --transport --backend --server-log; do
    msg=$("$mgl" run $opt 2>&1 >/dev/null); rc=$?
    msg2=$("$mgl" run $opt -- true 2>&1 >/dev/null); rc2=$?
    if [[ $rc -eq 2 && $rc2 -eq 2 && "$msg" == *"$opt needs a value"* && "$msg2" == *"$opt needs a value"* ]]; then
        ok "mgl run $opt without a value: '$msg'"
    else bad "mgl run $opt without a value: rc $rc '$msg' / rc $rc2 '$msg2'"; fi
done
for opt in --listen --backend --token --token-file --max-pending --run-dir; do
    msg=$("$mgl" server $opt 2>&1 >/dev/null | head -1); rc=${PIPESTATUS[0]}
    if [[ "$msg" == *"$opt needs a value"* ]]; then ok "mgl server $opt without a value: '$msg'"
    else bad "mgl server $opt without a value: '$msg'"; fi
done
check_victim "defaults"
check_server_alive main "shm:$work/main.sock"
hostile_done
