#!/usr/bin/env bash
# piglit's GLES subset, natively and through the stack (`mgl run`), compared
# test by test: every test (and subtest) that passes natively must pass on
# each run through the stack, beyond the documented list of known differences.
#
#   run_piglit.sh MGL KNOWN_DIFFERENCES RUNS [RESULTS_DIR]
#   e.g. run_piglit.sh build/tools/mgl tests/piglit/known-differences.txt "inproc shm"
#        run_piglit.sh build/tools/mgl tests/piglit/known-differences-magma.txt "magma:shm"
# A run is TRANSPORT (the server's default backend, Espryt) or BACKEND:TRANSPORT;
# its results go to RESULTS_DIR/TRANSPORT or RESULTS_DIR/BACKEND-TRANSPORT, and
# that name is what the known-differences file's second column matches.
#
# Each test through the stack must show that it ran on our vendor: at debug
# level the client logs "context N: OpenGL ES ... MobileGL ..." at a context's
# first make-current, into the test's stderr, which piglit keeps (desktop
# contexts: "context N: 3.3 (Core Profile) MobileGL ...").
# RESULTS_DIR (optional) keeps the piglit results; a temporary folder otherwise.
# MGL_PIGLIT_COMPARE_ONLY=1 compares the results already in RESULTS_DIR
# (native/, inproc/, ...) without running piglit.
set -uo pipefail
mgl=${1:?mgl binary}
known=${2:?known differences file}
runs=${3:-inproc}
keep=${4:-}
command -v piglit >/dev/null || { echo "SKIP: piglit not installed"; exit 77; }
if [[ -n "$keep" ]]; then
    work=$keep
    mkdir -p "$work"
else
    work=$(mktemp -d)
    trap 'rm -rf "$work"' EXIT
fi

# The subset (PIGLIT_SUBSET, default gles):
#   gles        GLES 2.0 and 3.0 API tests and the GLSL ES compiler/linker/execution tests, the
#               EGL groups (spec@egl*: contexts, surfaces, devices, platforms, syncs, EGLImages),
#               GL_OES_EGL_image_external's and GL_EXT_buffer_storage's persistent maps, and the
#               OpenGL ES 1.1 groups that run on the surfaceless platform (paletted textures,
#               packed depth-stencil);
#   desktop     the desktop GL 3.x core groups of issue 12 (docs/PIGLIT.md), whole;
#   desktop-ci  a representative part of them (desktop-ci.txt) that CI runs in a few minutes;
#   compat      the GL 1.x/2.1 API groups on compatibility contexts (issue 13), whole;
#   compat-ci   CI's part of them (compat-ci.txt);
#   glsl-compat     spec@glsl-1.10 and spec@glsl-1.20 (compatibility contexts, issue 13), whole;
#   glsl-compat-ci  a part of them (glsl-compat-ci.txt) that CI runs in about a minute;
#   gles1-x11   the OpenGL ES 1.1 tests (piglit's gles1 programs and EGL's ES 1 context test) on
#               the x11_egl platform under an Xvfb of its own: piglit's ES 1 framework needs a
#               window (its surfaceless runs abort natively).
desktop_groups=('glsl-1\.30' 'glsl-1\.50' 'glsl-3\.30' '!opengl 3\.0' '!opengl 3\.1' '!opengl 3\.2' '!opengl 3\.3'
    'arb_fragment_coord_conventions' 'arb_shader_bit_encoding' 'arb_sampler_objects' 'arb_instanced_arrays'
    'arb_vertex_array_object' 'arb_timer_query' 'arb_seamless_cube_map' 'arb_depth_clamp' 'arb_provoking_vertex'
    'arb_texture_storage' 'ext_texture_swizzle' 'arb_occlusion_query2' 'arb_half_float_vertex'
    'arb_vertex_type_2_10_10_10_rev' 'arb_texture_multisample' 'arb_copy_buffer'
    'arb_compute_shader' 'arb_shader_storage_buffer_object' 'arb_shader_atomic_counters'
    'arb_shader_image_load_store' 'arb_viewport_array'
    'arb_texture_gather' 'arb_framebuffer_srgb' 'arb_shading_language_420pack' 'arb_explicit_uniform_location'
    'arb_shader_texture_lod' 'arb_depth_buffer_float' 'arb_explicit_attrib_location'
    'arb_copy_image' 'arb_arrays_of_arrays' 'mesa_shader_integer_functions' 'ext_shader_integer_mix'
    'ext_packed_float' 'ext_texture_shared_exponent' 'ext_gpu_shader4' 'arb_uniform_buffer_object'
    'arb_draw_indirect' 'arb_base_instance' 'arb_tessellation_shader')
