"""The job checks its binary before it starts (issue #43, item 5): a relative `--binary` is made
absolute, so that the verbs Spark runs from its own working folders still find it, and a binary
that cannot run stops the job with its one-line cause before any partition runs."""

import os
import re
import stat

import pytest

import pullparity_spark
from spark_run import REPO


def test_a_relative_binary_runs_the_whole_job(sample_run, spark, binary, tmp_path, monkeypatch):
    monkeypatch.chdir(REPO)
    relative = os.path.relpath(binary, REPO)
    assert not os.path.isabs(relative) and "/" in relative
    summary = pullparity_spark.run_job(spark, ["sample-events"], str(tmp_path / "run"), relative)
    expected = sample_run[0]
    for count in ("events_stored", "sessions_derived", "quarantined", "duplicates", "conflicts"):
        assert summary[count] == expected[count], count


def test_a_binary_that_cannot_run_stops_the_job_with_its_cause(spark, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    broken = tmp_path / "broken"
    broken.write_text("#!/bin/sh\necho 'cannot open shared object file' >&2\nexit 127\n")
    broken.chmod(broken.stat().st_mode | stat.S_IXUSR)
    cases = {
        "../missing/pullparity": f"--binary {tmp_path.parent}/missing/pullparity cannot run: No such file or directory",
        "./broken": f"--binary {tmp_path}/broken --version exited 127: cannot open shared object file",
    }
    for given, cause in cases.items():
        with pytest.raises(pullparity_spark.JobError, match="^" + re.escape(cause) + "$"):
            pullparity_spark.run_job(spark, [os.path.join(REPO, "sample-events")], str(tmp_path / "never"), given)
    assert not (tmp_path / "never").exists()


def test_under_spark_connect_out_must_be_a_path_of_this_machine():
    """A Spark Connect client has no Hadoop FileSystem to write summary.json with: a URI as OUT is
    refused before the job starts, a path (or `file:`) is taken."""
    for out in ("/data/run", "run", "file:///data/run", "file:/data/run"):
        pullparity_spark.Files(None, out)
    with pytest.raises(pullparity_spark.JobError, match=r"^--out hdfs://nn/run: under Spark Connect, OUT must be"):
        pullparity_spark.Files(None, "hdfs://nn/run")
