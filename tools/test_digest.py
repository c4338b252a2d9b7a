#!/usr/bin/env python3
"""Prints a short digest of the failed tests of a meson test run, for the end
of a CI log (whose reader may see only its last lines): each failed test's
name and the lines of its output that say what failed.
    tools/test_digest.py BUILD_DIR"""
import json
import os
import re
import sys

log = os.path.join(sys.argv[1], "meson-logs", "testlog.json")
if not os.path.exists(log):
    sys.exit(f"test digest: no {log}")
# What says why a test failed: run_piglit.sh's FAIL lines and run summaries,
# the trace and glmark2 suites' mismatch lines, connection and crash reports.
telling = re.compile(r"^(FAIL|piglit \S+: exit|\S+: \d+ of the \d+ native passes|server log of)|mismatch|differ|"
                     r"Connection refused|cannot connect|Sanitizer|Segmentation|Aborted|timed out|ERROR", re.I)
for line in open(log):
    t = json.loads(line)
    if t.get("result") in ("OK", "SKIP", "EXPECTEDFAIL"):
        continue
    out = (t.get("stdout") or "") + (t.get("stderr") or "")
    lines = out.splitlines()
    # run_piglit.sh's "known [...]" lines are listed differences, not failures.
    picked = [l for l in lines if telling.search(l) and not l.lstrip().startswith("known [")]
    print(f"=== failed: {t.get('name')} ({t.get('result')}, {t.get('duration', 0):.0f} s)")
    for l in (picked[:30] if picked else lines[-30:]):
        print("    " + l[:220])
    if len(picked) > 30:
        print(f"    ... and {len(picked) - 30} more such lines")
