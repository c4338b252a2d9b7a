#!/usr/bin/env bash
# Replays reference traces with eglretrace (or glretrace), unmodified, through the stack
# (`mgl run`) and natively on the same machine, and compares the snapshots
# of the frames the traces' README lists, pixel by pixel, with the native
# replay's on this machine and driver (the reference PNGs next to the traces
# came from another machine's llvmpipe; the native replay here is the baseline).
#
#   replay_traces.sh MGL TRACE_DIR TRANSPORTS [TRACE_NAME_REGEX [EXCLUDE_REGEX]]
#   e.g. replay_traces.sh build/tools/mgl/mgl ../shared/traces "inproc shm tcp"
#
# Tolerance: none. On llvmpipe the wire must not change a single pixel;
# a driver that rasterises differently would need a documented tolerance.
set -uo pipefail
mgl=${1:?mgl binary}
traces=${2:?trace dir}
if [[ ! -f "$traces/README.md" ]]; then echo "SKIP: no reference traces at $traces"; exit 77; fi
transports=${3:-inproc}
filter=${4:-.}
exclude=${5:-}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# RETRACE=glretrace: the GLX replayer under a private X server (tests/xvfb.sh),
# natively (Mesa's GLX) and through the stack (our GLX vendor), instead of
# eglretrace on a surfaceless EGL display.
retrace=${RETRACE:-eglretrace}
case $retrace in
    eglretrace) ;;
    glretrace) source "$(dirname "$0")/../xvfb.sh" ;;
    *) echo "RETRACE=$retrace: eglretrace or glretrace"; exit 2 ;;
esac

# Snapshot calls per trace, from the traces' README ("snapshots: frame N = call C, ...").
calls_of() {
    awk -v t="### \`$1\`" '$0 == t {f=1; next} f && /^### / {exit} f && /^- snapshots:/ {
        n = split($0, a, "call "); s = ""; for (i = 2; i <= n; i++) { split(a[i], b, /[^0-9]/); s = s (s ? "," : "") b[1] } print s; exit }' \
        "$traces/README.md"
}

# The native replay's snapshots, the baseline (tests/native_snapshots.sh).
source "$(dirname "$0")/../native_snapshots.sh"

pass=0
fail=0
for t in "$traces"/*.trace; do
    name=$(basename "$t")
    [[ "$name" =~ $filter ]] || continue
    if [[ -n "$exclude" && "$name" =~ $exclude ]]; then echo "known $name: excluded (see docs/PERFORMANCE.md and the suite's meson.build)"; continue; fi
    calls=$(calls_of "$name")
    if [[ -z "$calls" ]]; then echo "SKIP $name: no snapshot calls in README"; continue; fi
    native_snapshots "$t" "$calls"
    for tr in $transports; do
        out="$work/$tr"
        rm -rf "$out" && mkdir -p "$out"
        if [[ $retrace == glretrace ]]; then
            # At debug level the client names its context ("context N: ... MobileGL"): proof that
            # glvnd gave the program our GLX vendor, not the host's.
            MOBILEGL_LOG_LEVEL=debug timeout 300 "$mgl" run --transport "$tr" -- glretrace -S "$calls" -s "$out/" "$t" >"$work/$tr.log" 2>&1
        else
            env -u DISPLAY WAFFLE_PLATFORM=surfaceless_egl timeout 300 "$mgl" run --transport "$tr" -- \
                eglretrace --headless -S "$calls" -s "$out/" "$t" >"$work/$tr.log" 2>&1
        fi
        if [[ $? -ne 0 ]]; then
            echo "FAIL $name [$tr]: replay exited non-zero"; tail -5 "$work/$tr.log" | sed 's/^/    /'
            fail=$((fail + 1)); continue
        fi
        bad=""
        if [[ $retrace == glretrace ]]; then
            grep -q "context [0-9]*: .*MobileGL" "$work/$tr.log" || bad+=" not-on-our-vendor"
            # glretrace's own checks (e.g. "error: drawable failed to resize") beyond the native run's.
            errs=$(grep -c '^error:' "$work/$tr.log") || true
            native_errs=$(grep -c '^error:' "$work/native.log" 2>/dev/null) || native_errs=0
            [[ $errs -le $native_errs ]] ||
                bad+=" glretrace-errors:$(grep -m1 '^error:' "$work/$tr.log")"
        fi
        for png in "$native"/*.png; do
            got="$out/$(basename "$png")"
            if [[ ! -f "$got" ]]; then bad+=" $(basename "$png"):missing"; continue; fi
            ae=$(compare -metric AE "$png" "$got" null: 2>&1 || true)
            [[ "$ae" == "0" ]] || bad+=" $(basename "$png"):${ae}px"
        done
        warnings=$(grep -c "warning" "$work/$tr.log" || true)
        if [[ -n "$bad" ]]; then
            echo "FAIL $name [$tr]: snapshots differ from native:$bad"; fail=$((fail + 1))
        else
            echo "ok   $name [$tr] ($(ls "$out" | wc -l) snapshots identical to native, $warnings warnings)"; pass=$((pass + 1))
        fi
    done
done
echo "$pass passed, $fail failed"
[[ $fail -eq 0 ]]
