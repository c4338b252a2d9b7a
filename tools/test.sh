#!/usr/bin/env bash
# Sets everything up and runs the whole test suite (the README's test
# command; CI runs it). The long lists run in a representative part; the
# whole lists and the AddressSanitizer + UndefinedBehaviorSanitizer pass:
# tools/test-full.sh (tools/test-sanitizers.sh alone for the latter).
#   tools/test.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
start=$SECONDS
"$root/tools/setup.sh" "$root/build"
echo "test: build took $((SECONDS - start)) s"
t0=$SECONDS
if ! meson test -C "$root/build" --print-errorlogs; then
    echo "test: tests took $((SECONDS - t0)) s"
    # A CI reader may see only the end of the log: the failures, shortly, last.
    python3 "$root/tools/test_digest.py" "$root/build" || true
    exit 1
fi
echo "test: tests took $((SECONDS - t0)) s"

echo "test: total $((SECONDS - start)) s"
