#!/usr/bin/env python3
"""Measure the release gates' false-alarm and detection rates on release pairs of known truth.

Stdlib only; a black box over the pullparity binary, so it measures whichever engine it is given.

  python3 bench/verdicts.py [--pairs N] [--sessions 500] [--seed 1] [--binary PATH]
                            [--jobs 2] [--planting exact|binomial] [--keep DIR] [--json]

Each pair is one Padel release on two platforms (pwa, ios): version 1.0 (baseline) and 1.1
(candidate), --sessions sessions per version and platform, written by faithful clients (the
Padel clients of scripts/generate_events.py, with the iOS client arming where the profile arms
and the PWA holding the indicator). The candidate is drawn from the same behaviour
(scenario `same`) or carries one planted regression on iOS (see PLANTED). The pair is ingested
into a fresh database and judged by `compare` (each platform, 1.0 against 1.1),
`report --check` and `qa` (both on 1.1); the exit codes are counted per gate, scenario and
load shape. docs/verdicts.md ("Measuring the gates") states the method.
"""

import argparse
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from random import Random

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                "scripts"))
import generate_events as ge  # noqa: E402  (the Padel client model and the log format)

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TPM = ge.TPM
PLATFORMS = ("pwa", "ios")
PLANTED_ON = "ios"
VERSIONS = ("1.0", "1.1")
SHAPES = ("bimodal", "onehump")
SCREEN = {"pwa": "feed", "ios": "FeedView"}
# The regressions, each planted in the candidate on iOS only, at the sizes.
PLANTED = {"stuck": 0.02, "dropped": 0.02, "flash": 0.06, "time_to_arm": 40, "visible": 150}
SCENARIOS = ("same",) + tuple(PLANTED)
CANCEL_SHARE = 0.10       # half scrolled away, half released under the threshold
DEVICES_PER_PLATFORM = 100
ARM_D10 = 334             # Padel arms at distance x 0.72 >= 24: 33.4 px/pt in tenths
MIN_HOLD_MS = ge.PADEL_MIN_HOLD
FLASH_MAX_LOAD_MS = 1100  # a load this short can end, and the indicator hide, before the hold
TAIL_SESSIONS = 3         # the last sessions of a log are never stuck or dropped: see plant()
SOURCE_DATE_EPOCH = "1795000000"
DAY0 = (ge.DAY0_MS + 8 * 3600 * 1000) * TPM  # the baseline's first day, 08:00Z; 1.1 a day later

# Which gate judges which figure: "false_alarm" (goal <= 5 % exits 1), "detect" (goal >= 90 %),
# or why it does not judge it (its exit codes are still counted and shown, never scored).
GATES = ("compare", "compare_untouched", "report", "qa")
NOT_JUDGED_ARM = "not judged (within parity tolerance: time to arm p50 within 50 ms)"
JUDGES = {
    "same": {"compare": "false_alarm", "report": "false_alarm", "qa": "false_alarm"},
    "stuck": {"compare": "detect", "report": "detect", "qa": "detect"},
    "dropped": {"compare": "detect", "report": "detect", "qa": "detect"},
    "flash": {"compare": "detect", "report": "detect", "qa": "detect"},
    "time_to_arm": {"compare": "detect", "report": NOT_JUDGED_ARM,
                    "qa": "not judged (no QA item on time to arm)"},
    "visible": {"compare": "detect", "report": "detect",
                "qa": "not judged (no QA item on visible time)"},
}
GOALS = {"false_alarm": 0.05, "detect": 0.90}


# ---------------------------------------------------------------------------
# behaviour: what a session does, drawn before any event is written
# ---------------------------------------------------------------------------

def load_ms(rng, shape):
    """A load time: cache hits and misses (bimodal) or one network path (one hump)."""
    if shape == "bimodal":
        return rng.uniform(150, 1100) if rng.random() < 0.5 else rng.uniform(1300, 3000)
    return min(3000.0, max(150.0, rng.lognormvariate(math.log(700), 0.35)))


