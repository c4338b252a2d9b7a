# Sourced by the suites that keep a native run's results for the next test
# (tests/traces, tests/piglit): what must be unchanged for them to be reused.
#   native_cache_key PROGRAM  -> size and mtime of PROGRAM and of the host
#   driver's files, and the piglit package's version (empty without it).
native_cache_key() {
    ls -lL --time-style=+%s "$(command -v "$1")" /usr/lib/*/libEGL_mesa.so.0 /usr/lib/*/dri/swrast_dri.so \
        /usr/lib/*/libGLESv2.so.2 2>/dev/null | awk '{print $5, $6, $7}'
    dpkg-query -W -f='${Version}\n' piglit 2>/dev/null
}
