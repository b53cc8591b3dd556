"""A chaos log split across files: duplicates within and across files, conflicting versions in
other files, bad lines, blank and CRLF lines, events out of order, one event_id under two
session_ids, a gzip part and a line that is not UTF-8. Deterministic for a seed."""

import gzip
import json
import os
import random


def _event(rng, session, app, platform, index, ts):
    types = ["pull_start", "pull_move", "pull_move", "release", "refresh_start", "indicator_shown",
             "fetch_start", "load_complete", "indicator_hidden"]
    typ = types[index % len(types)]
    event = {"event_id": f"{session}-e{index}", "session_id": session, "ts": ts, "platform": platform,
             "app": app, "type": typ}
    if typ in ("pull_move", "release"):
        event["distance"] = round(rng.uniform(5, 60), 1)
    if typ == "load_complete":
        event["ok"] = rng.random() > 0.2
    if index % 4 == 0:
        event["seq"] = index
    return event


def write_chaos(directory, seed=11, sessions=60):
    rng = random.Random(seed)
    os.makedirs(directory, exist_ok=True)
    lines = []
    for s in range(sessions):
        app, platform = rng.choice([("padel", "pwa"), ("padel", "ios"), ("ffci", "ios"), ("phlock", "ios"),
                                    ("unknownapp", "android")])
        session = f"s{s:03d}"
        ts = 1_794_970_800_000 + s * 10_000
        for i in range(9):
            ts += rng.choice([0, 16.7, 33.3, 120, 700])
            lines.append(json.dumps(_event(rng, session, app, platform, i, ts), separators=(",", ":")))
    rng.shuffle(lines)  # out of order within and across files
    bad = ["garbage", "{'a':1}", "[1,2]", '{"event_id":"x","session_id":"y"}', '"pull_start"',
           '{"event_id":"z","session_id":"y","ts":"yesterday","platform":"pwa","app":"padel","type":"pull_start"}']
    # three bad lines twice: one quarantine row each, the copy counted as already quarantined
    for b in bad + bad[:3]:
        lines.insert(rng.randrange(len(lines)), b)
    # duplicates (same bytes) and conflicts (same id, other content), to land in other files
    for line in rng.sample([l for l in lines if l.startswith('{"event_id":"s')], 25):
        lines.insert(rng.randrange(len(lines)), line)
    for line in rng.sample([l for l in lines if l.startswith('{"event_id":"s')], 12):
        event = json.loads(line)
        event["ts"] = event["ts"] + 1
        lines.insert(rng.randrange(len(lines)), json.dumps(event, separators=(",", ":")))
    # the same event_id under another session_id: a conflict whose two versions shuffle apart
    twin = json.loads(lines[0]) if lines[0].startswith('{"event_id":"s') else _event(rng, "s000", "padel", "pwa", 0, 1_794_970_800_000)
    twin["session_id"] = "s999"
    lines.append(json.dumps(twin, separators=(",", ":")))
    lines.insert(5, "")
    lines.insert(9, "   ")
    parts = [lines[i::4] for i in range(4)]
    data = [("\n".join(p) + "\n").encode("utf-8") for p in parts]
    data[1] = data[1].replace(b"\n", b"\r\n", 3)
    data[2] += b'{"event_id":"bad-\xff","session_id":"s1"}\n'
    names = ["part-a.jsonl", "part-b.jsonl", "part-c.ndjson", "part-d.jsonl.gz"]
    for name, content in zip(names, data):
        path = os.path.join(directory, name)
        if name.endswith(".gz"):
            with gzip.GzipFile(path, "wb", mtime=0) as handle:
                handle.write(content)
        else:
            with open(path, "wb") as handle:
                handle.write(content)
    return directory
