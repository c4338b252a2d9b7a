#!/usr/bin/env bash
# eglretrace --benchmark fps of every reference trace: native vs through
# the stack on each transport, same machine, same run, arms interleaved,
# median of N runs each. Prints a Markdown table of fps and ratios.
#   tools/bench/traces/run.sh MGL TRACE_DIR [RUNS] [TRANSPORTS] [TRACE_REGEX]
set -uo pipefail
mgl=${1:?mgl binary}
traces=${2:?trace dir}
runs=${3:-3}
transports=${4:-inproc shm tcp}
filter=${5:-.}
retrace=${EGLRETRACE:-eglretrace}

fps_of() { sed -n 's/.*average of \([0-9.]*\) fps.*/\1/p' | tail -1; }
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {if (NR) print a[int((NR+1)/2)]; else print "nan"}'; }

header="| trace | native fps"
sep="|---|---:"
for t in $transports; do header+=" | $t fps | $t/native"; sep+="|---:|---:"; done
echo "$header |"
echo "$sep|"
for tr in "$traces"/*.trace; do
    name=$(basename "$tr" .trace)
    [[ "$name" =~ $filter ]] || continue
    declare -A got=()
    for ((r = 0; r < runs; r++)); do
        got[native]+=" $(env -u DISPLAY WAFFLE_PLATFORM=surfaceless_egl "$retrace" --benchmark --headless "$tr" 2>&1 | fps_of)"
        for t in $transports; do
            got[$t]+=" $(env -u DISPLAY WAFFLE_PLATFORM=surfaceless_egl "$mgl" run --transport "$t" -- "$retrace" --benchmark --headless "$tr" 2>&1 | fps_of)"
        done
    done
    native=$(median ${got[native]})
    line="| $name | $native"
    for t in $transports; do
        m=$(median ${got[$t]})
        line+=" | $m | $(awk -v a="$m" -v b="$native" 'BEGIN { if (b > 0 && a != "") printf "%.2f", a / b; else print "n/a" }')"
    done
    echo "$line |"
    unset got
done
