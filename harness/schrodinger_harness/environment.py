"""A mini-swe-agent Environment inside a Schrödinger Views disguise.

The agent's commands run in a disguised working copy through ``schrodinger serve`` (SWE-ReX's
runtime protocol): they are written in the view's names, run in the real working copy after
translation, and their output comes back in the view's names. The agent never reaches the
original names: its working directory is the view's (``/repo`` or the ``--root-name`` given to
``serve``), and what this environment tells the agent's templates holds nothing of the host.

On the submit marker (``COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT`` as the first output line, exit 0),
the submission is the patch in original coordinates that ``schrodinger patch`` makes from the
working copy's state, limited to the files the agent's own diff names (its ``git diff`` of view
names is read for its file list only); without such a diff, every changed file counts.
"""

import json
import platform
import shlex
import subprocess
import urllib.error
import urllib.request

try:  # mini-swe-agent's own exception, so that its agents end the run on it
    from minisweagent.exceptions import Submitted
except ImportError:  # pragma: no cover - the package is usable without mini-swe-agent

    class Submitted(Exception):
        def __init__(self, *messages):
            self.messages = messages
            super().__init__()


SUBMIT_MARKER = "COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT"

#: Fields of the configuration that name places on the host: never shown to the agent nor saved.
HOST_FIELDS = ("checkout", "store", "schrodinger", "auth_token")


class DisguisedEnvironmentConfig:
    """What the environment needs; ``model_dump`` gives only what the agent may see."""

    def __init__(
        self,
        url,
        auth_token="",
        cwd="/repo",
        timeout=30,
        env=None,
        checkout="",
        store="",
        schrodinger="schrodinger",
        **ignored
    ):
        if not url:
            raise ValueError("url: the address of `schrodinger serve` (http://127.0.0.1:PORT)")
        self.url = url.rstrip("/")
        self.auth_token = auth_token
        self.cwd = cwd
        self.timeout = int(timeout)
        self.env = dict(env or {})
        self.checkout = checkout
        self.store = store
        self.schrodinger = schrodinger

    def model_dump(self, mode=None):
        return {"cwd": self.cwd, "timeout": self.timeout, "env": dict(self.env)}


class RuntimeFailure(Exception):
    """An operation the runtime refused or could not finish (SWE-ReX's exception transfer)."""

    def __init__(self, class_path, message):
        super().__init__(message)
        self.class_path = class_path

    @property
    def class_name(self):
        return self.class_path.rsplit(".", 1)[-1]


