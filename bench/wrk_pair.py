#!/usr/bin/env python3
"""Two wrk --latency outputs (one per app server, run at the same time) as one, in the shape
bench/lib.sh's wrk_cells reads: req/s summed, p50 and p99 the slower server's, non-2xx summed.
Usage: wrk_pair.py FIRST_OUTPUT_FILE SECOND_OUTPUT_FILE"""
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


(a, la, ea), (b, lb, eb) = (parse(open(path).read()) for path in sys.argv[1:3])
slower = {p: la[p] if ms(la[p]) >= ms(lb[p]) else lb[p] for p in ("50", "99")}
print(f"Requests/sec: {a + b:.2f}\n    50% {slower['50']}\n    99% {slower['99']}")
if ea + eb:
    print(f"  Non-2xx or 3xx responses: {ea + eb}")
