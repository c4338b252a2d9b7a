#!/usr/bin/env bash
# Replays reference traces with eglretrace through the stack on the Magma
# backend (`mgl run --backend magma`) and natively on this machine, and
# compares the snapshots the traces' README lists.
#
#   replay_magma.sh MGL TRACE_DIR [TRACE_NAME_REGEX] [FUZZ_PERCENT]
#
# Tolerance (docs/ARCHITECTURE-magma.md): lavapipe and llvmpipe share a
# rasterizer but not every rounding step, so a pixel may differ from native
# by FUZZ_PERCENT (default 1%, i.e. 2/255 per channel); any larger
# difference fails. PAE reports the largest channel difference seen.
#
# MGL_TRANSPORT: the transport (default inproc; direct decodes on the app's
# own thread, which Magma allows and Espryt does not).
# MGL_VALIDATE=1: Magma runs under the Khronos validation layer and any
# validation message fails the trace (the layer must be installed).
set -uo pipefail
mgl=${1:?mgl binary}
traces=${2:?trace dir}
filter=${3:-.}
fuzz=${4:-1}
if [[ ! -f "$traces/README.md" ]]; then echo "SKIP: no reference traces at $traces"; exit 77; fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
validate=()
if [[ "${MGL_VALIDATE:-0}" == 1 ]]; then
    layer=$(ls /usr/share/vulkan/explicit_layer.d/VkLayer_khronos_validation.json 2>/dev/null)
    if [[ -z "$layer" ]]; then echo "FAIL: MGL_VALIDATE=1 but the validation layer is not installed (vulkan-validationlayers)"; exit 1; fi
    validate=(VK_INSTANCE_LAYERS=VK_LAYER_KHRONOS_validation)
fi

calls_of() {
    awk -v t="### \`$1\`" '$0 == t {f=1; next} f && /^### / {exit} f && /^- snapshots:/ {
        n = split($0, a, "call "); s = ""; for (i = 2; i <= n; i++) { split(a[i], b, /[^0-9]/); s = s (s ? "," : "") b[1] } print s; exit }' \
        "$traces/README.md"
}

pass=0
fail=0
for t in "$traces"/*.trace; do
    name=$(basename "$t")
    [[ "$name" =~ $filter ]] || continue
    calls=$(calls_of "$name")
    if [[ -z "$calls" ]]; then echo "SKIP $name: no snapshot calls in README"; continue; fi
    rm -rf "$work/native" "$work/magma" && mkdir -p "$work/native" "$work/magma"
    env -u DISPLAY WAFFLE_PLATFORM=surfaceless_egl eglretrace --headless -S "$calls" -s "$work/native/" "$t" >"$work/native.log" 2>&1
    start=$(date +%s.%N)
    if ! env -u DISPLAY WAFFLE_PLATFORM=surfaceless_egl "${validate[@]}" timeout 600 "$mgl" run --backend magma --transport "${MGL_TRANSPORT:-inproc}" -- \
        eglretrace --headless -S "$calls" -s "$work/magma/" "$t" >"$work/magma.log" 2>&1; then
        echo "FAIL $name: replay exited non-zero"; tail -5 "$work/magma.log" | sed 's/^/    /'
        fail=$((fail + 1)); continue
    fi
    secs=$(echo "$(date +%s.%N) - $start" | bc)
    bad=""
    detail=""
    for png in "$work/native"/*.png; do
        got="$work/magma/$(basename "$png")"
        if [[ ! -f "$got" ]]; then bad+=" $(basename "$png"):missing"; continue; fi
        ae=$(compare -metric AE -fuzz "$fuzz%" "$png" "$got" null: 2>&1 || true)
        exact=$(compare -metric AE "$png" "$got" null: 2>&1 || true)
        pae=$(compare -metric PAE "$png" "$got" null: 2>&1 | sed 's/ .*//' || true)
        detail+=" ${exact}px/max${pae}"
        [[ "$ae" == "0" ]] || bad+=" $(basename "$png"):${ae}px>${fuzz}%"
    done
    warnings=$(grep -c -E "magma: .*(not supported|refused)" "$work/magma.log" || true)
    vvl=$(grep -c -E "Validation (Error|Warning)" "$work/magma.log" || true)
    if [[ ${#validate[@]} -gt 0 && "$vvl" != 0 ]]; then
        bad+=" ${vvl}-validation-messages"
        grep -m3 -E "Validation (Error|Warning)" "$work/magma.log" | cut -c1-300 | sed 's/^/    /'
    fi
    if [[ -n "$bad" ]]; then
        echo "FAIL $name:$bad (differing pixels/max channel diff of 65535:$detail; ${secs}s; $warnings magma warnings)"
        grep -E "magma: .*(not supported|refused)" "$work/magma.log" | sed 's/^.*magma: /    magma: /' | sort | uniq | head -5
        fail=$((fail + 1))
    else
        echo "ok   $name (within ${fuzz}%; differing pixels/max channel diff of 65535:$detail; ${secs}s; $warnings magma warnings)"
        pass=$((pass + 1))
    fi
done
echo "$pass passed, $fail failed"
[[ $fail -eq 0 ]]
