#!/usr/bin/env bash
# Frame timelines of eglretrace --benchmark, natively and through the stack,
# taken the same way in every arm: the mgl-swap-times preload
# (tools/bench/frames/swap_times.c) stamps each eglSwapBuffers and
# eglMakeCurrent of the application. Arms interleaved; one file per run,
# OUTDIR/TRACE.ARM.RUN.PID, and the "TRACE ARM average of N fps" line per run
# as run-traces.sh prints it. Summarise with tools/bench/frames/swap_frames.py.
#   tools/bench/gpu/frame-timeline.sh BUNDLE OUTDIR RUNS "ARMS" TRACE...
# With PCPU=1, eglretrace runs with --pcpu instead of --benchmark and its
# per-call profile is kept as OUTDIR/TRACE.ARM.RUN.pcpu (summarise the first
# frame's slow calls with tools/bench/frames/pcpu_first_frame.py).
# BUNDLE as for run-traces.sh (run that first: it unpacks the bundle), with
# libmgl-swap-times.so in BUNDLE/mgl/; or "-" on this machine (eglretrace from
# PATH, build/). ARMS: native, a transport name (Espryt), magma-TRANSPORT;
# an arm may end in +VAR=VALUE (e.g. inproc+MOBILEGL_WARM_THREADS=2) to run
# with that variable set, so one call compares a knob's settings.
set -uo pipefail
bundle=${1:?bundle or -}; outdir=${2:?outdir}; runs=${3:-3}; arms=${4:-"native inproc magma-inproc"}; shift 4
mkdir -p "$outdir"; outdir=$(cd "$outdir" && pwd)
source "$(dirname "$0")/bundle-env.sh" "$bundle"
if [[ "$bundle" == - ]]; then preload=$bundle_lib/tools/bench/frames/libmgl-swap-times.so
else preload=$bundle_lib/libmgl-swap-times.so; fi
for tr in "$@"; do
    name=$(basename "$tr" .trace)
    for ((r = 1; r <= runs; r++)); do
        for a in $arms; do
            export MGL_SWAP_TIMES=$outdir/$name.$a.$r
            arm_env=(); arm=$a
            if [[ $a == *+*=* ]]; then arm_env=("${a#*+}"); arm=${a%%+*}; fi
            case $arm in
                native) cmd=("$retrace") ;;
                magma-*) cmd=("$mgl" run --backend magma --transport "${arm#magma-}" -- "$retrace") ;;
                *) cmd=("$mgl" run --transport "$arm" -- "$retrace") ;;
            esac
            cmd=(env "${arm_env[@]}" "${cmd[@]}")
            if [[ ${PCPU:-0} == 1 ]]; then
                env -u DISPLAY LD_PRELOAD="$preload" timeout 120 "${cmd[@]}" --pcpu --headless "$tr" \
                    >"$outdir/$name.$a.$r.pcpu" 2>/dev/null
                out=$(grep Rendered "$outdir/$name.$a.$r.pcpu")
            else
                out=$(env -u DISPLAY LD_PRELOAD="$preload" timeout 120 "${cmd[@]}" --benchmark --headless "$tr" 2>&1)
            fi
            fps=$(sed -n 's/.*average of \([0-9.]*\) fps.*/\1/p' <<<"$out" | tail -1)
            echo "$name $a average of ${fps:-FAILED} fps"
            secs=$(sed -n 's/.*frames in \([0-9.]*\) secs.*/\1/p' <<<"$out" | tail -1)
            for f in "$MGL_SWAP_TIMES".*; do [[ -f $f && -n $secs ]] && echo "secs $secs" >>"$f"; done
            [[ -z "$fps" ]] && tail -3 <<<"$out" | sed "s/^/  $name $a: /"
        done
    done
done
true