def plan_session(rng, shape):
    """Every draw a session needs, made whatever its kind, so one stream of plans is the same
    behaviour however a planting later changes some of them."""
    r = rng.random()
    kind = ("cancel_scroll" if r < CANCEL_SHARE / 2 else
            "cancel_release" if r < CANCEL_SHARE else "refresh")
    return {"kind": kind,
            "arm_ms": rng.triangular(150, 450),     # one hump, p50 300 ms
            "load_ms": load_ms(rng, shape),
            "hide_ms": rng.uniform(16, 64),         # a few frames after hold and load
            "gap_ms": rng.uniform(20000, 120000),   # to the previous session's start
            "install": rng.randrange(DEVICES_PER_PLATFORM)}


def plant(rng, plans, scenario, planting):
    """Plants the scenario's regression in a list of plans; returns how many sessions carry it.
    Stuck and dropped refreshes are judged once the platform's data moves past them (30 s and
    1 s), so the last TAIL_SESSIONS sessions, whose later data may not reach that far, never
    carry them."""
    if scenario == "same":
        return 0
    refreshes = [p for p in plans if p["kind"] == "refresh"]
    if scenario in ("time_to_arm", "visible"):
        key = "arm_ms" if scenario == "time_to_arm" else "hide_ms"
        for p in plans:
            p[key] += PLANTED[scenario]
        return len(refreshes)  # the sessions that arm and show the indicator
    if scenario == "flash":  # a share of completed refreshes, from those whose load allows it
        eligible = [p for p in refreshes if p["load_ms"] <= FLASH_MAX_LOAD_MS]
    else:
        head = len(plans) - TAIL_SESSIONS
        eligible = [p for i, p in enumerate(plans) if p["kind"] == "refresh" and i < head]
    chosen = pick(rng, eligible, PLANTED[scenario], len(refreshes), planting)
    for p in chosen:
        p[scenario] = True
    return len(chosen)


def pick(rng, eligible, share, base, planting):
    """exact: round(share x base) of the eligible sessions, chosen at random; binomial: each
    eligible session with the probability that gives share x base on average."""
    if planting == "exact":
        k = int(share * base + 0.5)
        if k > len(eligible):
            raise ValueError("only %d sessions can carry %d planted ones" % (len(eligible), k))
        return rng.sample(eligible, k)
    p = min(1.0, share * base / max(1, len(eligible)))
    return [e for e in eligible if rng.random() < p]


# ---------------------------------------------------------------------------
# events: a faithful Padel client on each platform
# ---------------------------------------------------------------------------

def timed_pull(rng, t0, ios, target10, arm_ms):
    """generate_events' pull samples at the speed that reaches the arming point in arm_ms, then
    stretched in time (the samples before it scaled, those after shifted) so that the arming
    sample lands exactly arm_ms after t0: the time to arm is the drawn figure, to the tick."""
    q = 10 if ios else 1
    samples = ge.pull_samples(rng, t0, ios, target10, ARM_D10 / 10.0 / arm_ms)
    a = next(i for i, (_, d10) in enumerate(samples) if ge.padel_machine_arms(d10))
    t_arm = t0 + ge.quantize(arm_ms, q)
    f = (t_arm - t0) / (samples[a][0] - t0)
    out = [(t0 + q * int((t - t0) * f / q + 0.5), d) for t, d in samples[:a + 1]]
    out += [(t + t_arm - samples[a][0], d) for t, d in samples[a + 1:]]
    assert out[a][0] == t_arm and all(x[0] < y[0] for x, y in zip(out, out[1:]))
    return out


