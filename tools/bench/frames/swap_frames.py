#!/usr/bin/env python3
"""Summarise frame timelines written by tools/bench/gpu/frame-timeline.sh.

Per trace and arm, medians over runs, in milliseconds:
  start→cur eglretrace's timed run (its "frames in S secs", ending at `done`
            below) from its start to the first eglMakeCurrent's return: the
            trace's eglCreateContext and first eglMakeCurrent, where the
            stack starts its session
  current   the first eglMakeCurrent with a context returned, from the
            preload's load (process start-up, eglInitialize before it)
  frame 1   the first eglSwapBuffers returned
  2-20      frames 2 to 20 together
  later     the median frame after the 20th (µs), and the median time inside
            eglSwapBuffers for those frames (µs)
  drain     the last swap -> the end of the glFinish after it (eglretrace's
            timed run ends there; through the stack, the server catching up)
  timed     current -> the end of that glFinish: roughly what eglretrace's fps counts
  teardown  -> process exit
and, for each non-native arm, how much of the difference to native's timed
run comes from each part: startup to frame 1, frames 2-20, the later frames,
the drain.

    tools/bench/frames/swap_frames.py DIR
"""
import os, re, statistics, sys
from collections import defaultdict

WARM = 20


def load(path):
    cur, swaps, finishes, end, secs = [], [], [], None, None
    for line in open(path):
        p = line.split()
        if p[0] == "current":
            cur.append((int(p[1]), int(p[2])))
        elif p[0] == "swap":
            swaps.append((int(p[1]), int(p[2])))
        elif p[0] == "finish":
            finishes.append((int(p[1]), int(p[2])))
        elif p[0] == "secs":
            secs = float(p[1])
        elif p[0] == "exit":
            end = int(p[1])
    if not cur or len(swaps) <= WARM or end is None or secs is None:
        return None
    ms = 1e-6
    exits = [e for _, e in swaps]
    after = [e for _, e in finishes if e > exits[-1]]
    done = after[-1] if after else exits[-1]
    later = [b - a for a, b in zip(exits[WARM - 1:], exits[WARM:])]
    return {
        "start_cur": (cur[0][1] - (done - secs * 1e9)) * ms,
        "current": cur[0][1] * ms,
        "frame1": exits[0] * ms,
        "f2_20": (exits[WARM - 1] - exits[0]) * ms,
        "later_us": statistics.median(later) / 1e3,
        "swap_us": statistics.median(e - s for s, e in swaps[WARM:]) / 1e3,
        "later_sum": (exits[-1] - exits[WARM - 1]) * ms,
        "drain": (done - exits[-1]) * ms,
        "timed": (done - cur[0][1]) * ms,
        "teardown": (end - done) * ms,
        "n": len(swaps),
    }


def main():
    d = sys.argv[1]
    runs = defaultdict(list)
    for fn in sorted(os.listdir(d)):
        m = re.match(r"(.+)\.([^.]+)\.(\d+)\.(\d+)$", fn)
        if m:
            r = load(os.path.join(d, fn))
            if r:
                runs[(m.group(1), m.group(2))].append(r)
    keys = ["start_cur", "current", "frame1", "f2_20", "later_us", "swap_us", "drain", "timed", "teardown"]
    print("| trace | arm | runs | frames | start→cur | current | frame 1 | 2-20 | later (µs) | in swap (µs) | drain | timed | teardown "
          "| Δ start→cur | Δ current→f1 | Δ 2-20 | Δ later | Δ drain |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    native = {}
    for (tr, arm), rs in sorted(runs.items(), key=lambda kv: (kv[0][0], kv[0][1] != "native", kv[0][1])):
        med = {k: statistics.median(r[k] for r in rs) for k in keys + ["later_sum"]}
        if arm == "native":
            native[tr] = med
        deltas = ["", "", "", "", ""]
        if arm != "native" and tr in native:
            n = native[tr]
            deltas = [f"{med['start_cur'] - n['start_cur']:+.1f}", f"{(med['frame1'] - med['current']) - (n['frame1'] - n['current']):+.1f}",
                      f"{med['f2_20'] - n['f2_20']:+.1f}", f"{med['later_sum'] - n['later_sum']:+.1f}",
                      f"{med['drain'] - n['drain']:+.1f}"]
        print(f"| {tr} | {arm} | {len(rs)} | {rs[0]['n']} | " +
              " | ".join(f"{med[k]:.1f}" if med[k] < 100 else f"{med[k]:.0f}" for k in keys) + " | " + " | ".join(deltas) + " |")


if __name__ == "__main__":
    main()
