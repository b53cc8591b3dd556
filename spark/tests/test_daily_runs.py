"""Daily runs (`--append`): a run over one day's log adds to the Parquet dataset the runs of the
days before wrote. Run day by day over a three-day log (daily_log.py), the dataset holds what one
run over all three days writes, and, loaded, what `pullparity ingest` of the three files stores;
running a day again changes no table."""

import collections
import json
import os
import shlex
import shutil
import sqlite3
import subprocess

from daily_log import DAYS, write_daily_logs
from spark_run import REPO, run_and_load
from test_equivalence import QUERIES, SESSION_FIELDS, assert_same, derived_rows, dump, ingest, run_tables

TABLES = ("events", "sessions", "violations", "quarantine", "profiles")
# Their rows go to the partition of the run's first day: a daily run's is its own day's.
RUN_DAY_TABLES = ("quarantine", "profiles")


def dataset(spark, out):
    """Every table of a dataset as a multiset of rows (columns by name), with each row's `day`
    but for the tables partitioned by the run's first day."""
    tables = {}
    for table in TABLES:
        df = spark.read.parquet(f"{out}/parquet/{table}")
        if table in RUN_DAY_TABLES:
            df = df.drop("day")
        df = df.select(*sorted(df.columns))
        tables[table] = collections.Counter(tuple(row) for row in df.collect())
    return tables


def run_day(spark, binary, cwd, name, out, for_load):
    import pullparity_spark
    previous = os.getcwd()
    os.chdir(cwd)
    try:
        return pullparity_spark.run_job(spark, [name], out, binary, for_load=for_load, append=True)
    finally:
        os.chdir(previous)


