"""Outbound webhooks through the real binary, verified by the Standard Webhooks reference library.

A receiver on loopback verifies every request it gets with `standardwebhooks.Webhook(secret).verify`
(the specification's own code, not ours) and answers as each phase wants. Holds when:
- every request carries webhook-id, webhook-timestamp and webhook-signature, and verifies;
- a message answered with a 500 comes again with the same webhook-id, and is then delivered;
- after a secret's rotation the requests verify with the new secret and, during the overlap, with the
  old one too;
- messages written while deliveries are under way survive a SIGKILL of the server: after the restart
  every message in the outbox is delivered (at least once), none is left waiting;
- an endpoint the server may not reach (a name that resolves to loopback, without
  --webhooks-allow-private) is refused when saved, with a message naming `url`.

Usage: scripts/webhook-check [BINARY] [DATABASE]   (DATABASE: an empty PostgreSQL database's URL)
"""

import importlib.metadata
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import standardwebhooks

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from perkdesk_process import Server, clean_env, create_admin  # noqa: E402

BIN = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "target/release/perkdesk")
POSTGRES = sys.argv[2] if len(sys.argv) > 2 else None
ADMIN = "hooks@perk.az"
FLAGS = ["--webhooks-allow-private", "--webhook-retries", "1s,1s,2s"]


