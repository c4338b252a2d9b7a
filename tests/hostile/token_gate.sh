#!/usr/bin/env bash
# Issue 11 item 5: a tcp listener on loopback is open to every local user.
#  - a daemon with --token-file refuses clients without / with a wrong token,
#    telling nothing about the build (not even to a client with a wrong wire
#    fingerprint); the right token gets in;
#  - 200 wrong tokens in a row take >= 10 s (rate-limited per address);
#  - `ps` never shows the token (--token-file, and --token is hidden);
#  - `mgl run --transport tcp` starts its server with a fresh token that its
#    program gets and nobody else has.
# usage: token_gate.sh MGL TRACE_DIR ATTACK
source "$(dirname "$0")/lib.sh"
hostile_init "$1" "$2"
attack=${3:?attack_handshake binary}
bound_of() { sed -n "s/.*listening on \(tcp:[^ ]*\).*/\1/p" "$work/$1.log" | head -1; }

token=$(head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n')
(umask 077 && echo "$token" >"$work/token")
start_server main --token-file "$work/token" --listen "unix:$work/main.sock" --listen tcp://127.0.0.1:0 || exit 1
tcp=$(bound_of main)
export MOBILEGL_IPC_TOKEN=$token  # the victim and the probes are the owner's clients
start_victim "$tcp"

# Without a token, with a wrong one, with a wrong one and a wrong fingerprint.
build_words="fingerprint|build|mobilegl|espryt|magma|[0-9a-f]{16}"
for how in "- espryt" "wrong-token espryt" "wrong-token espryt 0123456789abcdef"; do
    # shellcheck disable=SC2086
    reply=$("$attack" hello "$tcp" $how)
    echo "hello ($how): $reply"
    if [[ "$reply" == "refusal reason=bad or missing token"* ]] && ! grep -Eq "$build_words" <<<"${reply#refusal reason=bad or missing token}"; then
        ok "token ($how): refused, nothing told about the build"
    else bad "token ($how): $reply"; fi
done
reply=$("$attack" hello "$tcp" "$token" null)
echo "hello (right token): $reply"
[[ "$reply" == welcome* ]] && ok "the right token is welcome" || bad "the right token: $reply"

# Guessing: 200 wrong tokens one after another.
guess=$("$attack" guess "$tcp" 200)
echo "$guess"
secs=$(sed -n 's/.* in \([0-9.]*\) s .*/\1/p' <<<"$guess")
if awk -v s="$secs" 'BEGIN {exit !(s >= 10)}' && [[ "$guess" == *", 0 answers were not bad_token"* ]]; then
    ok "200 wrong tokens took $secs s (rate-limited)"
else bad "200 wrong tokens took ${secs:-?} s: not rate-limited"; fi
# The right token right after: the limiter slows guesses, the owner's client goes on.
reply=$("$attack" hello "$tcp" "$token" null)
[[ "$reply" == welcome* ]] && ok "the right token still works after the guesses" || bad "after the guesses: $reply"
check_victim "token guessing"

# ps: neither --token-file nor --token shows the token.
if ps -eo args | grep -F -- "$token" | grep -v grep >/dev/null; then bad "ps shows the token"
else ok "ps does not show the --token-file token"; fi
start_server bytoken --token "$token-2" --listen "unix:$work/bytoken.sock" || exit 1
if tr '\0' ' ' <"/proc/$(server_pid bytoken)/cmdline" | grep -qF "$token-2"; then bad "--token stays visible in ps"
else ok "--token is hidden from ps once the server runs"; fi

# mgl run --transport tcp: a token for the run, handed to the program only.
env -u DISPLAY -u MOBILEGL_IPC_TOKEN WAFFLE_PLATFORM=surfaceless_egl "$mgl" run --transport tcp \
    --server-log "$work/runserver.log" -- \
    eglretrace --headless --loop=-1 "$traces/$victim_trace" >"$work/run.log" 2>&1 &
run=$!
run_server=""
for ((t = 0; t < 100; t++)); do
    for c in $(pgrep -P $run); do tr '\0' ' ' <"/proc/$c/cmdline" 2>/dev/null | grep -q " server " && run_server=$c; done
    [[ -n "$run_server" ]] && grep -q "session [0-9]* open" "$work/runserver.log" 2>/dev/null && break
    sleep 0.1
done
sleep 1
run_cmd=$(tr '\0' ' ' <"/proc/$run_server/cmdline" 2>/dev/null)
run_tcp=$(grep -o 'tcp://[0-9.:]*' <<<"$run_cmd")
echo "mgl run's server: $run_cmd"
reply=$("$attack" hello "$run_tcp" - null)
echo "hello to mgl run's server without its token: $reply"
[[ "$reply" == "refusal reason=bad or missing token"* ]] && ok "mgl run --transport tcp: its server wants the run's token" \
    || bad "mgl run --transport tcp: a client without the token got: $reply"
run_token=$(tr '\0' '\n' <"/proc/$(pgrep -P $run | grep -v "^$run_server\$" | head -1)/environ" 2>/dev/null |
    sed -n 's/^MOBILEGL_IPC_TOKEN=//p')
if [[ -n "$run_token" ]] && ! ps -eo args | grep -F -- "$run_token" | grep -v grep >/dev/null; then
    ok "mgl run's token reaches the program and is not in ps"
else bad "mgl run's token: '${run_token}' (missing, or visible in ps)"; fi
if kill -0 $run 2>/dev/null && grep -q "session [0-9]* open (tcp" "$work/runserver.log"; then
    ok "mgl run's program has its session on its tokened server"
else bad "mgl run's program failed: $(tail -3 "$work/run.log" "$work/runserver.log")"; fi
kill -TERM $run; wait $run 2>/dev/null
check_server_alive main "shm:$work/main.sock"
hostile_done