def load(binary, out, db, said=None):
    result = subprocess.run([binary, "load", out, "--db", db], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
    if said is not None:
        said.append(result.stdout)
    return dump(db)


def hidden(folders):
    """Moves `folders` aside for the block's time: what a load must not read."""
    class Hidden:
        def __enter__(self):
            for folder in folders:
                os.rename(folder, folder + ".hidden")

        def __exit__(self, *_):
            for folder in folders:
                os.rename(folder + ".hidden", folder)
    return Hidden()


def run_daily_load_recipe(binary, out, folder):
    """docs/at-scale.md's daily load recipe, its lines after the job's, as written, with `hdfs
    dfs -cat` and `-get` as `cat` and `cp -r`, the dataset at `out`, in `folder`."""
    text = open(os.path.join(REPO, "docs", "at-scale.md")).read()
    block = text.split("<!-- daily-load-recipe")[1].split("```sh\n")[1].split("```")[0]
    script = (block[block.index("RUN="):].replace("hdfs dfs -cat ", "cat ").replace("hdfs dfs -get ", "cp -r ")
              .replace("/parity/dataset", out).replace("pullparity load ", shlex.quote(binary) + " load "))
    os.makedirs(folder, exist_ok=True)
    result = subprocess.run(["bash", "-euc", script], cwd=folder, capture_output=True, text=True)
    assert result.returncode == 0, script + result.stdout + result.stderr
    return os.path.join(folder, "parity.sqlite")


def load_each_day(binary, cwd, path, out, run, said):
    """The dataset after a day's run loaded into the file of the days before (days.sqlite), and
    that day's file ingested into the file of the days ingested before (ingest-days.sqlite).
    From the third day on, only that day's part may be read: the dataset's whole tables and the
    earlier days' parts are moved aside while it loads."""
    db, ingested = os.path.join(cwd, "days.sqlite"), os.path.join(cwd, "ingest-days.sqlite")
    aside = [f"{out}/json", *(f"{out}/runs/{n:04d}" for n in range(1, run - 1))] if run >= 3 else []
    with hidden(aside):
        loaded = load(binary, out, db, said)
    return loaded, ingest(binary, cwd, [path], ingested)


def test_daily_runs_add_up_to_one_run_over_all_days_and_to_ingest(spark, binary, tmp_path):
    names = write_daily_logs(str(tmp_path / "days"))
    paths = ["days/" + name for name in names]
    expected = ingest(binary, str(tmp_path), ["days"], str(tmp_path / "ingest.sqlite"))
    _, single_out, single_db = run_and_load(spark, binary, str(tmp_path), ["days"], str(tmp_path / "single"))
    assert_same(expected, dump(single_db))

    out = str(tmp_path / "daily")
    runs, said = [], []
    for number, path in enumerate(paths, start=1):
        runs.append(run_day(spark, binary, str(tmp_path), path, out, for_load=True))
        if number == 2:
            shutil.copytree(out, str(tmp_path / "older"))
        by_day, ingested_by_day = load_each_day(binary, str(tmp_path), path, out, number, said)
        recipe_db = run_daily_load_recipe(binary, out, str(tmp_path / "recipe"))
    # Each day's load read that day's part alone (the first, the dataset whole: one run so far),
    # and the ledger counts each line once: the same tables and runs as ingest day by day.
    assert said[0].startswith(f"Loaded {out} (spark ") and said[0].count("Loaded ") == 1, said[0]
    assert [text.split(" (")[0] for text in said[1:]] == [f"Loaded {out}/runs/0002", f"Loaded {out}/runs/0003"]
    assert by_day == ingested_by_day == dump(recipe_db)
    assert [row[0] for row in by_day["counts"]] == [run["lines_read"] for run in runs]
    daily = dataset(spark, out)
    assert sorted(json.load(open(f"{out}/summary.json"))["schemas"]) == sorted(TABLES)
    assert daily == dataset(spark, single_out)
    assert run_tables(spark, out) == derived_rows(expected)
    assert_same(expected, load(binary, out, str(tmp_path / "daily.sqlite")))

    # What the log plants, seen in the runs: duplicates and conflicts of the day before, and
    # sessions derived again from two days' events or judged again with the next day's data.
    assert [run["sources"] for run in runs] == [[path] for path in paths]
    assert all(run["duplicates"] > 0 and run["conflicts"] > 0 for run in runs[1:])
    assert runs[1]["already_quarantined"] > 0
    fields = {field: SESSION_FIELDS.index(field) for field in ("session_id", "stuck_refresh", "repeated_refresh",
                                                                "started_at_ms", "ended_at_ms")}
    sessions = {row[0]: row for row in expected["sessions"]}
    assert sessions["stuck-eod"][fields["stuck_refresh"]] == 1
    assert sessions["rep-after"][fields["repeated_refresh"]] == 1
    assert sessions["late-b"][fields["repeated_refresh"]] == 1
    spans = [row for row in expected["sessions"] if row[fields["started_at_ms"]] // 86_400_000
             != row[fields["ended_at_ms"]] // 86_400_000]
    assert len(spans) >= 4 and "three-days" in [row[0] for row in spans]
    days = {row[0]: row[1].isoformat() for row in spark.read.parquet(f"{out}/parquet/sessions")
            .select("session_id", "day").collect()}
    assert set(days.values()) == set(DAYS)
    # The third day's late event of d1s12, a day before its first, moved it to the first day.
    assert runs[1]["sessions_derived"] > 0 and days["d1s12"] == DAYS[0]
    assert runs[1]["sessions_judged_again"] > 0

    # Loaded again, nothing is new; an older copy of the dataset (after day 2) is refused.
    days_db = str(tmp_path / "days.sqlite")
    said.clear()
    assert load(binary, out, days_db, said) == by_day
    assert said == [f"Nothing loaded: {days_db} holds every run of {out} already\n"]
    older = subprocess.run([binary, "load", str(tmp_path / "older"), "--db", days_db], capture_output=True, text=True)
    assert older.returncode == 2 and "holds run 3 of this dataset" in older.stderr and "older copy" in older.stderr, \
        older.stderr
    assert dump(days_db) == by_day

    # The same day again: every event a duplicate, nothing added or changed.
    again = run_day(spark, binary, str(tmp_path), paths[-1], out, for_load=True)
    assert again["events_stored"] == 0 and again["duplicates"] == runs[-1]["events_stored"] + runs[-1]["duplicates"]
    assert dataset(spark, out) == daily
    # Each run's costs are its own, though the session ran the job five times: the same file
    # read again is the same bytes read.
    assert again["timings"]["decode"]["input_mb"] == runs[-1]["timings"]["decode"]["input_mb"] > 0
    # Its part loaded as ingest reads the day's file again: its lines counted, all duplicates.
    by_day, ingested_by_day = load_each_day(binary, str(tmp_path), paths[-1], out, len(runs) + 1, said)
    assert by_day == ingested_by_day
    dataset_id = json.load(open(f"{out}/summary.json"))["dataset"]["id"]
    with sqlite3.connect(days_db) as conn:
        held = conn.execute("SELECT dataset_id, run_number, run_id FROM dataset_runs ORDER BY run_number").fetchall()
    assert held == [(dataset_id, run, run) for run in range(1, 5)]
    reloaded = load(binary, out, str(tmp_path / "again.sqlite"))
    for table in [*QUERIES, "events"]:
        if table != "counts":
            assert reloaded[table] == expected[table], f"{table} differs"


def test_a_table_a_run_left_empty_is_read_by_the_schema_it_recorded(spark, tmp_path):
    """A day without a bad line writes a `quarantine` without a Parquet file, from which Spark
    cannot take a schema: the next daily run read it by the schema the summary recorded (a clean
    first day once stopped the second day's run with UNABLE_TO_INFER_SCHEMA)."""
    import pullparity_spark
    from pyspark.errors import AnalysisException
    out = str(tmp_path / "dataset")
    empty = spark.createDataFrame([], "source string, line long, raw string, day date")
    empty.write.partitionBy("day").parquet(f"{out}/parquet/quarantine")
    with open(f"{out}/summary.json", "w") as summary:
        json.dump({"schemas": {"quarantine": empty.schema.jsonValue()}}, summary)
    files = pullparity_spark.Files(spark.sparkContext, out)
    table = pullparity_spark.StoredDataset(spark, out, files).table("quarantine")
    assert table.count() == 0 and sorted(table.columns) == ["day", "line", "raw", "source"]
    with open(f"{out}/summary.json", "w") as summary:
        json.dump({}, summary)
    try:
        pullparity_spark.StoredDataset(spark, out, files).table("quarantine").count()
        raise AssertionError("Spark read a table without a file or a schema")
    except AnalysisException as error:
        assert "UNABLE_TO_INFER_SCHEMA" in str(error)
