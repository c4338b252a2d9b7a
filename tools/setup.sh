#!/usr/bin/env bash
# Installs the Debian packages the project needs (when missing), then
# configures and builds it. Used by the README's two commands and by CI.
#   tools/setup.sh [BUILD_DIR] [extra meson options...]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
shift || true

missing=()
while read -r pkg; do
    [[ -z "$pkg" || "$pkg" == \#* ]] && continue
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
done <"$root/.ci/packages.txt"
if ((${#missing[@]})); then
    echo "setup: installing ${#missing[@]} Debian packages: ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -q >/dev/null
    apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null
fi

# -O2 without debug info: the generated sources (decoders, encoders, entry
# points and tests for 3206 verbs) compile several times faster without -g.
if [[ ! -f "$build/build.ninja" ]]; then
    meson setup "$build" "$root" -Doptimization=2 -Ddebug=false "$@" >/dev/null
fi
jobs=$(nproc)
ninja -C "$build" -j "$jobs"
