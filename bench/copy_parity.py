#!/usr/bin/env python3
"""Reads every figure of the product from two servers, one on SQLite and one on its copy on
PostgreSQL, and compares them: each GET of the OpenAPI document without a path parameter or a
required query, but the caller's own session, the activity log (each side logs its own sign-in)
and the exports (their rows are the lists'). Prints a Markdown table and exits 1 on a difference.

Usage: copy_parity.py SQLITE_URL SQLITE_TOKEN POSTGRES_URL POSTGRES_TOKEN"""
import json
import sys
import time
import urllib.request

SKIP = ("/api/activity", "/api/auth", "/api/openapi.json", "/api/health", "/api/session", "/api/me")


def get(base, token, path):
    request = urllib.request.Request(base + path, headers={"Authorization": "Bearer " + token})
    started = time.time()
    try:
        with urllib.request.urlopen(request, timeout=300) as answer:
            body = answer.read()
            if "json" not in answer.headers.get("content-type", ""):
                # A file (a spreadsheet) carries the time it was made: its size is shown, and
                # its rows are the lists' (tests/copy_to_postgres.rs compares them on the demo).
                return answer.status, {"file bytes": len(body)}, time.time() - started
            return answer.status, json.loads(body or b"null"), time.time() - started
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode(errors="replace"), time.time() - started


def figure(body):
    """What a row of the table shows: a list's total, else the answer's size."""
    if isinstance(body, dict) and "totalCount" in body:
        return str(body["totalCount"])
    return f"{len(json.dumps(body))} bytes"


def main(sqlite, sqlite_token, postgres, postgres_token):
    _, document, _ = get(sqlite, sqlite_token, "/api/openapi.json")
    paths = sorted(
        path
        for path, item in document["paths"].items()
        if "get" in item
        and "{" not in path
        and not path.startswith(SKIP)
        and not path.endswith("/export")
        and not any(p.get("required") for p in item["get"].get("parameters", []))
        and any("bearer" in s for s in item["get"].get("security", []))
    )
    print("| path | SQLite | PostgreSQL | SQLite ms | PostgreSQL ms | equal |")
    print("| --- | --- | --- | --- | --- | --- |")
    differ = 0
    for path in paths:
        status_a, body_a, took_a = get(sqlite, sqlite_token, path)
        status_b, body_b, took_b = get(postgres, postgres_token, path)
        is_file = isinstance(body_a, dict) and "file bytes" in body_a
        equal = status_a == status_b == 200 and (is_file or body_a == body_b)
        differ += not equal
        print(
            f"| `{path}` | {status_a} {figure(body_a)} | {status_b} {figure(body_b)} "
            f"| {took_a * 1000:.0f} | {took_b * 1000:.0f} | {('file' if is_file else 'yes') if equal else '**no**'} |"
        )
    print(f"\n{len(paths)} answers compared, {differ} differ.")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:5]))
