"""The cluster recipe of docs/at-scale.md, as written, with what a stock Spark image has: the
official apache/spark:4.0.0 image's PySpark (its own venv, spark/requirements-stock-image.txt,
made by scripts/test.sh) and the deployable binary shipped with `--files` and named by
`--binary` alone; then `pullparity load` of the run. The image's glibc is checked by
test_deployable.py (Ubuntu 22.04's); no Docker engine runs here to start the image itself."""

import os
import subprocess

import pytest

from spark_run import REPO
from test_equivalence import assert_same, dump, ingest


@pytest.fixture(scope="module")
def stock_spark():
    folder = os.environ.get("PULLPARITY_STOCK_SPARK") or os.path.join(REPO, ".build", "stock-spark")
    submit = os.path.join(folder, "bin", "spark-submit")
    if not os.path.isfile(submit):
        pytest.fail(f"no stock PySpark at {folder}: scripts/test.sh makes it (spark/requirements-stock-image.txt)")
    return folder


def test_the_recipe_runs_on_the_stock_images_spark(stock_spark, binary, tmp_path):
    deployable = os.environ.get("PULLPARITY_DEPLOYABLE") or os.path.join(
        REPO, ".build", "deployable", "release", "pullparity")
    out = str(tmp_path / "run")
    python = os.path.join(stock_spark, "bin", "python")
    env = {**os.environ, "SPARK_LOCAL_IP": "127.0.0.1", "PYSPARK_PYTHON": python, "PYSPARK_DRIVER_PYTHON": python}
    for name in ("SPARK_HOME", "PYTHONPATH"):  # the stock PySpark's own, not the test runner's
        env.pop(name, None)
    submitted = subprocess.run(
        [os.path.join(stock_spark, "bin", "spark-submit"), "--master", "local[2]", "--conf", "spark.ui.enabled=false",
         "--files", deployable, os.path.join(REPO, "spark", "pullparity_spark.py"),
         "--binary", os.path.basename(deployable), "--json-for-load", "--out", out, "sample-events"],
        cwd=REPO, env=env, capture_output=True, text=True)
    said = [line for line in (submitted.stdout + submitted.stderr).splitlines() if " INFO " not in line]
    assert submitted.returncode == 0, "\n".join(said[-40:])
    summary = open(os.path.join(out, "summary.json")).read()
    assert '"engine": "spark 4.0.0"' in summary, summary
    db = str(tmp_path / "spark.sqlite")
    subprocess.run([binary, "load", out, "--db", db], capture_output=True, check=True)
    assert_same(ingest(binary, REPO, ["sample-events"], str(tmp_path / "ingest.sqlite")), dump(db))
