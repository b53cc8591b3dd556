"""A three-day chaos log, one file per day as a collector would cut it (docs/distributed-formats.md,
"Daily runs"): each line in the file of the day it arrived, which is its event's UTC day but for
what a daily run must handle across days. Deterministic for a seed:

- sessions that span midnight (their events in two days' files), and one whose events reach the
  day after next;
- events re-sent the next day: the same bytes (a duplicate) and other bytes (a conflict), and one
  event_id under another session_id the next day;
- late events: one of a session the day before wholly holds, and one dated a day before a
  session's first event, which moves the session to that earlier day's partition;
- bad lines, some of them again the next day (already quarantined), blank lines, duplicates and
  conflicts within a day, events out of order;
- what the rules across sessions judge with the next day's data: a stuck and a dropped refresh
  at the end of a day (the data moves past them only the next day), a refresh of an install
  repeated right after midnight, and a late refresh that makes a stored one a repeat.
"""

import json
import os
import random

from chaos import _event
from field_failure_log import Log

DAY_MS = 86_400_000
# 2026-11-23T00:00:00Z, the first day's midnight.
DAY0 = 1_795_392_000_000
DAYS = ("2026-11-23", "2026-11-24", "2026-11-25")


def day_index(ts):
    return int((ts - DAY0) // DAY_MS)


def compact(event):
    return json.dumps(event, separators=(",", ":"))


def daily_lines(seed=29):
    """(arrival day index, line) pairs, in no particular order."""
    rng = random.Random(seed)
    arrivals = []

    def arrive(line, day=None):
        arrivals.append((day_index(json.loads(line)["ts"]) if day is None else day, line))

    apps = [("padel", "pwa"), ("padel", "ios"), ("ffci", "ios"), ("phlock", "ios"), ("unknownapp", "android")]
    session_lines = {}
    for day in range(len(DAYS)):
        midnight = DAY0 + (day + 1) * DAY_MS
        for s in range(18):
            app, platform = rng.choice(apps)
            session = f"d{day}s{s:02d}"
            if s < 4 and day < len(DAYS) - 1:
                ts = midnight - rng.uniform(200, 2500)  # goes on past midnight
            else:
                ts = DAY0 + day * DAY_MS + rng.uniform(3_600_000, 20 * 3_600_000)
            lines = []
            for i in range(9):
                ts += rng.choice([0, 16.7, 33.3, 120, 700])
                lines.append(compact(_event(rng, session, app, platform, i, round(ts, 1))))
            session_lines[session] = lines
            for line in lines:
                arrive(line)
    # A session whose events reach the day after next (three files).
    for i, ts in enumerate((DAY0 + DAY_MS - 400, DAY0 + DAY_MS + 300, DAY0 + 2 * DAY_MS + 100)):
        arrive(compact(_event(rng, "three-days", "ffci", "ios", [0, 4, 8][i], ts)))
    plain = [line for _, line in arrivals]
    # Re-sent the next day: duplicates, conflicts, and one id under another session.
    earlier = [line for day, line in arrivals if day < len(DAYS) - 1]
    for line in rng.sample(earlier, 12):
        arrive(line, day_index(json.loads(line)["ts"]) + 1)
    for line in rng.sample(earlier, 6):
        event = json.loads(line)
        event["ts"] = event["ts"] + 1
        arrive(compact(event), day_index(json.loads(line)["ts"]) + 1)
    twin = json.loads(session_lines["d0s10"][0])
    twin["session_id"] = "d1-twin"
    arrive(compact(twin), 1)
    # Duplicates and conflicts within a day.
    for line in rng.sample(plain, 8):
        arrive(line)
    # Late events: one of d0s11 (wholly on day 0), one a day before d1s12's first event.
    last = json.loads(session_lines["d0s11"][-1])
    late = _event(rng, "d0s11", last["app"], last["platform"], 9, last["ts"] + 40)
    arrive(compact(late), 1)
    first = json.loads(session_lines["d1s12"][0])
    early = _event(rng, "d1s12", first["app"], first["platform"], 10, first["ts"] - DAY_MS)
    arrive(compact(early), 2)
    # Verdicts across sessions that only the next day's data gives (padel pwa, 30 s stuck window).
    log = Log()
    m1 = DAY0 + DAY_MS
    log.pull("stuck-eod", m1 - 20_000, hide=False, install="i1")
    log.pull("dropped-eod", m1 - 600, refresh=False, install="i2")  # released at m1 - 190
    log.refresh("rep-before", m1 - 700, install="i3")  # hidden at m1 + 610: rep-after starts while it runs
    log.refresh("rep-after", m1 + 200, install="i3")
    log.refresh("late-b", m1 - 3 * 3_600_000, install="i4")
    log.pull("moves-on", m1 + 3_600_000, install="i5")
    for line in log.lines:
        arrive(line)
    late_refresh = Log()
    late_refresh.lines = ["placeholder"] * len(log.lines)  # event ids go on after the log's
    late_refresh.refresh("late-a", m1 - 3 * 3_600_000 - 1_000, install="i4")  # still running when late-b starts
    for line in late_refresh.lines[len(log.lines):]:
        arrive(line, 1)
    # Bad lines: each day its own, two of the first day's again the next day, and blank lines.
    bad = ["garbage", "{'a':1}", "[1,2]", '{"event_id":"x","session_id":"y"}', '"pull_start"']
    for day in range(len(DAYS)):
        for line in [bad[day], f"not json on day {day}", ""]:
            arrive(line, day)
    for line in bad[:2]:
        arrive(line, 1)
    return arrivals, rng


def write_daily_logs(directory, seed=29):
    """One `DAY.jsonl` per day in `directory`; returns their names in day order."""
    arrivals, rng = daily_lines(seed)
    os.makedirs(directory, exist_ok=True)
    names = []
    for day, name in enumerate(DAYS):
        lines = [line for arrived, line in arrivals if arrived == day]
        rng.shuffle(lines)
        with open(os.path.join(directory, name + ".jsonl"), "w", encoding="utf-8") as handle:
            handle.writelines(line + "\n" for line in lines)
        names.append(name + ".jsonl")
    return names
