"""The parts of the environment that need no runtime (the agent loop with a real `schrodinger serve`
is tested by the product's test/integration/agent-loop.test.ts)."""

import pytest

from schrodinger_harness import DisguisedEnvironment, DisguisedEnvironmentConfig, diff_paths
from schrodinger_harness.environment import HOST_FIELDS


def test_diff_paths_reads_the_files_a_diff_names():
    diff = "\n".join(
        [
            "diff --git a/pkg/mod.py b/pkg/mod.py",
            "index 1..2 100644",
            "--- a/pkg/mod.py",
            "+++ b/pkg/mod.py",
            "@@ -1 +1 @@",
            "-x",
            "+y",
            "diff --git a/gone.py b/gone.py",
            "deleted file mode 100644",
            "--- a/gone.py",
            "+++ /dev/null",
            "diff --git a/new.py b/new.py",
            "new file mode 100644",
            "--- /dev/null",
            "+++ b/new.py",
            "diff --git a/old name.py b/new name.py",
            "similarity index 90%",
            "rename from old name.py",
            "rename to new name.py",
            "--- a/old name.py",
            "+++ b/new name.py",
            'diff --git "a/caf\\303\\251.py" "b/caf\\303\\251.py"',
            '--- "a/caf\\303\\251.py"',
            '+++ "b/caf\\303\\251.py"',
            "--- a/pkg/mod.py\t2024-01-01",
            "+++ b/pkg/mod.py\t2024-01-01",
        ]
    )
    assert diff_paths(diff) == ["pkg/mod.py", "gone.py", "new.py", "old name.py", "new name.py", "caf\u00e9.py"]


def test_diff_paths_of_text_that_is_no_diff_is_empty():
    assert diff_paths("nothing changed\n") == []
    assert diff_paths("") == []


def test_the_agent_sees_no_place_of_the_host():
    env = DisguisedEnvironment(
        url="http://127.0.0.1:9/",
        auth_token="secret-token",
        checkout="/home/me/checkouts/parse-113-work",
        store="/home/me/.local/state/store",
        schrodinger="node /opt/schrodinger/bin/schrodinger.js",
        cwd="/testbed",
        timeout=7,
        env={"PAGER": "cat"},
    )
    shown = repr(env.get_template_vars(task="t")) + repr(env.config.model_dump(mode="json"))
    for field in HOST_FIELDS:
        assert getattr(env.config, field) not in shown, field
    assert env.get_template_vars()["cwd"] == "/testbed"
    assert env.config.model_dump() == {"cwd": "/testbed", "timeout": 7, "env": {"PAGER": "cat"}}
    assert env.config.url == "http://127.0.0.1:9"


def test_a_config_without_the_runtime_address_is_refused():
    with pytest.raises(ValueError, match="schrodinger serve"):
        DisguisedEnvironmentConfig(url="")


def test_a_runtime_that_does_not_answer_ends_the_run_rather_than_answering_the_agent():
    env = DisguisedEnvironment(url="http://127.0.0.1:9", auth_token="t", timeout=2)
    with pytest.raises(OSError):
        env.execute({"command": "ls"})


def test_a_row_that_is_not_of_a_prepared_dataset_is_refused():
    from schrodinger_harness import prepared_checkout

    for row in ({}, {"schrodinger": {"checkout": "/w"}}, {"schrodinger": "x"}, []):
        with pytest.raises(ValueError, match="not a row of a `schrodinger prepare` dataset"):
            prepared_checkout(row)
    assert prepared_checkout({"schrodinger": {"checkout": "/w", "store": "/s"}}) == ("/w", "/s")
