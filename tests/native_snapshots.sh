#!/usr/bin/env bash
# Sourced by the trace replays (tests/traces, tests/capture): uses $work.
# The native replay's snapshots, the baseline. With TRACES_NATIVE_CACHE set
# (the test suite sets it), they are kept there and reused by the next
# transport's run while the trace, the snapshot calls, the replayer (RETRACE:
# eglretrace, or glretrace under X) and the
# host driver's files are unchanged; sets $native to their folder.
source "$(dirname "${BASH_SOURCE[0]}")/native_cache_key.sh"
native_snapshots() {
    local t=$1 calls=$2 key
    native="$work/native"
    if [[ -n "${TRACES_NATIVE_CACHE:-}" ]]; then
        native="$TRACES_NATIVE_CACHE/$(basename "$t" .trace)"
        key="$(stat -Lc '%s %Y' "$t") $calls ${RETRACE:-eglretrace} $(native_cache_key "${RETRACE:-eglretrace}")"
        if [[ -f "$native/key" && "$(cat "$native/key")" == "$key" ]] && ls "$native"/*.png >/dev/null 2>&1; then
            return
        fi
    fi
    rm -rf "$native" && mkdir -p "$native"
    if [[ ${RETRACE:-eglretrace} == glretrace ]]; then
        glretrace -S "$calls" -s "$native/" "$t" >"$work/native.log" 2>&1  # on the caller's X server
    else
        env -u DISPLAY WAFFLE_PLATFORM=surfaceless_egl eglretrace --headless -S "$calls" -s "$native/" "$t" >"$work/native.log" 2>&1
    fi
    [[ -n "${TRACES_NATIVE_CACHE:-}" ]] && echo "$key" >"$native/key"
}
