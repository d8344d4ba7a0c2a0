"""Rows of ``schrodinger prepare``'s disguised dataset, served to an agent.

A row (``RUN/dataset/seed-N/test.jsonl``) names its working copy and store in its ``schrodinger``
field; ``serve_prepared`` starts ``schrodinger serve`` on them (any free port, a fresh token) and
gives the ``DisguisedEnvironment`` an agent works in, its task being the row's
``problem_statement`` (already in the view's names). The server stops when the block ends.
"""

import contextlib
import re
import secrets
import shlex
import subprocess
import threading

from .environment import DisguisedEnvironment


def prepared_checkout(row):
    """The working copy and store a row of a ``prepare`` dataset names; ValueError for any other row."""
    own = row.get("schrodinger") if isinstance(row, dict) else None
    if not isinstance(own, dict) or not own.get("checkout") or not own.get("store"):
        raise ValueError("not a row of a `schrodinger prepare` dataset (no schrodinger.checkout and schrodinger.store)")
    return own["checkout"], own["store"]


@contextlib.contextmanager
def serve_prepared(row, schrodinger="schrodinger", root_name="testbed", timeout=30, startup_timeout=60, env=None):
    """Serves the row's working copy; yields its DisguisedEnvironment (cwd ``/<root_name>``)."""
    checkout, store = prepared_checkout(row)
    token = secrets.token_hex(16)
    command = shlex.split(schrodinger) + ["serve", "--checkout", checkout, "--store", store, "--port", "0", "--auth-token", token, "--root-name", root_name]
    process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    found = {}
    ready = threading.Event()

    def read():
        for line in process.stderr:
            match = re.search(r" on (http://\S+)\s*$", line)
            if match and "url" not in found:
                found["url"] = match.group(1)
                ready.set()
            found.setdefault("lines", []).append(line.rstrip())
        ready.set()

    threading.Thread(target=read, daemon=True).start()
    try:
        if not ready.wait(startup_timeout) or "url" not in found:
            raise RuntimeError("schrodinger serve did not start: %s" % " / ".join(found.get("lines", [])[-3:]))
        yield DisguisedEnvironment(
            url=found["url"], auth_token=token, cwd="/" + root_name, timeout=timeout, env=env or {}, checkout=checkout, store=store, schrodinger=schrodinger
        )
    finally:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