case ${PIGLIT_SUBSET:-gles} in
    gles) subset=(-p surfaceless_egl -t 'spec@!opengl es 2\.0' -t 'spec@!opengl es 3\.0' -t 'spec@glsl-es-'
              -t 'spec@egl' -t 'spec@oes_egl_image_external' -t 'spec@arb_buffer_storage@bufferstorage-persistent_gles3'
              -t 'spec@oes_compressed_paletted_texture' -t 'spec@oes_packed_depth_stencil'
              quick) ;;
    desktop | desktop-ci)
        subset=(-p surfaceless_egl)
        for g in "${desktop_groups[@]}"; do subset+=(-t "spec@$g@"); done
        subset+=(quick)
        # CI's part: every 30th test of the two big GLSL groups and every
        # third of the others (desktop-ci.txt, made by the awk line in
        # docs/PIGLIT.md from `piglit print-cmd` of the whole list), and 17
        # execution tests picked from the compute, storage, counter, image and
        # viewport-array groups (added 2026-12-06; docs/PIGLIT.md), and 8 of
        # the groups added in session 23 (gather, sRGB framebuffers, 420pack,
        # GLSL 1.10 explicit locations, storage/image unit routing), and 9 of
        # the two groups added in session 27 (GL_EXT_gpu_shader4's fetches and
        # sizes, uniform blocks of GLSL 1.10 and indexed binding queries), and 7
        # of the two groups added in session 29 (indirect draws, base instance),
        # and 9 of the tessellation group (session 30).
        [[ $PIGLIT_SUBSET == desktop-ci ]] && subset+=(--test-list "$(dirname "$0")/desktop-ci.txt") ;;
    compat | compat-ci)
        subset=(-p surfaceless_egl -t 'spec@!opengl 1\.[0-5]@' -t 'spec@!opengl 2\.1@' quick)
        [[ $PIGLIT_SUBSET == compat-ci ]] && subset+=(--test-list "$(dirname "$0")/compat-ci.txt") ;;
    glsl-compat | glsl-compat-ci)
        subset=(-p surfaceless_egl -t 'spec@glsl-1\.10@' -t 'spec@glsl-1\.20@' quick)
        [[ $PIGLIT_SUBSET == glsl-compat-ci ]] && subset+=(--test-list "$(dirname "$0")/glsl-compat-ci.txt") ;;
    gles1-x11)
        subset=(-p x11_egl -t 'gles1' -t 'spec@oes_fixed_point@' -t 'spec@oes_draw_texture@' -t 'spec@oes_matrix_get@'
                -t 'spec@oes_compressed_etc1_rgb8_texture@basic' -t 'spec@oes_compressed_paletted_texture@basic' quick) ;;
    *) echo "PIGLIT_SUBSET=$PIGLIT_SUBSET: unknown subset (gles, desktop, desktop-ci, compat, compat-ci, glsl-compat, glsl-compat-ci, gles1-x11)"; exit 2 ;;
esac
# PIGLIT_TEST_LIST (optional): a file of test names, one a line, that narrows
# the subset further (e.g. a sample of the desktop groups while developing).
[[ -n ${PIGLIT_TEST_LIST:-} ]] && subset+=(--test-list "$PIGLIT_TEST_LIST")
# The surfaceless subsets run with no X display; gles1-x11 with its own Xvfb.
no_display=(-u DISPLAY)
if [[ ${PIGLIT_SUBSET:-gles} == gles1-x11 ]]; then
    command -v Xvfb >/dev/null || { echo "SKIP: Xvfb not installed"; exit 77; }
    disp=$((200 + RANDOM % 500))
    # -noreset: every test is a new client; a reset after the last one left would refuse the next
    Xvfb ":$disp" -screen 0 1280x1024x24 -nolisten tcp -noreset >/dev/null 2>&1 &
    xvfb=$!
    trap 'kill $xvfb 2>/dev/null; [[ -n "$keep" ]] || rm -rf "$work"' EXIT
    for _ in $(seq 50); do [[ -e /tmp/.X11-unix/X$disp ]] && break; sleep 0.1; done
    export DISPLAY=":$disp"
    no_display=()
