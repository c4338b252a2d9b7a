#!/bin/sh
# Re-runs the gl.xml importer into a temporary file and checks that the
# committed protocol/gl.fbs is exactly what it produces (same opcodes, same
# annotations, byte for byte). Also checks the verb count against Debian's
# gl.xml (package khronos-api) and, when flatc is installed, that it parses.
#
# usage: check_importer.sh [IMPORTER [GL_XML [PROTOCOL_DIR]]]
set -eu

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
importer=${1:-$root/tools/schema-import/import_glxml.py}
glxml=${2:-/usr/share/khronos-api/gl.xml}
protocol=${3:-$root/protocol}

# Commands required by features/extensions for gl, glcore and gles2 in
# Debian's gl.xml (khronos-api 2022), see tools/schema-import/README.md.
debian_glxml=/usr/share/khronos-api/gl.xml
expected_verbs=3205

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

if ! python3 "$importer" --glxml "$glxml" --protocol "$protocol" --out "$tmp/gl.fbs" >"$tmp/log" 2>&1; then
    cat "$tmp/log" >&2
    echo "FAIL: importer exited non-zero" >&2
    exit 1
fi
cat "$tmp/log"

if [ "$(readlink -f "$glxml")" = "$(readlink -f "$debian_glxml")" ]; then
    n=$(sed -n 's/^verbs emitted: \([0-9]*\).*/\1/p' "$tmp/log")
    if [ "$n" != "$expected_verbs" ]; then
        echo "FAIL: expected $expected_verbs verbs from $debian_glxml, importer emitted '$n'" >&2
        exit 1
    fi
fi

if ! diff -u "$protocol/gl.fbs" "$tmp/gl.fbs" >"$tmp/diff"; then
    head -n 60 "$tmp/diff" >&2
    echo "FAIL: $protocol/gl.fbs is not what the importer produces; run it and commit the result" >&2
    exit 1
fi

if ! diff -u "$protocol/gl_enums.tsv" "$tmp/gl_enums.tsv" >"$tmp/diff"; then
    head -n 20 "$tmp/diff" >&2
    echo "FAIL: $protocol/gl_enums.tsv is not what the importer produces; run it and commit the result" >&2
    exit 1
fi

if command -v flatc >/dev/null 2>&1; then
    if ! flatc --cpp -o "$tmp/flatc" "$protocol/gl.fbs" >"$tmp/flatc.log" 2>&1; then
        grep -v 'should be lowercase snake_case' "$tmp/flatc.log" >&2 || true
        echo "FAIL: flatc does not parse $protocol/gl.fbs" >&2
        exit 1
    fi
fi

echo "OK: $protocol/gl.fbs matches the importer's output"
