"""The ``--jobs`` the plugin passes (tinymemory.testing._run.jobs_for)."""

import os

from tinymemory.testing import _run


def test_a_driver_of_independent_stores_runs_one_job_a_core():
    cores = _run.cores()
    assert 1 <= cores <= _run.MAX_JOBS
    assert _run.jobs_for({"independent_stores": True}, {}) == cores
    assert _run.jobs_for({"independent_stores": False}, {}) is None
    assert _run.jobs_for({"independent_stores": True}, {"TINYMEMORY_TRACE": "t.jsonl"}) is None


def test_more_cores_than_the_binary_takes_run_its_largest_jobs(monkeypatch):
    # The binary refuses --jobs above 1024 (a property case holds a store,
    # a process of an exec driver, per job): a machine with more cores
    # must not fail every item with a flag the user never gave.
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: set(range(4096)), raising=False)
    monkeypatch.setattr(os, "cpu_count", lambda: 4096)
    assert _run.MAX_JOBS == 1024
    assert _run.cores() == 1024
    assert _run.jobs_for({"independent_stores": True}, {}) == 1024
