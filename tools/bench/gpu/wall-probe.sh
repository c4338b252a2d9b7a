#!/usr/bin/env bash
# Runs on the GPU machine, on a bundle laid out as for run-traces.sh (run that once
# first: it unpacks the bundle). eglretrace's timed part and the whole process's wall time,
# native vs through direct and inproc, 3 runs of three glmark2 traces.
#   wall-probe.sh BUNDLE
bundle=$(cd "${1:?bundle}" && pwd)
export LD_LIBRARY_PATH=$bundle/egl/retrace/lib WAFFLE_PLATFORM=surfaceless_egl
export __EGL_VENDOR_LIBRARY_DIRS=/usr/local/nvidia/share/glvnd/egl_vendor.d:/usr/share/glvnd/egl_vendor.d
retrace=$bundle/egl/retrace/eglretrace; mgl=$bundle/mgl/mgl
for t in build_use-vbo-true texture_texture-filter-linear shadow; do
  tr=$bundle/traces/glmark2-es2-$t.trace
  for r in 1 2 3; do
    for a in native direct inproc; do
      s=$(date +%s.%N)
      if [[ $a == native ]]; then out=$($retrace --benchmark --headless $tr 2>&1); else out=$($mgl run --transport $a -- $retrace --benchmark --headless $tr 2>&1); fi
      e=$(date +%s.%N)
      fps=$(sed -n 's/.*Rendered \([0-9]*\) frames in \([0-9.]*\) secs.*/\2/p' <<<"$out")
      echo "$t $a timed=${fps}s wall=$(awk -v a="$s" -v b="$e" 'BEGIN{printf "%.3f", b-a}')s"
    done
  done
done
