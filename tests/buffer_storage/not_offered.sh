#!/usr/bin/env bash
# Buffer storage is offered only where the mapping can be the driver's own
# memory: a client in the server's process (inproc, direct) that is not being
# captured. Through shm and tcp, and under `mgl capture` on inproc and
# direct, storage-probe must report both extensions missing (and the run must
# be MobileGL's, not the machine's own vendor).
#   not_offered.sh MGL STORAGE_PROBE
set -uo pipefail
mgl=${1:?mgl binary}
probe=${2:?storage-probe binary}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
unset DISPLAY
fail=0
check() {  # NAME COMMAND...
    local name=$1; shift
    MOBILEGL_LOG_LEVEL=debug timeout 120 "$@" >"$work/out.txt" 2>"$work/err.txt"
    if ! grep -q "MobileGL" "$work/err.txt"; then echo "FAIL $name: not MobileGL's context"; tail -5 "$work/err.txt"; fail=1; return; fi
    if [[ "$(grep -c ': GL_[A-Z]*_buffer_storage missing$' "$work/out.txt")" != 2 ]]; then
        echo "FAIL $name: buffer storage offered:"; head -3 "$work/out.txt"; fail=1; return
    fi
    echo "ok $name: not offered"
}
check shm "$mgl" run --transport shm -- "$probe"
check tcp "$mgl" run --transport tcp -- "$probe"
check "capture on inproc" "$mgl" capture -o "$work/inproc.mglcap" --transport inproc -- "$probe"
check "capture on direct" "$mgl" capture -o "$work/direct.mglcap" --transport direct -- "$probe"
[[ $fail -eq 0 ]]
