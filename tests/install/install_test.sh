#!/usr/bin/env bash
# Installs the build into a throwaway DESTDIR (so the prefix is relocated, as
# a staged package is) and uses only what was installed:
#   - the host example server/examples/embed_host.c, compiled with
#     `pkg-config --cflags --libs mobilegl-server`, serves shm clients;
#   - a small codec program builds with `pkg-config mobilegl-wire`;
#   - eglretrace replays a light reference trace through the installed `mgl run`
#     (the glvnd vendor and its JSON from the prefix) on inproc and on the
#     embed_host's shm socket; snapshots must equal the native replay's
#     (tests/traces/replay_traces.sh, no tolerance).
#   install_test.sh BUILD_DIR SOURCE_DIR TRACE_DIR
set -euo pipefail
build=${1:?build dir}
src=${2:?source dir}
traces=${3:?trace dir}
# A light trace: what is checked here is the installed prefix, not the
# rendering (the trace suites replay every trace from the build tree);
# chunks-1471 took 94 s of CI for its three replays.
trace_re='^glmark2-es2-build_use-vbo-true\.trace$'
if [[ ! -f "$traces/README.md" ]]; then echo "SKIP: no reference traces at $traces"; exit 77; fi
dest=$(mktemp -d)
host_pid=
cleanup() {
    if [[ -n "$host_pid" ]]; then kill "$host_pid" 2>/dev/null || true; wait "$host_pid" 2>/dev/null || true; fi
    rm -rf "$dest"
}
trap cleanup EXIT

t0=$SECONDS
meson install -C "$build" --destdir "$dest" --no-rebuild --quiet >"$dest/install.log" 2>&1 ||
    { cat "$dest/install.log"; echo "FAIL: meson install"; exit 1; }
echo "ok   meson install --destdir: $((SECONDS - t0)) s"
prefix=$dest$(meson introspect "$build" --buildoptions | python3 -c \
    'import json,sys; print(next(o["value"] for o in json.load(sys.stdin) if o["name"] == "prefix"))')
opt() { meson introspect "$build" --buildoptions | python3 -c \
    "import json,sys; print(next(o['value'] for o in json.load(sys.stdin) if o['name'] == '$1'))"; }
libdir=$prefix/$(opt libdir)
datadir=$prefix/$(opt datadir)
check() { if [[ -e "$1" ]]; then echo "ok   installed ${1#"$dest"}"; else echo "FAIL: not installed: ${1#"$dest"}"; exit 1; fi; }
check "$prefix/bin/mgl"
check "$libdir/libEGL_mobilegl.so.0"
check "$libdir/libGLX_mobilegl.so.0"
check "$libdir/libmobilegl-server.so.0"
check "$datadir/glvnd/egl_vendor.d/50_mobilegl.json"
check "$prefix/include/mobilegl/server.h"
check "$libdir/pkgconfig/mobilegl-server.pc"
check "$libdir/pkgconfig/mobilegl-wire.pc"
[[ "$(readlink -f "$libdir/libGLX_mobilegl.so.0")" == "$(readlink -f "$libdir/libEGL_mobilegl.so.0")" ]] ||
    { echo "FAIL: libGLX_mobilegl.so.0 is not the EGL vendor library"; exit 1; }

# pkg-config of a staged prefix: the sysroot puts DESTDIR before its paths.
export PKG_CONFIG_PATH=$libdir/pkgconfig PKG_CONFIG_SYSROOT_DIR=$dest
# shellcheck disable=SC2046  # pkg-config's flags are words
cc -Wall -Werror -o "$dest/embed_host" "$src/server/examples/embed_host.c" $(pkg-config --cflags --libs mobilegl-server)
echo "ok   embed_host built with: pkg-config --cflags --libs mobilegl-server"
t0=$SECONDS
# shellcheck disable=SC2046
c++ -o "$dest/wire_consumer" "$src/tests/install/wire_consumer.cc" $(pkg-config --cflags --libs mobilegl-wire)
"$dest/wire_consumer"
echo "ok   a codec program built with: pkg-config --cflags --libs mobilegl-wire ($((SECONDS - t0)) s)"
t0=$SECONDS

sock=$dest/embed.sock
LD_LIBRARY_PATH=$libdir "$dest/embed_host" "$sock" >"$dest/embed_host.log" 2>&1 &
host_pid=$!
for _ in $(seq 100); do [[ -S "$sock" ]] && break; sleep 0.1; done
[[ -S "$sock" ]] || { cat "$dest/embed_host.log"; echo "FAIL: embed_host does not serve $sock"; exit 1; }

# The installed mgl must find its vendor in the prefix, never in this build.
status=0
bash "$src/tests/traces/replay_traces.sh" "$prefix/bin/mgl" "$traces" "inproc shm:$sock" "$trace_re" || status=1
echo "     replays: $((SECONDS - t0)) s"

kill -TERM "$host_pid"
host_rc=0
wait "$host_pid" || host_rc=$?
host_pid=
if [[ $host_rc -ne 0 ]] || ! grep -q "embed_host: stopping" "$dest/embed_host.log"; then
    cat "$dest/embed_host.log"; echo "FAIL: embed_host did not stop cleanly (exit $host_rc)"; exit 1
fi
echo "ok   embed_host served the shm replay and stopped cleanly"
exit $status
