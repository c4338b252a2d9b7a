#!/usr/bin/env bash
# Shared pieces of the hostile-client suite (tests/hostile/*.sh). Each test
# starts a real `mgl server`, puts a victim session on it (eglretrace replaying
# a reference trace, unmodified, through `mgl run`), attacks the server as a
# hostile client would, and then checks that
#   - the server process is still alive and still serves a new client,
#   - the victim's snapshots are identical to the native replay's.
#
#   source "$(dirname "$0")/lib.sh"
#   hostile_init MGL_BINARY TRACE_DIR       # sets $work, traps cleanup
#   start_server NAME ARGS...               # --listen ... ; sets server_pid_NAME, waits until it listens
#   start_victim TRANSPORT_URL [TRACE]      # background replay; sets $victim_pid
#   ... the attack ...
#   check_victim                            # waits for it, compares with native; counts a failure
#   check_server_alive NAME TRANSPORT_URL   # process alive + a fresh client renders
#   hostile_done                            # prints "N passed, N failed", exits
#
# Everything runs on loopback or unix sockets inside $work; every loop is
# bounded in count and time.
set -uo pipefail

hostile_pass=0
hostile_fail=0
declare -A hostile_servers=()

hostile_init() {
    mgl=${1:?mgl binary}
    traces=${2:?trace dir}
    if [[ ! -f "$traces/README.md" ]]; then echo "SKIP: no reference traces at $traces"; exit 77; fi
    work=$(mktemp -d /tmp/mgl-hostile.XXXXXX)
    trap hostile_cleanup EXIT
    # The victim: a short trace with snapshots, replayed while the attack runs.
    victim_trace=${HOSTILE_VICTIM_TRACE:-glmark2-es2-effect2d_kernel-0.1.0_1.-4.1_0.1.0.trace}
}

hostile_cleanup() {
    local name
    for name in "${!hostile_servers[@]}"; do kill -9 "${hostile_servers[$name]}" 2>/dev/null; done
    [[ -n "${victim_pid:-}" ]] && kill -9 "$victim_pid" 2>/dev/null
    wait 2>/dev/null
    [[ -n "${HOSTILE_KEEP:-}" ]] || rm -rf "$work"
}

ok() { echo "ok   $*"; hostile_pass=$((hostile_pass + 1)); }
bad() { echo "FAIL $*"; hostile_fail=$((hostile_fail + 1)); }

# start_server NAME ARGS...: `mgl server ARGS` with its log in $work/NAME.log.
start_server() {
    local name=$1; shift
    env -u __EGL_VENDOR_LIBRARY_FILENAMES "$mgl" server "$@" >"$work/$name.log" 2>&1 &
    hostile_servers[$name]=$!
    local t
    for ((t = 0; t < 200; t++)); do
        grep -q "listening on" "$work/$name.log" 2>/dev/null && return 0
        kill -0 "${hostile_servers[$name]}" 2>/dev/null || break
        sleep 0.05
    done
    echo "server $name did not start:"; sed 's/^/    /' "$work/$name.log"
    return 1
}
server_pid() { echo "${hostile_servers[$1]}"; }

# The snapshot calls of a trace, from its README.
snapshot_calls() {
    awk -v t="### \`$1\`" '$0 == t {f=1; next} f && /^### / {exit} f && /^- snapshots:/ {
        n = split($0, a, "call "); s = ""; for (i = 2; i <= n; i++) { split(a[i], b, /[^0-9]/); s = s (s ? "," : "") b[1] } print s; exit }' \
        "$traces/README.md"
}

# start_victim TRANSPORT_URL [TRACE]: replays the trace through the server in
# the background, snapshots into $work/victim.
start_victim() {
    local url=$1 trace=${2:-$victim_trace}
    victim_calls=$(snapshot_calls "$trace")
    victim_file="$traces/$trace"
    rm -rf "$work/victim" && mkdir -p "$work/victim"
    # --loop keeps the victim busy through the attack: the last pass's snapshots are compared.
    env -u DISPLAY WAFFLE_PLATFORM=surfaceless_egl timeout 300 "$mgl" run --transport "$url" -- \
        eglretrace --headless -S "$victim_calls" -s "$work/victim/" "$victim_file" >"$work/victim.log" 2>&1 &
    victim_pid=$!
}

# check_victim: the victim finished, and its snapshots equal the native replay's.
check_victim() {
    local what=${1:-victim}
    if ! wait "$victim_pid"; then
        bad "$what: the victim's replay failed"; sed 's/^/    /' "$work/victim.log" | tail -5
        victim_pid=; return
    fi
    victim_pid=
    if [[ ! -d "$work/native" ]]; then
        mkdir -p "$work/native"
        env -u DISPLAY WAFFLE_PLATFORM=surfaceless_egl eglretrace --headless -S "$victim_calls" \
            -s "$work/native/" "$victim_file" >"$work/native.log" 2>&1
    fi
    local png got ae diff=""
    for png in "$work/native"/*.png; do
        got="$work/victim/$(basename "$png")"
        if [[ ! -f "$got" ]]; then diff+=" $(basename "$png"):missing"; continue; fi
        ae=$(compare -metric AE "$png" "$got" null: 2>&1 || true)
        [[ "$ae" == "0" ]] || diff+=" $(basename "$png"):${ae}px"
    done
    if [[ -n "$diff" ]]; then bad "$what: the victim's snapshots differ from native:$diff"
    else ok "$what: the victim's snapshots are identical to native"; fi
}

# check_server_alive NAME URL: the process lives and a new client gets a
# frame rendered (a short trace replays through it).
check_server_alive() {
    local name=$1 url=$2 pid=${hostile_servers[$1]}
    if ! kill -0 "$pid" 2>/dev/null; then
        bad "$name: the server died"; tail -5 "$work/$name.log" | sed 's/^/    /'; return
    fi
    if env -u DISPLAY WAFFLE_PLATFORM=surfaceless_egl timeout 120 "$mgl" run --transport "$url" -- \
        eglretrace --headless "$traces/$victim_trace" >"$work/probe.log" 2>&1 &&
        grep -q "Rendered" "$work/probe.log"; then
        ok "$name: the server is alive and serves a new client"
    else
        bad "$name: the server no longer serves a new client"; tail -5 "$work/probe.log" | sed 's/^/    /'
    fi
}

hostile_done() {
    echo "$hostile_pass passed, $hostile_fail failed"
    [[ $hostile_fail -eq 0 ]]
}
