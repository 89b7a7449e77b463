#!/usr/bin/env python3
"""Several wrk --latency outputs (one per app server, run at the same time) as one, in the shape
bench/lib.sh's wrk_cells reads: req/s summed, p50 and p99 the slowest server's, non-2xx summed.
Usage: wrk_pair.py OUTPUT_FILE OUTPUT_FILE [OUTPUT_FILE ...]"""
import re
import sys


def parse(out):
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    latency = {p: re.search(rf"\s{p}%\s+(\S+)", out).group(1) for p in ("50", "99")}
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    return rps, latency, int(errors.group(1)) if errors else 0


def ms(text):
    value = float(re.match(r"[\d.]+", text).group(0))
    return value * {"us": 0.001, "ms": 1, "s": 1000, "m": 60000}[re.search(r"[a-z]+$", text).group(0)]


runs = [parse(open(path).read()) for path in sys.argv[1:]]
slowest = {p: max((latency[p] for _, latency, _ in runs), key=ms) for p in ("50", "99")}
errors = sum(e for _, _, e in runs)
print(f"Requests/sec: {sum(r for r, _, _ in runs):.2f}\n    50% {slowest['50']}\n    99% {slowest['99']}")
if errors:
    print(f"  Non-2xx or 3xx responses: {errors}")