fi
jobs=$(nproc)
run() {  # run NAME [mgl run args...]: one piglit run into $work/NAME
    local name=$1
    shift
    local t0=$SECONDS
    rm -rf "${work:?}/$name"
    if [[ $name == native ]]; then
        env "${no_display[@]}" piglit run "${subset[@]}" -j "$jobs" --timeout 120 -l dummy "$work/$name" >"$work/$name.log" 2>&1
    else
        # The server's own log (shm, tcp) is kept: when a whole stretch of
        # tests cannot connect, it says whether and how the server ended.
        env "${no_display[@]}" MOBILEGL_LOG_LEVEL=debug timeout 1200 "$mgl" run --server-log "$work/$name.server.log" "$@" -- \
            piglit run "${subset[@]}" -j "$jobs" --timeout 120 -l dummy "$work/$name" >"$work/$name.log" 2>&1
    fi
    local rc=$?
    echo "piglit $name: exit $rc, $((SECONDS - t0)) s"
    [[ $rc -eq 0 ]] || tail -5 "$work/$name.log" | sed 's/^/    /'
}

# The native run, the baseline. With PIGLIT_NATIVE_CACHE set (the test suite
# sets it), its results are kept there and reused by the next run (the Magma
# suite's) while piglit, its test list and the host driver's files are
# unchanged.
source "$(dirname "$0")/../native_cache_key.sh"
native_run() {
    local cache=${PIGLIT_NATIVE_CACHE:-} key
    if [[ -z "$cache" ]]; then run native; return; fi
    key="$(native_cache_key piglit) ${subset[*]}"
    # A test list's content is part of what was run.
    local a
    for a in "${subset[@]}"; do [[ -f "$a" ]] && key+=" $(cksum <"$a")"; done
    if [[ -f "$cache/key" && "$(cat "$cache/key")" == "$key" && -d "$cache/native" ]]; then
        rm -rf "${work:?}/native" && cp -r "$cache/native" "$work/native"
        echo "piglit native: reused from $cache"
        return
    fi
    run native
    rm -rf "$cache" && mkdir -p "$cache" && cp -r "$work/native" "$cache/native" && echo "$key" >"$cache/key"
}

if [[ ${MGL_PIGLIT_COMPARE_ONLY:-0} != 1 ]]; then
    native_run
    for r in $runs; do
        if [[ $r == *:* ]]; then
            run "${r%%:*}-${r#*:}" --backend "${r%%:*}" --transport "${r#*:}"
        else
            run "$r" --transport "$r"
        fi
    done
fi

names=()
for r in $runs; do names+=("${r/:/-}"); done
python3 - "$work" "$known" "${names[@]}" <<'EOF'
import bz2, collections, fnmatch, json, os, re, sys

work, known_file, transports = sys.argv[1], sys.argv[2], sys.argv[3:]

def load(name):
    path = os.path.join(work, name, "results.json.bz2")
    if not os.path.exists(path):
        path = os.path.join(work, name, "results.json")
        if not os.path.exists(path):
            return None
        return json.load(open(path))["tests"]
    return json.load(bz2.open(path))["tests"]

def results(tests):
    """{test or test@subtest: result}, counted as piglit's summary does:
    a test with subtests counts as its subtests."""
    out = {}
    for name, t in tests.items():
        subs = {k: v for k, v in (t.get("subtests") or {}).items() if not k.startswith("__")}
        if not subs:
            out[name] = t["result"]
        for sub, r in subs.items():
            out[name + "@" + sub] = r
    return out

