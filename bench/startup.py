#!/usr/bin/env python3
"""Start-up benchmark: from spawning `perkdesk serve` to its first 200 of GET /api/health, polled
every millisecond on loopback, RUNS times (default 7) on the database DB (made and migrated by the
first start when it does not exist yet, which is not counted); prints the median, minimum and
maximum in milliseconds. Usage: python3 bench/startup.py BINARY DB [RUNS]"""

import http.client
import os
import signal
import socket
import statistics
import subprocess
import sys
import time


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def healthy(port: int) -> bool:
    try:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=0.5)
        connection.request("GET", "/api/health")
        ok = connection.getresponse().status == 200
        connection.close()
        return ok
    except OSError:
        return False


def start_once(binary: str, db: str) -> float:
    """Milliseconds from spawn to the first 200 (at most 30 s), the server stopped after."""
    port = free_port()
    started = time.perf_counter()
    server = subprocess.Popen(
        [binary, "serve", "--db", db, "--bind", f"127.0.0.1:{port}", "--log-level", "warn"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        while not healthy(port):
            if server.poll() is not None:
                sys.exit(f"the server exited with {server.returncode} before answering")
            if time.perf_counter() - started > 30:
                sys.exit("no answer within 30 s")
            time.sleep(0.001)
        return (time.perf_counter() - started) * 1000
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=30)


def main() -> None:
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    binary, db = sys.argv[1], sys.argv[2]
    runs = int(sys.argv[3]) if len(sys.argv) > 3 else 7
    if not os.path.exists(db):
        start_once(binary, db)
    times = [start_once(binary, db) for _ in range(runs)]
    print(
        f"ready in {statistics.median(times):.1f} ms (median of {runs}; "
        f"min {min(times):.1f}, max {max(times):.1f}) on {db}"
    )


if __name__ == "__main__":
    main()
