"""Shared fixtures of the Spark suite: the pullparity binary and ONE local[2] Spark session."""

import os
import sys

import pytest

from field_failure_log import write_field_failure_log
from spark_run import REPO, run_and_load

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))


@pytest.fixture(scope="session")
def binary():
    """The binary scripts/test.sh built (PULLPARITY_BIN), else this checkout's debug build: never
    one found on PATH, which may be an older install than the code under test."""
    path = os.environ.get("PULLPARITY_BIN") or os.path.join(REPO, ".build", "debug", "pullparity")
    if not os.path.isfile(path):
        pytest.fail(f"no pullparity binary at {path}: run `swift build` or set PULLPARITY_BIN")
    return os.path.abspath(path)


@pytest.fixture(scope="session")
def spark():
    os.environ["SPARK_LOCAL_IP"] = "127.0.0.1"
    from pyspark.sql import SparkSession
    session = (SparkSession.builder.master("local[2]").appName("pullparity-tests")
               .config("spark.sql.shuffle.partitions", "4")
               .config("spark.ui.enabled", "false")
               .config("spark.driver.memory", "1g")
               # The JVM's quick compiler only, and one GC thread: the tests' jobs are too short
               # for the optimizing compiler to pay back its CPU, which the suite beside them
               # needs (the daily runs' test: 215 CPU-s against 261, wall within 5 %).
               .config("spark.driver.extraJavaOptions", "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC")
               .getOrCreate())
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()


@pytest.fixture(scope="session")
def sample_run(spark, binary, tmp_path_factory):
    """One Spark run over sample-events/, shared by the equivalence and PostgreSQL tests."""
    return run_and_load(spark, binary, REPO, ["sample-events"], str(tmp_path_factory.mktemp("sample-run")))


@pytest.fixture(scope="session")
def field_failure_run(spark, binary, tmp_path_factory):
    """One Spark run over the log of field_failure_log (verdicts that need other sessions), shared
    by the equivalence and PostgreSQL tests: the summary, the output, the loaded SQLite file,
    and the folder the log is in (as `field-failures.jsonl`)."""
    root = tmp_path_factory.mktemp("field-failures")
    write_field_failure_log(str(root / "field-failures.jsonl"))
    summary, out, db = run_and_load(spark, binary, str(root), ["field-failures.jsonl"], str(root))
    return summary, out, db, str(root)