def build_session(rng, platform, version, plan, t0):
    """One faithful Padel session as planned (generate_events.Session, finished)."""
    ios = platform == "ios"
    q = 10 if ios else 1
    # The plan rides on the session (Session.plan), so tests can hold each session to it.
    meta = dict(plan, screen=SCREEN[platform], version=version,
                install_id="padel-%s-%03d" % (platform, plan["install"]))
    s = ge.Session(rng, "padel", platform, meta, ge.fmt_rfc3339_cet if ios else ge.fmt_pwa, t0)
    ge.padel_pull_start(s, rng, ios, t0)
    if plan["kind"] != "refresh":
        return cancelled(s, rng, ios, plan["kind"], t0)
    samples = timed_pull(rng, t0, ios, rng.randint(450, 900), plan["arm_ms"])
    client, machine = ge.padel_pull_moves(s, rng, ios, samples, ge.padel_machine_arms)
    assert client == machine is not None  # faithful: the client arms where the profile does
    t_rel = samples[-1][0] + ge.draw(rng, 4, 16, q)
    s.add(t_rel, "release", ',"distance":%s' % ge.num10(samples[-1][1]))
    if plan.get("dropped"):  # armed, released, and nothing follows
        return s.finish(rng, {"outcome": "incomplete", "violations": {"dropped_refresh": 1}})
    t_rs, t_sh = ge.padel_refresh_start(s, rng, ios, t_rel)
    t_lc = t_rs + ge.quantize(plan["load_ms"], q)
    s.add(t_lc, "load_complete", ',"ok":true')
    if plan.get("stuck"):  # the load ended and the indicator never leaves
        return s.finish(rng, {"outcome": "incomplete", "violations": {"stuck_refresh": 1}},
                        cut_after="load_complete")
    if plan.get("flash"):  # hides a few frames after the load, before the hold ends
        t_hid = t_lc + ge.quantize(plan["hide_ms"], q)
        assert t_hid - t_sh < (MIN_HOLD_MS - 20) * TPM
    else:
        t_hid = max(t_sh + MIN_HOLD_MS * TPM, t_lc) + ge.quantize(plan["hide_ms"], q)
    s.add(t_hid, "indicator_hidden")
    viol = {"flash": 1} if plan.get("flash") else {}
    return s.finish(rng, {"outcome": "completed", "violations": viol})


def cancelled(s, rng, ios, kind, t0):
    """A pull that never arms: up to 8-33 px/pt (near misses included), then scrolled away
    or released under the threshold."""
    q = 10 if ios else 1
    samples = ge.pull_samples(rng, t0, ios, rng.randint(80, ARM_D10 - 4), rng.uniform(0.08, 0.22))
    assert ge.padel_pull_moves(s, rng, ios, samples, ge.padel_machine_arms) == (None, None)
    last, d10 = samples[-1]
    if kind == "cancel_scroll":
        s.add(last + ge.draw(rng, 10, 60, q), "cancel", ',"reason":"scroll_took_over"')
    else:
        s.add(last + ge.draw(rng, 4, 16, q), "release", ',"distance":%s' % ge.num10(d10))
    return s.finish(rng, {"outcome": "cancelled", "violations": {}})


def version_log(seed, shape, platform, version, n, scenario="same", planting="exact"):
    """The sessions of one platform and version, in start order, and the planted count.
    The stream's seed names the pair, platform and version: a candidate is a fresh draw."""
    rng = Random("%s:%s:%s" % (seed, platform, version))
    plans = [plan_session(rng, shape) for _ in range(n)]
    planted = plant(rng, plans, scenario, planting)
    t = DAY0 + VERSIONS.index(version) * ge.DAY_MS * TPM
    sessions = []
    for p in plans:
        t += ge.quantize(p["gap_ms"], 10)  # whole ms: iOS writes whole ms
        sessions.append(build_session(rng, platform, version, p, t))
    return sessions, planted


def pair_logs(seed, shape, scenario, n, planting="exact"):
    """{version: [sessions of both platforms]}, and the count planted in the candidate."""
    logs = {v: [] for v in VERSIONS}
    planted = 0
    for platform in PLATFORMS:
        for version in VERSIONS:
            hit = scenario if (platform, version) == (PLANTED_ON, VERSIONS[1]) else "same"
            sessions, k = version_log(seed, shape, platform, version, n, hit, planting)
            logs[version].extend(sessions)
            planted += k
    return logs, planted


