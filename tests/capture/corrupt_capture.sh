#!/usr/bin/env bash
# A capture cut short or with a flipped byte anywhere must end `mgl dump` and
# `mgl replay` with a clear message (exit 1), never a crash or a silent
# success. Every byte of the format is checked (header and summary FNV-1a,
# zstd content checksums, sizes, record walks, zero padding), so every
# mutation below must be reported. A capture from another schema (wire
# fingerprint) is refused by `mgl replay` with both fingerprints named.
#
#   corrupt_capture.sh MGL TRACE
set -uo pipefail
mgl=${1:?mgl binary}
trace=${2:?a short trace}
if [[ ! -f "$trace" ]]; then echo "SKIP: no trace $trace"; exit 77; fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cap="$work/good.mglcap"
if ! env -u DISPLAY WAFFLE_PLATFORM=surfaceless_egl timeout 300 "$mgl" capture -o "$cap" -- \
    eglretrace --headless "$trace" >"$work/capture.log" 2>&1; then
    echo "FAIL: capture exited non-zero"; tail -5 "$work/capture.log"; exit 1
fi
size=$(stat -c %s "$cap")
pass=0
fail=0
# check LABEL FILE CMD...: exit status 1 and the reader's message, no signal.
check() {
    local label=$1 file=$2; shift 2
    "$mgl" "$@" "$file" >/dev/null 2>"$work/err"
    local rc=$?
    if [[ $rc -eq 1 ]] && grep -q "corrupt or truncated capture at byte" "$work/err"; then
        pass=$((pass + 1))
    else
        echo "FAIL $label: $* exited $rc: $(head -c 300 "$work/err")"; fail=$((fail + 1))
    fi
}
"$mgl" dump --stats "$cap" >/dev/null || { echo "FAIL: the good capture does not read"; exit 1; }
# Truncations: in the header, in blocks, in the end block.
for cut in 0 7 12 20 $((size / 3)) $((size / 2)) $((size - 17)) $((size - 1)); do
    head -c "$cut" "$cap" >"$work/cut"
    check "cut at $cut" "$work/cut" dump --stats
done
head -c $((size / 2)) "$cap" >"$work/cut"
check "replay cut at half" "$work/cut" replay --backend null
# Flipped bytes at 40 offsets spread over the file, and every byte of the
# segment header.
offsets=$(seq 0 23; for i in $(seq 1 40); do echo $((i * (size - 1) / 41)); done; echo $((size - 1)))
for off in $offsets; do
    cp "$cap" "$work/flip"
    orig=$(od -An -tu1 -j "$off" -N1 "$work/flip" | tr -d ' ')
    printf "$(printf '\\%03o' $(((orig ^ 0x5a) & 255)))" | dd of="$work/flip" bs=1 seek="$off" conv=notrunc status=none
    check "flip at $off" "$work/flip" dump --stats
done
cp "$cap" "$work/flip"
printf '\xff' | dd of="$work/flip" bs=1 seek=$((size / 2)) conv=notrunc status=none
check "replay flip at half" "$work/flip" replay --backend null
# Another schema: the same capture with another wire fingerprint in its
# header (checksum made again) is refused by replay, naming both.
fp=$("$mgl" dump "$cap" | sed -n 's/.*wire fingerprint \([0-9a-f]*\).*/\1/p' | head -1)
python3 - "$cap" "$work/other" "$fp" <<'PY'
import struct, sys
data = bytearray(open(sys.argv[1], 'rb').read())
n = struct.unpack_from('<I', data, 8)[0]
old = struct.pack('<Q', int(sys.argv[3], 16))
head = data[16:16 + n]
at = head.find(old)
assert at >= 0, 'fingerprint not found in the header'
head[at:at + 8] = struct.pack('<Q', int(sys.argv[3], 16) ^ 0x1234)
h = 2166136261
for b in head:
    h = ((h ^ b) * 16777619) & 0xffffffff
data[16:16 + n] = head
struct.pack_into('<I', data, 12, h)
open(sys.argv[2], 'wb').write(data)
PY
other=$(printf '%016x' $((0x$fp ^ 0x1234)))
"$mgl" replay --backend null "$work/other" >/dev/null 2>"$work/err"
rc=$?
if [[ $rc -eq 1 ]] && grep -q "fingerprint $other" "$work/err" && grep -q "reads $fp" "$work/err"; then
    pass=$((pass + 1))
else
    echo "FAIL other fingerprint: replay exited $rc: $(head -c 300 "$work/err")"; fail=$((fail + 1))
fi
echo "$pass passed, $fail failed"
[[ $fail -eq 0 ]]
