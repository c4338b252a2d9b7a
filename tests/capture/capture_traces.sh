#!/usr/bin/env bash
# Captures eglretrace replaying reference traces through the stack (`mgl
# capture`, inproc), replays each capture with `mgl replay`, and compares the
# replay's snapshots with the native eglretrace replay's on this machine, as
# tests/traces does: Espryt pixel for pixel, Magma within its documented
# tolerance (-fuzz 1%, docs/ARCHITECTURE-magma.md). Also checks that `mgl
# dump` prints one line per record and that the count equals `mgl dump --stats`.
#
# BACKENDS is a list of CAPTURE[:REPLAY]: captured on CAPTURE, replayed on
# REPLAY (default: the same). Across backends, the values the capturing
# server chose (uniform and attribute locations, block indices) are mapped by
# the replay from the replies stored in the capture (docs/ARCHITECTURE.md,
# Capture files); the replay's line says how many differed.
#
#   capture_traces.sh MGL TRACE_DIR BACKENDS [TRACE_NAME_REGEX [EXCLUDE_REGEX]]
#   e.g. capture_traces.sh build/tools/mgl ../shared/traces "espryt espryt:magma magma:espryt"
#
# TRACES_NATIVE_CACHE: where native snapshots are kept (shared with tests/traces).
# CAPTURE_KEEP=DIR: keep the captures there.
set -uo pipefail
mgl=${1:?mgl binary}
traces=${2:?trace dir}
if [[ ! -f "$traces/README.md" ]]; then echo "SKIP: no reference traces at $traces"; exit 77; fi
backends=${3:-espryt}
filter=${4:-.}
exclude=${5:-}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

calls_of() {
    awk -v t="### \`$1\`" '$0 == t {f=1; next} f && /^### / {exit} f && /^- snapshots:/ {
        n = split($0, a, "call "); s = ""; for (i = 2; i <= n; i++) { split(a[i], b, /[^0-9]/); s = s (s ? "," : "") b[1] } print s; exit }' \
        "$traces/README.md"
}
# "frame 100 = call 3678, ..." -> "100:3678 ..."
frames_calls_of() {
    awk -v t="### \`$1\`" '$0 == t {f=1; next} f && /^### / {exit} f && /^- snapshots:/ {
        n = split($0, a, "frame "); s = ""; for (i = 2; i <= n; i++) { split(a[i], b, /[^0-9]+/); s = s " " b[1] ":" b[2] } print s; exit }' \
        "$traces/README.md"
}

source "$(dirname "$0")/../native_snapshots.sh"  # native_snapshots, as the traces suite takes them

pass=0
fail=0
for t in "$traces"/*.trace; do
    name=$(basename "$t")
    [[ "$name" =~ $filter ]] || continue
    if [[ -n "$exclude" && "$name" =~ $exclude ]]; then echo "known $name: excluded (EXCLUDE_REGEX: see the caller)"; continue; fi
    calls=$(calls_of "$name")
    pairs=$(frames_calls_of "$name")
    if [[ -z "$calls" ]]; then echo "SKIP $name: no snapshot calls in README"; continue; fi
    native_snapshots "$t" "$calls"
    snap_frames=$(for p in $pairs; do echo -n "${p%%:*},"; done); snap_frames=${snap_frames%,}
    for spec in $backends; do
        cb=${spec%%:*} b=${spec##*:}
        cap="$work/$(basename "$t" .trace)-$cb.mglcap"
        if [[ ! -f "$cap" ]]; then
            if ! env -u DISPLAY WAFFLE_PLATFORM=surfaceless_egl timeout 300 "$mgl" capture --backend "$cb" -o "$cap" -- \
                eglretrace --headless "$t" >"$work/capture.log" 2>&1; then
                echo "FAIL $name [$cb]: capture exited non-zero"; tail -5 "$work/capture.log" | sed 's/^/    /'
                rm -f "$cap"; fail=$((fail + 1)); continue
            fi
            [[ -n "${CAPTURE_KEEP:-}" ]] && mkdir -p "$CAPTURE_KEEP" && cp "$cap" "$CAPTURE_KEEP/"
            # dump: one line per record (lines not starting with '#'), equal to --stats.
            lines=$("$mgl" dump "$cap" 2>"$work/dump.err" | grep -vc '^#')
            dump_rc=${PIPESTATUS[0]}
            stats=$("$mgl" dump --stats "$cap" 2>>"$work/dump.err" | awk '/^total:/ {print $6}')
            if [[ $dump_rc -ne 0 || -z "$stats" || "$lines" != "$stats" || "$lines" -eq 0 ]]; then
                echo "FAIL $name [$cb]: mgl dump printed $lines records (rc $dump_rc), --stats says '${stats}'"; sed 's/^/    /' "$work/dump.err"
                rm -f "$cap"; fail=$((fail + 1)); continue
            fi
        fi
        out="$work/$cb-$b"
        rm -rf "$out"
        if ! env -u DISPLAY timeout 600 "$mgl" replay "$cap" --backend "$b" --snapshot "$snap_frames" --snapshot-dir "$out" \
            >"$work/$b.log" 2>&1; then
            echo "FAIL $name [$spec]: mgl replay exited non-zero"; tail -5 "$work/$b.log" | sed 's/^/    /'
            fail=$((fail + 1)); continue
        fi
        fuzz=()
        [[ "$b" == magma ]] && fuzz=(-fuzz 1%)
        bad=""
        for p in $pairs; do
            frame=${p%%:*} call=${p##*:}
            want="$native/$(printf '%010d' "$call").png"
            got="$out/$(printf '%010d' "$frame").png"
            if [[ ! -f "$want" ]]; then bad+=" native frame $frame (call $call):missing"; continue; fi
            if [[ ! -f "$got" ]]; then bad+=" frame $frame:missing"; continue; fi
            ae=$(compare -metric AE "${fuzz[@]}" "$want" "$got" null: 2>&1 || true)
            [[ "$ae" == "0" ]] || bad+=" frame $frame:${ae}px"
        done
        warnings=$(grep -c "warning" "$work/$b.log" || true)
        remapped=$(sed -n 's/.*replayed on [a-z]*: \(.*\)/\1/p' "$work/$b.log" | head -1)
        if grep -q "no stored reply" "$work/$b.log"; then
            echo "FAIL $name [$spec]: the capture lacks the replies of server-chosen values:"; grep "no stored reply" "$work/$b.log" | sed 's/^/    /'
            fail=$((fail + 1))
        elif [[ -n "$bad" ]]; then
            echo "FAIL $name [$spec]: replay snapshots differ from native:$bad${remapped:+ ($remapped)}"; fail=$((fail + 1))
        else
            echo "ok   $name [$spec] ($lines records, $(ls "$out" | wc -l) snapshots equal to native, $warnings warnings${remapped:+, $remapped}; $(tail -1 "$work/$b.log"))"
            pass=$((pass + 1))
        fi
    done
done
echo "$pass passed, $fail failed"
[[ $fail -eq 0 && $pass -gt 0 ]]
