#!/usr/bin/env python3
"""The first frame's slow GL calls, per trace and arm, from eglretrace --pcpu
profiles kept by `PCPU=1 tools/bench/gpu/frame-timeline.sh` (medians over runs).
eglretrace starts its clock at the first eglMakeCurrent and drops calls
shorter than 1 µs; calls are grouped by name: count and total ms in frame 1,
and the frame's end (the last call's end) from that first eglMakeCurrent.

    tools/bench/frames/pcpu_first_frame.py DIR [MIN_MS]
"""
import os, re, statistics, sys
from collections import defaultdict


def first_frame(path):
    calls = []
    for line in open(path, errors="replace"):
        if line.startswith("frame_end"):
            break
        if line.startswith("call "):
            p = line.split()
            if len(p) >= 13:
                calls.append((p[12], int(p[4]) / 1e6, int(p[5]) / 1e6))
    return calls


def main():
    d = sys.argv[1]
    min_ms = float(sys.argv[2]) if len(sys.argv) > 2 else 1.0
    runs = defaultdict(list)
    for fn in sorted(os.listdir(d)):
        m = re.match(r"(.+)\.([^.]+)\.(\d+)\.pcpu$", fn)
        if m:
            runs[(m.group(1), m.group(2))].append(first_frame(os.path.join(d, fn)))
    for (tr, arm), rs in sorted(runs.items(), key=lambda kv: (kv[0][0], kv[0][1] != "native", kv[0][1])):
        end = statistics.median(max((s + t for _, s, t in r), default=0) for r in rs)
        inside = statistics.median(sum(t for _, _, t in r) for r in rs)
        by = defaultdict(list)
        for r in rs:
            agg = defaultdict(lambda: [0, 0.0])
            for n, _, t in r:
                agg[n][0] += 1
                agg[n][1] += t
            for n, (c, t) in agg.items():
                by[n].append((c, t))
        slow = sorted(((statistics.median(t for _, t in v), max(c for c, _ in v), n) for n, v in by.items()), reverse=True)
        parts = ", ".join(f"{n} {c}x {t:.1f}" for t, c, n in slow if t >= min_ms)
        print(f"{tr} {arm}: frame 1 ends {end:.1f} ms after the first eglMakeCurrent, {inside:.1f} ms in GL calls; {parts}")


if __name__ == "__main__":
    main()