def write_log(path, sessions):
    """One JSON-lines file, sessions in start order, each session's events together."""
    with open(path, "w", encoding="utf-8", newline="\n") as fh:
        for s in sorted(sessions, key=lambda s: (s.start(), s.sid)):
            fh.write("".join(s.line(j) + "\n" for j in range(len(s.events))))


# ---------------------------------------------------------------------------
# the gates
# ---------------------------------------------------------------------------

def gate_commands(db):
    """The gate runs of one pair: name -> (platform judged, argv after the binary)."""
    common = ["--db", db, "--app", "padel"]
    cohorts = ["--baseline", "app_version=" + VERSIONS[0],
               "--candidate", "app_version=" + VERSIONS[1]]
    return {
        "compare_ios": ["compare"] + common + ["--platform", "ios"] + cohorts,
        "compare_pwa": ["compare"] + common + ["--platform", "pwa"] + cohorts,
        "report": ["report", "--check"] + common + ["--app-version", VERSIONS[1]],
        "qa": ["qa"] + common + ["--app-version", VERSIONS[1]],
    }


def run(binary, argv):
    env = dict(os.environ, SOURCE_DATE_EPOCH=SOURCE_DATE_EPOCH)
    p = subprocess.run([binary] + argv, capture_output=True, text=True, env=env)
    return p.returncode, p.stderr.strip()[-400:]


def run_pair(job):
    """Generate, ingest and judge one pair; returns its record (exit code per gate run)."""
    binary, scenario, shape, index, seed, n, planting, keep = job
    pair_seed = "%s:%s:%s:%d" % (seed, scenario, shape, index)
    work = tempfile.mkdtemp(prefix="verdicts-")
    try:
        logs, planted = pair_logs(pair_seed, shape, scenario, n, planting)
        files = []
        for v in VERSIONS:
            files.append(os.path.join(work, "padel-%s.jsonl" % v))
            write_log(files[-1], logs[v])
        db = os.path.join(work, "pair.sqlite")
        code, err = run(binary, ["ingest", "--db", db, "--quiet"] + files)
        rec = {"scenario": scenario, "shape": shape, "pair": index, "seed": pair_seed,
               "planted": planted, "exits": {}, "errors": {}}
        if code != 0:
            rec["errors"]["ingest"] = "exit %d: %s" % (code, err)
            return rec
        for name, argv in gate_commands(db).items():
            code, err = run(binary, argv)
            rec["exits"][name] = code
            if code not in (0, 1):
                rec["errors"][name] = "exit %d: %s" % (code, err)
        return rec
    finally:
        if keep:
            dest = os.path.join(keep, "%s-%s-%03d" % (scenario, shape, index))
            shutil.rmtree(dest, ignore_errors=True)
            shutil.copytree(work, dest)
        shutil.rmtree(work, ignore_errors=True)


# ---------------------------------------------------------------------------
# scoring and output
# ---------------------------------------------------------------------------

def gate_runs(rec):
    """(gate row, exit code) of a pair: compare on the planted platform is `compare`; on the
    untouched one it is a false-alarm run (`same` counts both platforms as `compare`)."""
    ex = rec["exits"]
    out = []
    for name, code in ex.items():
        gate = name
        if name.startswith("compare_"):
            untouched = rec["scenario"] != "same" and name != "compare_" + PLANTED_ON
            gate = "compare_untouched" if untouched else "compare"
        out.append((gate, code))
    return out


def judged(scenario, gate):
    if gate == "compare_untouched":
        return "false_alarm"
    return JUDGES[scenario][gate]


