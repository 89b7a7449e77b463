#!/usr/bin/env python3
"""Peak memory of the usage-history export: the whole table without a filter, with the date range
the panel always sends, with that range sorted by partner name, and with a campaign-name search.
Each case runs RUNS times on one server; the server's peak resident size (VmHWM) is started over
before each export, so each row's peak is that export's.

Usage: bench/export_memory.py BINARY DATABASE [RUNS]
The database is the one scripts/bench fills (bench/fill.py, its admin from bench/lib.sh); it is
served as it is, so give a copy when comparing binaries of different schema versions.
"""

import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts"))
from perkdesk_process import Server, call  # noqa: E402

EMAIL = "bench@perk.az"
CASES = [
    ("every row", "/api/usageHistory/export/admin"),
    ("the panel's date range", "/api/usageHistory/export/admin?StartDate=2020-01-01T00:00:00.000Z"
                               "&EndDate=2030-12-31T23:59:59.999Z"),
    ("date range, sorted by partner", "/api/usageHistory/export/admin?StartDate=2020-01-01T00:00:00.000Z"
                                      "&EndDate=2030-12-31T23:59:59.999Z&SortField=partnerName&OrderBy=true"),
    ("campaign-name search", "/api/usageHistory/export/admin?CampaignName=1"),
]


def main():
    binary, database = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    runs = int(sys.argv[3]) if len(sys.argv) > 3 else 3
    print("| case | run | seconds | bytes | server peak RSS |")
    print("| --- | --- | --- | --- | --- |")
    server = Server(binary, database, name="export-memory").start()
    try:
        token = server.sign_in(EMAIL)
        for name, path in CASES:
            for run in range(1, runs + 1):
                server.reset_peak()
                started = time.time()
                status, body = call(server.port, "GET", path, token=token, timeout=600)
                took = time.time() - started
                assert status == 200, (status, body[:200])
                peak = server.memory_kb("VmHWM")
                print(f"| {name} | {run} | {took:.1f} | {len(body):,} | {peak // 1024} MB |", flush=True)
    finally:
        server.stop()


if __name__ == "__main__":
    main()