known = {}  # name -> (transports or None for all, reason)
for line in open(known_file):
    line = line.strip()
    if not line or line.startswith("#"):
        continue
    parts = [p.strip() for p in line.split("|")]
    if len(parts) != 3 or not parts[2]:
        sys.exit(f"{known_file}: malformed line (want TEST | TRANSPORTS | REASON): {line}")
    trs = None if parts[1] == "*" else set(parts[1].split(","))
    known[parts[0]] = (trs, parts[2])

native_tests = load("native")
if native_tests is None:
    sys.exit("the native run left no results")
native = results(native_tests)
count = collections.Counter(native.values())
print(f"native: {count['pass']} pass of {len(native)} ({dict(count)})")
bad = 0
for tr in transports:
    stack_tests = load(tr)
    if stack_tests is None:
        print(f"FAIL [{tr}]: the run left no results")
        bad += 1
        continue
    stack = results(stack_tests)
    c = collections.Counter(stack.values())
    print(f"{tr}: {c['pass']} pass of {len(stack)} ({dict(c)})")
    native_passes = [n for n, r in native.items() if r == "pass"]
    kept = sum(1 for n in native_passes if stack.get(n) == "pass")
    print(f"{tr}: {kept} of the {len(native_passes)} native passes pass through the stack "
          f"({100.0 * kept / max(1, len(native_passes)):.1f}%)")
    for name, r in sorted(native.items()):
        if r != "pass":
            continue
        k = known.get(name) or next((v for pat, v in known.items() if "*" in pat and fnmatch.fnmatchcase(name, pat)), None)
        listed = k is not None and (k[0] is None or tr in k[0])
        got = stack.get(name, "missing")
        if got == "pass":
            if listed:
                print(f"FAIL [{tr}] {name}: listed as a known difference but passes: remove it from {os.path.basename(known_file)}")
                bad += 1
            continue
        if listed:
            print(f"known [{tr}] {name}: {got} ({k[1]})")
            continue
        print(f"FAIL [{tr}] {name}: pass natively, {got} through the stack")
        test = stack_tests.get(name, stack_tests.get(name.rsplit("@", 1)[0], {}))
        for line in (test.get("out", "") + test.get("err", "")).strip().splitlines()[-6:]:
            print("    " + line[:200])
        bad += 1
    # Every test that passes must have run on our vendor, not fallen back to the
    # host's: a MobileGL context, or (EGL tests that make none) our EGL display;
    # the context-less client-extension and device groups, which glvnd answers
    # from every vendor, our vendor's own answer.
    def ours(name, err):
        if re.search(r"context \d+: .*MobileGL|eglInitialize: MobileGL's EGL display", err):
            return True
        return bool(re.match(r"spec@egl_(ext_client_extensions|ext_device_\w+|mesa_device_software)@", name) and
                    re.search(r"eglQueryDevicesEXT: MobileGL's EGL device|getVendorString: MobileGL's EGL client", err))
    off_stack = [name for name, t in sorted(stack_tests.items())
                 if t["result"] == "pass" and not ours(name, t.get("err", ""))]
    for name in off_stack[:10]:
        print(f"FAIL [{tr}] {name}: passed without a MobileGL context (did it load the host's vendor?)")
    if len(off_stack) > 10:
        print(f"FAIL [{tr}] ... and {len(off_stack) - 10} more tests passed without a MobileGL context")
    bad += len(off_stack)
    warns = collections.Counter()
    for t in stack_tests.values():
        for line in t.get("err", "").splitlines():
            if line.startswith(("[mobilegl warn]", "[mobilegl error]")):
                warns[line[:160]] += 1
    for line, n in warns.most_common(10):
        print(f"  [{tr}] {n} x {line}")
sys.exit(1 if bad else 0)
EOF
status=$?
if ((status != 0)); then
    for r in "${names[@]}"; do
        f="$work/$r.server.log"
        [[ -s "$f" ]] || continue
        echo "server log of the $r run ($(wc -l <"$f") lines), its errors and its end:"
        grep -iE "\[(error|critical)\]|fault|signal|abort" "$f" | tail -8 | cut -c1-220 | sed 's/^/    /'
        tail -3 "$f" | cut -c1-220 | sed 's/^/    /'
    done
fi
exit $status