class Receiver:
    """A loopback HTTP server recording what it got; `answer(id)` picks each status."""

    def __init__(self):
        self.lock = threading.Lock()
        self.got = []  # (webhook-id, headers, body)
        self.secrets = []
        self.failures = []
        self.answer = lambda message_id: 204
        self.delay = 0.0
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("content-length", "0")))
                headers = {k.lower(): v for k, v in self.headers.items()}
                receiver.record(headers, body)
                if receiver.delay:
                    time.sleep(receiver.delay)
                status = receiver.answer(headers.get("webhook-id"))
                self.send_response(status)
                self.send_header("content-length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hook"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def record(self, headers, body):
        with self.lock:
            for header in ("webhook-id", "webhook-timestamp", "webhook-signature"):
                if header not in headers:
                    self.failures.append(f"missing {header}")
            # Every secret that should sign must verify, each on its own.
            for secret in self.secrets:
                try:
                    standardwebhooks.Webhook(secret).verify(body, headers)
                except Exception as error:  # noqa: BLE001 - any refusal is a failure to report
                    self.failures.append(f"{headers.get('webhook-id')}: does not verify with a secret: {error}")
            self.got.append((headers.get("webhook-id"), headers, body))

    def ids(self):
        with self.lock:
            return [message_id for message_id, _, _ in self.got]


def until(what, done, seconds=60):
    deadline = time.time() + seconds
    while time.time() < deadline:
        if done():
            return
        time.sleep(0.05)
    sys.exit(f"webhook-check: timed out waiting until {what}")


def sql(db, statement):
    done = subprocess.run([BIN, "sql", "--db", db, statement], capture_output=True, text=True, env=clean_env())
    if done.returncode != 0:
        sys.exit(f"webhook-check: perkdesk sql failed: {done.stderr.strip()}")
    return done.stdout.strip()


def main():
    work = tempfile.mkdtemp(prefix="webhook-check-")
    db = POSTGRES or os.path.join(work, "hooks.db")
    create_admin(BIN, db, ADMIN)
    server = Server(BIN, db, FLAGS, name="webhook-check").start()
    try:
        check(server, db)
    finally:
        server.stop()


def check(server, db):
    token = server.sign_in(ADMIN)
    receiver = Receiver()

    def api(method, path, body=None, expect=200):
        status, answer = server.call(method, path, body, token=token)
        if status != expect:
            sys.exit(f"webhook-check: {method} {path} answered {status}, not {expect}: {answer[:300]!r}")
        return json.loads(answer) if answer else None

    # An asset for the employees the app sends, and the app's key.
    sql(db, "INSERT INTO assets (name, contact_person, contact_person_phone_number, contact_person_email, "
            "barcode_prefix) VALUES ('Azercell', 'Aysel Məmmədova', '994501234567', 'hr@azercell.az', 'AZC')")
    asset = int(sql(db, "SELECT id FROM assets WHERE barcode_prefix = 'AZC'"))
    key = api("POST", "/api/apiClient", {"name": "Employee app", "kind": "employee-app"}, 201)["key"]

    made = api("POST", "/api/webhook", {"url": receiver.url, "events": ["employee.created", "employee.updated"],
                                        "description": "HR system"}, 201)
    receiver.secrets = [made["secret"]]
    webhook = made["webhook"]["id"]

    def employee(n, expect=201):
        status, answer = server.call("PUT", f"/api/app/employees/person{n}@azercell.az",
                                     {"assetId": asset, "firstName": "Ad", "lastName": f"Soyad{n}",
                                      "phone": "994501234567"}, token=key)
        if status != expect:
            sys.exit(f"webhook-check: the employee upsert answered {status}: {answer[:300]!r}")

    # 1. A message refused once comes again with the same webhook-id, then is delivered.
    first_answers = {}

    def fail_once(message_id):
        seen = first_answers.get(message_id)
        first_answers[message_id] = True
        return 204 if seen else 500

    receiver.answer = fail_once
    employee(1)
    until("the retry", lambda: len(receiver.ids()) >= 2, 30)
    ids = receiver.ids()
    assert ids[0] == ids[1] and ids[0].startswith("msg_"), ids
    deliveries = api("GET", f"/api/webhook/{webhook}/deliveries?Skip=0&Take=10")
    until("recorded as delivered",
          lambda: api("GET", f"/api/webhook/{webhook}/deliveries?Skip=0&Take=10")["data"][0]["state"] == "delivered")
    deliveries = api("GET", f"/api/webhook/{webhook}/deliveries?Skip=0&Take=10")
    assert deliveries["data"][0]["attempt"] == 2, deliveries
    print("retry: the same webhook-id twice, then delivered; both verified by standardwebhooks")

    # 2. Rotation: the new secret and, during the overlap, the old one both verify.
    receiver.answer = lambda message_id: 204
    rotated = api("POST", f"/api/webhook/{webhook}/rotate-secret", None, 201)
    receiver.secrets = [made["secret"], rotated["secret"]]
    before = len(receiver.ids())
    employee(2)
    until("the delivery after the rotation", lambda: len(receiver.ids()) > before, 30)
    with receiver.lock:
        signatures = receiver.got[-1][1]["webhook-signature"].split(" ")
    assert len(signatures) == 2, signatures
    print("rotation: signed with both secrets during the overlap, each verified")

    # 3. SIGKILL while deliveries are under way: every message is delivered after the restart.
    receiver.secrets = [rotated["secret"]]
    receiver.delay = 0.3
    for n in range(10, 70):
        employee(n)
    time.sleep(0.5)
    server.kill()
    waiting = int(sql(db, "SELECT COUNT(*) FROM webhook_messages WHERE state <> 'delivered'"))
    receiver.delay = 0.0
    server.start()
    until("every message delivered after the restart",
          lambda: sql(db, "SELECT COUNT(*) FROM webhook_messages WHERE state <> 'delivered'") == "0", 90)
    stored = set(sql(db, "SELECT message_id FROM webhook_messages").split())
    received = set(receiver.ids())
    missing = stored - received
    assert not missing, f"{len(missing)} messages never reached the receiver"
    print(f"kill -9: {waiting} of {len(stored)} messages were not yet delivered at the kill; all {len(stored)} "
          f"delivered after the restart ({len(receiver.ids()) - len(received)} sent more than once)")

    # 4. Without --webhooks-allow-private, loopback is refused when saved, the field named.
    server.stop()
    strict = Server(BIN, db, [], name="webhook-check").start()
    try:
        # The session signed in above is in the database: no second sign-in (its code is spent).
        status, answer = strict.call("POST", "/api/webhook", {"url": receiver.url.replace("127.0.0.1", "localhost"),
                                                              "events": ["employee.created"]}, token=token)
        answer = json.loads(answer)
        assert status == 400 and "url" in answer.get("errors", {}), (status, answer)
        print(f"a loopback URL without --webhooks-allow-private: 400, {answer['errors']['url']!r}")
    finally:
        strict.stop()

    if receiver.failures:
        sys.exit("webhook-check: " + "; ".join(receiver.failures[:10]))
    version = importlib.metadata.version("standardwebhooks")
    print(f"webhook-check: {len(receiver.ids())} requests received, every one verified by standardwebhooks {version}")


if __name__ == "__main__":
    main()
