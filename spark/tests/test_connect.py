"""The job under Spark Connect (issue #43, item 1): a local Spark Connect server, started here
with the script PySpark ships (sbin/start-connect-server.sh, local[2]) and stopped afterwards,
and the job run against it as a user runs it (`--remote sc://…`), a client with no SparkContext
and no JVM of its own. Its output, loaded, must equal `ingest` table for table: the sample logs,
and the chaos corpus (duplicates across files, conflicts, bad and blank lines, CRLF, a line that
is not UTF-8, a gzip part) as two daily `--append` runs loaded day by day."""

import json
import os
import socket
import subprocess
import sys
import time

import pytest

from chaos import write_chaos
from spark_run import REPO
from test_equivalence import QUERIES, assert_same, dump, ingest

JOB = os.path.join(REPO, "spark", "pullparity_spark.py")


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture(scope="module")
def connect_server(tmp_path_factory):
    """A Spark Connect server on a free loopback port: its URL; stopped after the module."""
    import pyspark
    home = os.path.dirname(pyspark.__file__)
    folder = tmp_path_factory.mktemp("connect-server")
    port = free_port()
    env = {**os.environ, "SPARK_HOME": home, "SPARK_LOCAL_IP": "127.0.0.1", "SPARK_LOG_DIR": str(folder),
           "SPARK_PID_DIR": str(folder), "SPARK_IDENT_STRING": f"pullparity-{port}",
           "PYSPARK_PYTHON": sys.executable}
    env.pop("PYTHONPATH", None)
    subprocess.run(
        ["bash", os.path.join(home, "sbin", "start-connect-server.sh"), "--master", "local[2]",
         "--conf", f"spark.connect.grpc.binding.port={port}", "--conf", "spark.connect.grpc.binding.address=127.0.0.1",
         "--conf", "spark.ui.enabled=false", "--conf", "spark.sql.shuffle.partitions=4",
         # As the suite's own session (conftest.py): the quick compiler only, one GC thread.
         "--driver-java-options", "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC"],
        env=env, check=True, capture_output=True)
    try:
        wait_for(port, folder)
        yield f"sc://127.0.0.1:{port}"
    finally:
        subprocess.run(["bash", os.path.join(home, "sbin", "stop-connect-server.sh")], env=env, capture_output=True)


def wait_for(port, folder, seconds=120):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.5)
    logs = "".join(open(os.path.join(folder, name)).read()[-3000:] for name in os.listdir(folder)
                   if name.endswith(".out"))
    pytest.fail(f"no Spark Connect server on port {port} after {seconds} s:\n{logs}")


def run_remote(url, binary, cwd, paths, out, *options):
    """The job as a user runs it against a Connect server; its summary."""
    env = {**os.environ, "PYTHONPATH": ""}
    result = subprocess.run([sys.executable, JOB, "--remote", url, "--binary", binary, "--json-for-load", *options,
                             "--out", out, *paths], cwd=cwd, env=env, capture_output=True, text=True)
    said = [line for line in (result.stdout + result.stderr).splitlines() if " INFO " not in line]
    assert result.returncode == 0, "\n".join(said[-40:])
    return json.loads(result.stdout)


def load(binary, out, db, says=None):
    result = subprocess.run([binary, "load", out, "--db", db], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
    assert says is None or result.stdout.startswith(says), result.stdout
    return dump(db)


def test_the_sample_logs_under_spark_connect(connect_server, binary, tmp_path):
    out = str(tmp_path / "run")
    summary = run_remote(connect_server, binary, REPO, ["sample-events"], out)
    import pyspark
    assert summary["engine"] == f"spark {pyspark.__version__}"
    # A Connect client has no status store to read: each phase has its wall time, the job's clock.
    assert list(summary["timings"]) == ["decode", "dedup", "derive", "judge_across_sessions", "write"]
    assert all(list(figures) == ["wall_s"] and figures["wall_s"] > 0 for figures in summary["timings"].values())
    expected = ingest(binary, REPO, ["sample-events"], str(tmp_path / "ingest.sqlite"))
    assert_same(expected, load(binary, out, str(tmp_path / "spark.sqlite")))


def test_the_chaos_corpus_as_daily_runs_under_spark_connect(connect_server, binary, tmp_path):
    """The chaos corpus's first two files as day 1's `--append` run and its last two as day 2's
    (its gzip part), into one dataset; each day loaded into one file (the second day's part
    only): ingest's tables of all four files, duplicates and conflicts across the days
    included. The dataset is read back, staged and swapped through the Connect session, and the
    client writes each summary.json."""
    write_chaos(str(tmp_path / "chaos"))
    names = sorted(os.listdir(tmp_path / "chaos"))
    days = [[f"chaos/{name}" for name in names[:2]], [f"chaos/{name}" for name in names[2:]]]
    out, db = str(tmp_path / "dataset"), str(tmp_path / "days.sqlite")
    for day, paths in enumerate(days, start=1):
        summary = run_remote(connect_server, binary, str(tmp_path), paths, out, "--append")
        assert summary["run_number"] == day and summary["duplicates"] > 0 and summary["quarantined"] > 0
        loaded = load(binary, out, db, says=f"Loaded {out}" + ("" if day == 1 else "/runs/0002"))
    expected = ingest(binary, str(tmp_path), ["chaos"], str(tmp_path / "ingest.sqlite"))
    for table in [*QUERIES, "events", "quarantine"]:
        if table != "counts":
            assert loaded[table] == expected[table], f"{table} differs from ingest's"
    # Two runs in the ledger, the second with the conflicts of day 2's copies of day 1's events.
    assert len(loaded["counts"]) == 2 and loaded["counts"][1][3] > 0
