"""The gates' simulation (bench/verdicts.py) on small runs: its faithful releases are faithful,
each planted regression reaches the database at the stated size and nowhere else, and the
runner judges pairs with every gate."""

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "bench"))
import verdicts as v  # noqa: E402

N = 200  # sessions per version and platform: enough for a verdict, small enough to be quick


@pytest.fixture(scope="module")
def binary():
    path = Path(os.environ.get("PULLPARITY_BIN") or REPO / ".build" / "debug" / "pullparity")
    assert path.is_file(), f"no pullparity binary at {path}: run `swift build` or set PULLPARITY_BIN"
    return str(path)


def ingest(binary, tmp_path, scenario, shape="onehump", seed="t", planting="exact"):
    """A pair's logs written and ingested; returns (sqlite connection, logs, planted count)."""
    logs, planted = v.pair_logs(seed, shape, scenario, N, planting)
    files = []
    for version in v.VERSIONS:
        files.append(str(tmp_path / ("padel-%s.jsonl" % version)))
        v.write_log(files[-1], logs[version])
    db = str(tmp_path / "pair.sqlite")
    subprocess.run([binary, "ingest", "--db", db, "--quiet"] + files, check=True,
                   capture_output=True)
    return sqlite3.connect(db), logs, planted


def violations(con):
    return con.execute("SELECT s.platform, s.app_version, v.kind, count(*) FROM violations v "
                       "JOIN sessions s USING (session_id) GROUP BY 1, 2, 3").fetchall()


@pytest.mark.parametrize("shape", v.SHAPES)
def test_a_same_behaviour_pair_is_a_faithful_release(binary, tmp_path, shape):
    con, logs, planted = ingest(binary, tmp_path, "same", shape)
    assert planted == 0
    run = con.execute("SELECT quarantined, conflicts, duplicates, sessions_derived "
                      "FROM ingest_runs").fetchone()
    assert run == (0, 0, 0, 4 * N)
    assert violations(con) == []
    outcomes = dict(con.execute("SELECT outcome, count(*) FROM sessions GROUP BY 1").fetchall())
    assert set(outcomes) == {"completed", "cancelled"}
    assert 0.06 < outcomes["cancelled"] / (4 * N) < 0.14  # the ~10 % of pulls that do not arm
    # Each session's time to arm is the drawn one, to the ms (the arming sample is placed there).
    planned = {s.sid: round(v.ge.quantize(s.plan["arm_ms"], 10) / v.TPM, 1)
               for ss in logs.values() for s in ss if s.plan["kind"] == "refresh"}
    got = dict(con.execute("SELECT session_id, round(time_to_arm_ms, 1) FROM sessions "
                           "WHERE platform = 'ios' AND outcome = 'completed'").fetchall())
    assert got and all(got[sid] == planned[sid] for sid in got)
    # Neither platform breaks a rule or a QA item of the padel profile.
    out = subprocess.run([binary, "qa", "--db", str(tmp_path / "pair.sqlite"), "--app", "padel"],
                         capture_output=True, text=True)
    assert out.returncode == 0, out.stdout


@pytest.mark.parametrize("scenario,kind", [("stuck", "stuck_refresh"),
                                           ("dropped", "dropped_refresh"), ("flash", "flash")])
def test_a_planted_rule_breach_is_in_the_database_at_its_size(binary, tmp_path, scenario, kind):
    con, logs, planted = ingest(binary, tmp_path, scenario)
    refreshes = sum(1 for s in logs["1.1"] if s.platform == "ios" and s.plan["kind"] == "refresh")
    assert planted == int(v.PLANTED[scenario] * refreshes + 0.5) > 0
    # Only the candidate's iOS sessions, each planted one once, and no other finding.
    assert violations(con) == [("ios", "1.1", kind, planted)]


def test_binomial_planting_gives_what_it_says(binary, tmp_path):
    con, _, planted = ingest(binary, tmp_path, "stuck", planting="binomial", seed="b")
    assert violations(con) == ([("ios", "1.1", "stuck_refresh", planted)] if planted else [])


def test_visible_time_is_planted_as_a_later_hide_and_nothing_else(binary, tmp_path):
    """The same seed with and without the planting gives the same sessions (the planting draws
    nothing); only the candidate's iOS hides move, each exactly 150 ms, within the slack."""
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    same, _, _ = ingest(binary, tmp_path / "a", "same")
    shifted, _, planted = ingest(binary, tmp_path / "b", "visible")
    q = ("SELECT session_id, platform, app_version, visible_ms, time_to_arm_ms, load_ms, "
         "late_hide FROM sessions ORDER BY session_id")
    a, b = same.execute(q).fetchall(), shifted.execute(q).fetchall()
    assert [r[:3] for r in a] == [r[:3] for r in b]
    moved = [(x, y) for x, y in zip(a, b) if x[3] is not None and y[3] - x[3] > 0.1]
    assert len(moved) == planted > 0
    assert all(x[1:3] == ("ios", "1.1") and abs(y[3] - x[3] - 150) < 0.11 and x[4:] == y[4:]
               for x, y in moved)
    assert violations(shifted) == []  # 16-64 ms + 150 stays inside the 250 ms slack


def test_time_to_arm_is_planted_as_40_ms_on_every_pull():
    base, _ = v.version_log("t", "onehump", "ios", "1.1", N)
    slow, planted = v.version_log("t", "onehump", "ios", "1.1", N, "time_to_arm")
    assert planted == sum(1 for s in base if s.plan["kind"] == "refresh")
    assert all(abs(y.plan["arm_ms"] - x.plan["arm_ms"] - 40) < 1e-9 for x, y in zip(base, slow))


def test_a_tiny_run_judges_every_gate(binary, capsys):
    code = v.main(["--binary", binary, "--pairs", "1", "--sessions", str(N), "--jobs", "2",
                   "--shapes", "onehump", "--scenarios", "same,flash,time_to_arm", "--json"])
    assert code == 0  # no gate run ended in a usage error
    out = json.loads(capsys.readouterr().out)
    rows = {(r["gate"], r["scenario"]): r for r in out["rows"]}
    assert set(rows) == {("compare", "same"), ("report", "same"), ("qa", "same"),
                         ("compare", "flash"), ("compare_untouched", "flash"),
                         ("report", "flash"), ("qa", "flash"),
                         ("compare", "time_to_arm"), ("compare_untouched", "time_to_arm"),
                         ("report", "time_to_arm"), ("qa", "time_to_arm")}
    assert rows[("compare", "same")]["runs"] == 2  # both platforms are false-alarm runs
    assert rows[("report", "time_to_arm")]["verdict"] == "not judged"
    # 6 points of flashes against a 0 % budget: the rules catch them.
    assert rows[("report", "flash")]["exit1"] == rows[("qa", "flash")]["exit1"] == 1
    # Deterministic for a seed: the same pairs, so the same planted counts, on every run.
    assert [p["planted"] for p in out["pairs"]] == [0, 11, 185]
    text = v.render(out["rows"])
    assert "compare_untouched" in text and "not judged" in text and "MET" in text
    table = v.render_markdown(out["rows"]).splitlines()
    assert len(table) == 2 + 3 and table[3].startswith("| `flash` | onehump | detection")
