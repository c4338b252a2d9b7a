#!/usr/bin/env bash
# Runs on the GPU machine, on a bundle laid out as for run-traces.sh (run that once
# first: it unpacks the bundle). Snapshots through direct and inproc (Espryt) vs
# native NVIDIA, byte-compared, at the frames the traces' README lists.
#   snapshots-check.sh BUNDLE
bundle=$(cd "${1:?bundle}" && pwd)
export LD_LIBRARY_PATH=$bundle/egl/retrace/lib WAFFLE_PLATFORM=surfaceless_egl
export __EGL_VENDOR_LIBRARY_DIRS=/usr/local/nvidia/share/glvnd/egl_vendor.d:/usr/share/glvnd/egl_vendor.d
retrace=$bundle/egl/retrace/eglretrace; mgl=$bundle/mgl/mgl
w=$(mktemp -d)
check() {
  tr=$bundle/traces/$1; calls=$2
  mkdir -p $w/native $w/direct $w/inproc; rm -f $w/*/*.png
  timeout 60 $retrace --headless -S "$calls" -s $w/native/ "$tr" >$w/n.log 2>&1
  for a in direct inproc; do
    timeout 60 $mgl run --transport $a -- $retrace --headless -S "$calls" -s $w/$a/ "$tr" >$w/$a.log 2>&1; rc=$?
    same=0; diff=0
    for p in $w/native/*.png; do if cmp -s $p $w/$a/$(basename $p); then same=$((same+1)); else diff=$((diff+1)); fi; done
    echo "$1 [$a] rc=$rc identical=$same different=$diff"; grep -iE "error|warn|espryt" $w/$a.log | head -3
  done
}
check chunks-1471.trace 329837,641555,957996
check glmark2-es2-jellyfish.trace 8017,13217,18417
check glmark2-es2-terrain.trace 5086,7101,9271
check glmark2-es2-shadow.trace 7281,12081,16881