class DisguisedEnvironment:
    """mini-swe-agent's Environment protocol (``execute``, ``get_template_vars``, ``serialize``)."""

    def __init__(self, *, config_class=DisguisedEnvironmentConfig, **kwargs):
        self.config = config_class(**kwargs)
        self.actions = 0
        self.submitted = False

    # -- the runtime --------------------------------------------------------------------------

    def _request(self, method, route, body=None, timeout=None):
        data = None if body is None else json.dumps(body).encode("utf-8")
        request = urllib.request.Request(self.config.url + route, data=data, method=method)
        request.add_header("X-API-Key", self.config.auth_token)
        if data is not None:
            request.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(request, timeout=timeout) as response:
                return json.loads(response.read().decode("utf-8"))
        except urllib.error.HTTPError as error:
            text = error.read().decode("utf-8", "replace")
            try:
                answer = json.loads(text)
            except ValueError:
                answer = {}
            transferred = answer.get("swerexception") if isinstance(answer, dict) else None
            if transferred:
                raise RuntimeFailure(transferred.get("class_path", "builtins.RuntimeError"), transferred.get("message", ""))
            detail = answer.get("detail", text) if isinstance(answer, dict) else text
            raise RuntimeFailure("builtins.RuntimeError", "HTTP %d: %s" % (error.code, detail))

    def execute(self, action, cwd="", *, timeout=None):
        """Runs one command (in the view's names) in a fresh shell of the disguised working copy."""
        command = action.get("command", "") if isinstance(action, dict) else str(action)
        limit = timeout or self.config.timeout
        self.actions += 1
        try:
            answer = self._request(
                "POST",
                "/execute",
                {
                    "command": command,
                    "shell": True,
                    "timeout": limit,
                    "cwd": cwd or self.config.cwd,
                    "env": self.config.env or None,
                    "merge_output_streams": True,
                },
                timeout=limit + 30,
            )
            output = {"output": answer.get("stdout", "") + answer.get("stderr", ""), "returncode": answer.get("exit_code"), "exception_info": ""}
        except RuntimeFailure as error:
            output = {
                "output": "",
                "returncode": -1,
                "exception_info": "An error occurred while executing the command: %s" % error,
                "extra": {"exception_type": error.class_name, "exception": str(error)},
            }
        self._check_finished(output)
        return output

    def _check_finished(self, output):
        lines = output.get("output", "").lstrip().splitlines(True)
        if lines and lines[0].strip() == SUBMIT_MARKER and output.get("returncode") == 0:
            submission = self.submission(diff_paths("".join(lines[1:])))
            self.submitted = True
            raise Submitted({"role": "exit", "content": submission, "extra": {"exit_status": "Submitted", "submission": submission}})

    def submission(self, view_paths=()):
        """The patch in original coordinates of the working copy's state (only ``view_paths``, when given)."""
        if not self.config.checkout:
            raise ValueError("checkout: the working copy's folder on this machine (where `schrodinger patch` reads it)")
        command = shlex.split(self.config.schrodinger) + ["patch", "--edited", self.config.checkout]
        if self.config.store:
            command += ["--store", self.config.store]
        if view_paths:
            command += ["--only"] + list(view_paths)
        done = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True)
        if done.returncode != 0:
            raise RuntimeError("schrodinger patch failed: %s" % done.stderr.strip().splitlines()[-1:])
        return done.stdout

    def disguise(self):
        """What ``serve`` tells of the disguise: seed, levels, bundle digest, counts of translated actions."""
        try:
            return self._request("GET", "/disguise", timeout=30)
        except (RuntimeFailure, OSError) as error:
            return {"error": str(error)}

    # -- mini-swe-agent's protocol --------------------------------------------------------------

    def get_template_vars(self, **kwargs):
        uname = platform.uname()
        variables = {"system": uname.system, "release": uname.release, "version": uname.version, "machine": uname.machine}
        variables.update(self.config.model_dump())
        variables.update(kwargs)
        return variables

    def serialize(self):
        return {
            "info": {
                "config": {
                    "environment": self.config.model_dump(mode="json"),
                    "environment_type": "%s.%s" % (self.__class__.__module__, self.__class__.__name__),
                },
                "disguise": dict(self.disguise(), actions=self.actions),
            }
        }


def diff_paths(diff):
    """The files a unified diff names (``+++ b/x``, or ``--- a/x`` for a deletion), in order, once each."""
    paths = []
    old = None
    for line in diff.splitlines():
        if line.startswith("--- "):
            old = _diff_path(line[4:], "a/")
        elif line.startswith("+++ "):
            new = _diff_path(line[4:], "b/")
            for path in (new, old) if new is None else (new,):
                if path is not None and path not in paths:
                    paths.append(path)
            old = None
        elif line.startswith("rename from "):
            old = line[len("rename from "):].strip()
            if old not in paths:
                paths.append(old)
    return paths


def _diff_path(text, prefix):
    path = text.split("\t", 1)[0].strip()
    if path == "/dev/null":
        return None
    if path.startswith('"') and path.endswith('"'):
        path = path[1:-1].encode("latin-1", "backslashreplace").decode("unicode_escape").encode("latin-1").decode("utf-8", "replace")
    return path[len(prefix):] if path.startswith(prefix) else path
