"""Driving the real perkdesk binary from the process tests (scripts/crash-test, scripts/process-test):
a free loopback port, a server on a temporary database, a signed-in admin, plain HTTP calls."""

import http.client
import json
import os
import socket
import subprocess
import sys
import time

PASSWORD = "Secret-123!"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def clean_env():
    """The environment without PERKDESK_* settings, so a developer's shell cannot change what is tested."""
    return {k: v for k, v in os.environ.items() if not k.startswith("PERKDESK_")}


def call(port, method, path, body=None, token=None, request_id=None, timeout=10, headers=None, raw=None):
    """One request on a new connection: (status, body bytes). `raw` sends bytes as they are."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    sent = {"content-type": "application/json"}
    if token:
        sent["authorization"] = f"Bearer {token}"
    if request_id:
        sent["x-requestid"] = request_id
    sent.update(headers or {})
    payload = raw if raw is not None else (json.dumps(body) if body is not None else None)
    try:
        conn.request(method, path, body=payload, headers=sent)
        response = conn.getresponse()
        return response.status, response.read()
    finally:
        conn.close()


def create_admin(binary, db, email):
    subprocess.run([binary, "create-admin", "--db", db, "--email", email, "--first-name", "Test", "--last-name",
                    "Admin", "--password-stdin"], input=PASSWORD + "\n", text=True, check=True,
                   stdout=subprocess.DEVNULL, env=clean_env())


class Server:
    """`perkdesk serve` on `db` and a free loopback port; `extra` flags are added, `limit_files`
    sets the child's open-file limit (soft and hard)."""

    def __init__(self, binary, db, extra=(), limit_files=None, name="process-test"):
        self.binary, self.db, self.extra, self.limit_files, self.name = binary, db, list(extra), limit_files, name
        self.port = free_port()
        self.process = None

    def start(self):
        def limit():
            if self.limit_files:
                import resource
                resource.setrlimit(resource.RLIMIT_NOFILE, (self.limit_files, self.limit_files))

        self.process = subprocess.Popen(
            [self.binary, "serve", "--db", self.db, "--bind", f"127.0.0.1:{self.port}", "--log-level", "error",
             "--sign-in-per-minute", "1000", *self.extra],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=clean_env(), preexec_fn=limit,
        )
        deadline = time.time() + 20
        while time.time() < deadline:
            try:
                if self.call("GET", "/api/health", timeout=1)[0] == 200:
                    return self
            except OSError:
                time.sleep(0.02)
        self.process.kill()
        sys.exit(f"{self.name}: the server did not start")

    def call(self, *args, **kwargs):
        return call(self.port, *args, **kwargs)

    def alive(self):
        return self.process.poll() is None

    def sign_in(self, email):
        otp = subprocess.run([self.binary, "otp", "--db", self.db, "--email", email], capture_output=True, text=True,
                             check=True, env=clean_env()).stdout.strip()
        status, body = self.call("POST", "/api/auth/admin/token", {"userName": email, "password": PASSWORD, "otp": otp})
        assert status == 200, (status, body)
        return json.loads(body)["token"]

    def memory_kb(self, field):
        """`VmRSS` (now) or `VmHWM` (the peak so far) of the server, in kB."""
        return status_kb(self.process.pid, field)

    def reset_peak(self):
        """Starts the peak (`VmHWM`) over from the current resident size (Linux's clear_refs)."""
        with open(f"/proc/{self.process.pid}/clear_refs", "w") as refs:
            refs.write("5")

    def kill(self):
        self.process.kill()
        self.process.wait()

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.kill()


def status_kb(pid, field):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    raise KeyError(field)


def multipart(fields, files):
    """A multipart/form-data body: (content type, bytes). `files` are (field, file name, bytes)."""
    boundary = "perkdesk-process-test-boundary"
    parts = []
    for name, value in fields:
        parts.append(f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{value}\r\n'.encode())
    for name, filename, data in files:
        parts.append(f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"; filename="{filename}"\r\n'
                     f'Content-Type: application/octet-stream\r\n\r\n'.encode() + data + b"\r\n")
    parts.append(f"--{boundary}--\r\n".encode())
    return f"multipart/form-data; boundary={boundary}", b"".join(parts)
