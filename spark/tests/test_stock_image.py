"""The cluster recipe of docs/at-scale.md, as written, with what a stock Spark has: the official
apache/spark:4.0.0 image's PySpark, and PySpark 3.5 (the line EMR 7 and Databricks Runtime
14-15 LTS run), each in a venv of its own (spark/requirements-stock-image.txt and
spark/requirements-spark-3.5.txt, made by scripts/test.sh), with the deployable binary shipped
with `--files` and named by `--binary` alone; then `pullparity load` of the run, equal to
`ingest`. The image's glibc is checked by test_deployable.py (Ubuntu 22.04's); no Docker
engine runs here to start the image itself. The test suite's own PySpark is the newest 4.x."""

import os
import subprocess

import pytest

from spark_run import REPO
from test_equivalence import assert_same, dump, ingest

# (venv under .build, its environment override, the version its summary names)
SPARKS = [("stock-spark", "PULLPARITY_STOCK_SPARK", "4.0.0"), ("spark-3.5", "PULLPARITY_SPARK_35", "3.5.9")]


def venv(folder_name: str, override: str) -> str:
    folder = os.environ.get(override) or os.path.join(REPO, ".build", folder_name)
    if not os.path.isfile(os.path.join(folder, "bin", "spark-submit")):
        pytest.fail(f"no PySpark at {folder}: scripts/test.sh makes it (spark/requirements-*.txt)")
    return folder


@pytest.mark.parametrize("folder_name, override, version", SPARKS, ids=[version for *_, version in SPARKS])
def test_the_recipe_runs_on_a_stock_spark(folder_name, override, version, binary, tmp_path):
    spark = venv(folder_name, override)
    deployable = os.environ.get("PULLPARITY_DEPLOYABLE") or os.path.join(
        REPO, ".build", "deployable", "release", "pullparity")
    out = str(tmp_path / "run")
    python = os.path.join(spark, "bin", "python")
    env = {**os.environ, "SPARK_LOCAL_IP": "127.0.0.1", "PYSPARK_PYTHON": python, "PYSPARK_DRIVER_PYTHON": python}
    for name in ("SPARK_HOME", "PYTHONPATH"):  # the venv's PySpark's own, not the test runner's
        env.pop(name, None)
    submitted = subprocess.run(
        [os.path.join(spark, "bin", "spark-submit"), "--master", "local[2]", "--conf", "spark.ui.enabled=false",
         # The JVM's quick compiler only and one GC thread, as the suite's own session (conftest.py):
         # a run over the sample logs is too short for the optimizing compiler to pay back its CPU.
         "--driver-java-options", "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC",
         "--files", deployable, os.path.join(REPO, "spark", "pullparity_spark.py"),
         "--binary", os.path.basename(deployable), "--json-for-load", "--out", out, "sample-events"],
        cwd=REPO, env=env, capture_output=True, text=True)
    said = [line for line in (submitted.stdout + submitted.stderr).splitlines() if " INFO " not in line]
    assert submitted.returncode == 0, "\n".join(said[-40:])
    summary = open(os.path.join(out, "summary.json")).read()
    assert f'"engine": "spark {version}"' in summary, summary
    db = str(tmp_path / "spark.sqlite")
    subprocess.run([binary, "load", out, "--db", db], capture_output=True, check=True)
    assert_same(ingest(binary, REPO, ["sample-events"], str(tmp_path / "ingest.sqlite")), dump(db))
