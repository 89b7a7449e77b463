#!/usr/bin/env python3
"""The failover drill's writers (scripts/failover-drill): threads sending bench/inbound.sh's write,
POST /api/app/usage with its own x-requestid, half to each app server. A request that fails (no
answer, or 5xx while the database fails over) is sent again with the same x-requestid, as a client
does, until it is acknowledged. Each acknowledged x-requestid is written with the time of its
answer; the timeline file gets the first failure and the first success after it.

Usage: failover_writers.py KEY PORT,PORT SECONDS_BEFORE_KILL ACKNOWLEDGED_FILE TIMELINE_FILE"""
import http.client
import json
import random
import sys
import threading
import time

AFTER_KILL = 20.0  # seconds of writing after the kill is expected
THREADS = 8


def main(key, ports, before, acknowledged_file, timeline_file):
    ports = [int(p) for p in ports.split(",")]
    deadline = time.time() + float(before) + AFTER_KILL
    lock = threading.Lock()
    acknowledged = []
    failed_at = []

    def writer(number):
        port = ports[number % len(ports)]
        counter = 0
        while time.time() < deadline:
            counter += 1
            request_id = f"drill-{number}-{counter}"
            body = json.dumps({"employeeEmail": f"e{random.randrange(1000)}@bench.az", "campaignId": 1, "rating": 5})
            first_sent = time.time()
            while time.time() < deadline:
                try:
                    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
                    conn.request("POST", "/api/app/usage", body, {
                        "Authorization": f"Bearer {key}", "Content-Type": "application/json", "x-requestid": request_id})
                    status = conn.getresponse().status
                    conn.close()
                except OSError:
                    status = 0
                now = time.time()
                with lock:
                    if status == 201:
                        acknowledged.append((request_id, first_sent, now))
                        break
                    failed_at.append(now)
                time.sleep(0.1)

    threads = [threading.Thread(target=writer, args=(n,)) for n in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    with open(acknowledged_file, "w") as out:
        for request_id, sent, at in acknowledged:
            out.write(f"{request_id} {sent:.6f} {at:.6f}\n")
    with open(timeline_file, "w") as out:
        for at in failed_at:
            out.write(f"{at:.6f}\n")


if __name__ == "__main__":
    main(*sys.argv[1:6])