def tabulate(records):
    """Rows per gate x scenario x shape: runs, exits 1, exits 2 (usage errors), rate, goal."""
    rows = {}
    for rec in records:
        for gate, code in gate_runs(rec):
            key = (gate, rec["scenario"], rec["shape"])
            r = rows.setdefault(key, {"gate": gate, "scenario": rec["scenario"],
                                      "shape": rec["shape"], "runs": 0, "exit1": 0,
                                      "exit2": 0, "other": 0})
            r["runs"] += 1
            if code != 0:
                r["exit1" if code == 1 else "exit2" if code == 2 else "other"] += 1
    out = []
    for key in sorted(rows, key=lambda k: (SCENARIOS.index(k[1]), SHAPES.index(k[2]),
                                            GATES.index(k[0]))):
        r = rows[key]
        r["judged"] = judged(r["scenario"], r["gate"])
        r["rate"] = r["exit1"] / r["runs"] if r["runs"] else None
        goal = GOALS.get(r["judged"])
        r["goal"] = goal
        if goal is None:
            r["verdict"] = "not judged"
        elif r["exit2"] or r["other"]:
            r["verdict"] = "ERROR"
        elif r["judged"] == "false_alarm":
            r["verdict"] = "MET" if r["rate"] <= goal else "MISSED"
        else:
            r["verdict"] = "MET" if r["rate"] >= goal else "MISSED"
        out.append(r)
    return out


def render(rows):
    head = "%-17s %-11s %-7s %-11s %5s %6s %6s %7s %8s  %s" % (
        "gate", "scenario", "loads", "judged as", "runs", "exit 1", "exit 2", "rate", "goal",
        "verdict")
    lines = [head, "-" * len(head)]
    for r in rows:
        kind = {"false_alarm": "false alarm", "detect": "detection"}.get(r["judged"], "-")
        goal = ("<= %d%%" % round(r["goal"] * 100) if r["judged"] == "false_alarm" else
                ">= %d%%" % round(r["goal"] * 100) if r["judged"] == "detect" else "")
        verdict = r["verdict"] if r["goal"] is not None else "not judged (below)"
        lines.append("%-17s %-11s %-7s %-11s %5d %6d %6d %6.1f%% %8s  %s" % (
            r["gate"], r["scenario"], r["shape"], kind, r["runs"], r["exit1"],
            r["exit2"] + r["other"], 100 * r["rate"], goal, verdict))
    reasons = sorted(set((r["gate"], r["scenario"], r["judged"]) for r in rows
                         if r["goal"] is None))
    if reasons:
        lines.append("\nNot judged (exits counted, not scored):")
        lines += ["  %s on %s: %s" % x for x in reasons]
    return "\n".join(lines)


MD_COLUMNS = (("compare", "`compare` (ios; both in `same`)"),
              ("compare_untouched", "`compare` (pwa, untouched: false alarms ≤ 5 %)"),
              ("report", "`report --check`"), ("qa", "`qa`"))


def render_markdown(rows):
    """The figures table of docs/verdicts.md: a row per scenario and load shape, a cell per gate
    (exits 1 / runs, the rate, and MET or MISSED against the row's goal)."""
    by = {(r["scenario"], r["shape"], r["gate"]): r for r in rows}
    out = ["| scenario | loads | goal | %s |" % " | ".join(c[1] for c in MD_COLUMNS),
           "|---|---|---|%s" % ("---|" * len(MD_COLUMNS))]
    for scenario in SCENARIOS:
        for shape in SHAPES:
            cells = [md_cell(by.get((scenario, shape, g))) for g, _ in MD_COLUMNS]
            if any(c != "" for c in cells):
                goal = "false alarms ≤ 5 %" if scenario == "same" else "detection ≥ 90 %"
                out.append("| `%s` | %s | %s | %s |" % (scenario, shape, goal, " | ".join(cells)))
    return "\n".join(out)


def md_cell(r):
    if r is None:
        return ""
    figure = "%d/%d = %.1f %%" % (r["exit1"], r["runs"], 100 * r["rate"])
    if r["goal"] is None:
        return "(%s) not judged" % figure
    return "%s **%s**" % (figure, r["verdict"])


def jobs_for(a):
    out = []
    for scenario in a.scenarios:
        n = a.pairs if a.pairs is not None else (100 if scenario == "same" else 20)
        for shape in a.shapes:
            out += [(a.binary, scenario, shape, i, a.seed, a.sessions, a.planting, a.keep)
                    for i in range(n)]
    return out


