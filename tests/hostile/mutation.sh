#!/usr/bin/env bash
# Issue 15: the mutation test of a live `mgl server`. A capture of a
# reference trace (`mgl capture`, made here) is sent again and again by
# mgl-mutate (tests/hostile/mutate_capture.cc) with one record mutated
# (flipped bytes, a length, an opcode), over tcp and over shm, to a running
# server, while honest victims (eglretrace replaying the trace through the
# same server, shm) render one after another throughout. Checks:
#   - the server never dies (checked after every mutant) and serves a new
#     client at the end;
#   - each mutated session either ends with a message from the server,
#     stalls on bytes its length promised (it is closed), or is applied to
#     its end (a harmless mutation); nothing else;
#   - every victim's snapshots equal the native replay's.
#
#   mutation.sh MGL TRACE_DIR MUTATE [SEEDS [FIRST_SEED]]
# CI runs 60 seeds (under a minute); the longer run (docs/RELIABILITY.md):
#   tests/hostile/mutation.sh build/tools/mgl ../shared/traces build/tests/hostile/mgl-mutate 2000
# MUTATION_BACKENDS: the backends the mutants ask for (default "espryt magma").
source "$(dirname "$0")/lib.sh"
hostile_init "$1" "$2"
mutate=${3:?mgl-mutate binary}
seeds=${4:-60}
first=${5:-1}
backends=(${MUTATION_BACKENDS:-espryt magma})
parallel=3

cap="$work/victim.mglcap"
if ! env -u DISPLAY WAFFLE_PLATFORM=surfaceless_egl timeout 300 "$mgl" capture -o "$cap" -- \
    eglretrace --headless "$traces/$victim_trace" >"$work/capture.log" 2>&1; then
    bad "could not capture $victim_trace"; tail -5 "$work/capture.log" | sed 's/^/    /'; hostile_done; exit
fi
sed -n 's/^mgl capture: /captured: /p' "$work/capture.log"

start_server srv --listen "unix:$work/srv.sock" --listen tcp://127.0.0.1:0 --backend espryt || { bad "server did not start"; hostile_done; exit; }
tcp=$(sed -n "s/.*listening on \(tcp:[^ ]*\).*/\1/p" "$work/srv.log" | head -1)
shm="shm:$work/srv.sock"
pid=$(server_pid srv)

# The mutants, `parallel` at a time; one line each in $work/mutants.log.
run_mutants() {
    local s url backend
    for ((s = first; s < first + seeds; s++)); do
        url=$([[ $((s % 2)) -eq 0 ]] && echo "$tcp" || echo "$shm")
        backend=${backends[$(((s / 2) % ${#backends[@]}))]}
        (
            out=$(timeout 40 "$mutate" "$cap" "$url" "$backend" "$s" 20 2>>"$work/mutants.err"); rc=$?
            echo "$rc ${url%%:*} $backend $(echo "${out:-(no output)}" | tail -1)"
        ) >>"$work/mutants.log" &
        while [[ $(jobs -rp | wc -l) -ge $parallel ]]; do sleep 0.05; done
        if ! kill -0 "$pid" 2>/dev/null; then echo "SERVER DIED after seed $s" >>"$work/mutants.log"; break; fi
    done
    wait
}
: >"$work/mutants.log"
start=$SECONDS
run_mutants &
mutants=$!
round=0
# Victims one after another until the mutants are done (one at least).
while :; do
    round=$((round + 1))
    start_victim "$shm"
    check_victim "victim $round (during the mutants)"
    kill -0 "$mutants" 2>/dev/null || break
    [[ $round -ge 50 ]] && break
done
wait "$mutants"
echo "$seeds mutants and $round victims in $((SECONDS - start)) s"

if grep -q "SERVER DIED" "$work/mutants.log" || ! kill -0 "$pid" 2>/dev/null; then
    bad "the server died"; tail -20 "$work/srv.log" | sed 's/^/    /'
else ok "the server lived through $seeds mutated sessions"; fi
ended=$(awk '$1 == 1' "$work/mutants.log" | wc -l)
stalled=$(awk '$1 == 5' "$work/mutants.log" | wc -l)
applied=$(awk '$1 == 0' "$work/mutants.log" | wc -l)
silent=$(awk '$1 == 1 && / ended by the server: *$/' "$work/mutants.log" | wc -l)
other=$(awk '$1 != 0 && $1 != 1 && $1 != 5' "$work/mutants.log")
echo "mutants: $ended ended by the server, $stalled stalled and closed, $applied applied to their end (harmless)"
awk '$1 == 1' "$work/mutants.log" | cut -d' ' -f2- | head -8 | sed 's/^/    /'
[[ -z "$other" ]] && ok "every mutant ended, stalled or was applied" || { bad "mutants that did something else:"; echo "$other" | head -10 | sed 's/^/    /'; }
[[ $silent -eq 0 ]] && ok "every mutant the server ended got a message" || bad "$silent mutants ended without a message"
[[ $ended -ge $((seeds / 4)) ]] && ok "the mutations bite ($ended of $seeds sessions ended by the server)" \
    || bad "only $ended of $seeds mutated sessions ended by the server: the mutations are too gentle"
faults=$(grep -c "ended (fault)" "$work/srv.log")
[[ $faults -ge $ended ]] && ok "the server logged $faults faulted sessions (a line each)" \
    || bad "the server logged $faults faulted sessions for $ended ended mutants"
check_server_alive srv "$tcp"
hostile_done