def measure(a):
    """Runs every pair (at most a.jobs at once); returns the records in job order."""
    jobs = jobs_for(a)
    if a.jobs <= 1:
        return progress(map(run_pair, jobs), len(jobs))
    with ProcessPoolExecutor(max_workers=a.jobs) as pool:
        return progress(pool.map(run_pair, jobs), len(jobs))


def progress(records, total):
    """Collects the records, saying on stderr how far a long run is, every 10 % of it."""
    out = []
    step = max(1, total // 10)
    for rec in records:
        out.append(rec)
        if len(out) % step == 0 and total >= 20:
            sys.stderr.write("%d of %d pairs judged\n" % (len(out), total))
    return out


def report_errors(records):
    """Usage errors and failed ingests are not detections: say each one loudly."""
    bad = [(r, g, e) for r in records for g, e in r["errors"].items()]
    for r, g, e in bad:
        sys.stderr.write("ERROR %s %s pair %d (%s): %s\n" % (r["scenario"], r["shape"], r["pair"],
                                                           g, e))
    return len(bad)


def default_binary():
    return os.environ.get("PULLPARITY_BIN") or os.path.join(REPO, ".build", "release",
                                                            "pullparity")


def parse(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--pairs", type=int, default=None,
                    help="pairs per scenario and load shape (default: 100 same, 20 planted)")
    ap.add_argument("--sessions", type=int, default=500, help="sessions per version and platform")
    ap.add_argument("--seed", default="1")
    ap.add_argument("--binary", default=default_binary(),
                    help="pullparity (default: $PULLPARITY_BIN, else .build/release/pullparity)")
    ap.add_argument("--jobs", type=int, default=2, help="pairs judged at once (at most 2)")
    ap.add_argument("--planting", choices=["exact", "binomial"], default="exact")
    ap.add_argument("--scenarios", default=",".join(SCENARIOS))
    ap.add_argument("--shapes", default=",".join(SHAPES))
    ap.add_argument("--keep", default=None, help="keep each pair's logs and database here")
    out = ap.add_mutually_exclusive_group()
    out.add_argument("--json", action="store_true", help="print JSON instead of the table")
    out.add_argument("--markdown", action="store_true",
                     help="print docs/verdicts.md's figures table instead of the table")
    a = ap.parse_args(argv)
    a.scenarios = a.scenarios.split(",")
    a.shapes = a.shapes.split(",")
    if not set(a.scenarios) <= set(SCENARIOS) or not set(a.shapes) <= set(SHAPES):
        ap.error("scenarios are %s; shapes %s" % (", ".join(SCENARIOS), ", ".join(SHAPES)))
    if not 1 <= a.jobs <= 2:
        ap.error("--jobs must be 1 or 2 (the machine is shared)")
    if not os.access(a.binary, os.X_OK):
        ap.error("no pullparity binary at %s (build it, or pass --binary)" % a.binary)
    if a.keep:
        os.makedirs(a.keep, exist_ok=True)
    return a


def main(argv=None):
    a = parse(argv)
    began = time.time()
    records = measure(a)
    rows = tabulate(records)
    errors = report_errors(records)
    settings = {"binary": a.binary, "seed": a.seed, "sessions": a.sessions,
                "planting": a.planting, "pairs": a.pairs, "jobs": a.jobs,
                "seconds": round(time.time() - began, 1)}
    if a.json:
        json.dump({"settings": settings, "rows": rows, "pairs": records}, sys.stdout, indent=1)
        sys.stdout.write("\n")
    elif a.markdown:
        print(render_markdown(rows))
    else:
        print(render(rows))
        print("\n%(sessions)d sessions per version and platform, planting %(planting)s, "
              "seed %(seed)s, %(seconds).0f s" % settings)
    if errors:
        sys.stderr.write("%d gate runs or ingests failed to run (exit 2 or worse): the figures "
                         "above do not count them as detections\n" % errors)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
