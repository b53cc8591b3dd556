"""A run directory (summary.json and json/ tables) for `pullparity load`, made from `decode`
and `derive` without Spark, for spark/bench-load.sh when the Spark job is too slow to run on the
machine at hand: the tables the job writes with --json-for-load, but without its deduplication
(every event is kept: the bench log has no duplicate ids) and with each session derived alone
(load judges across sessions anyway). Not for equivalence: spark/tests run the job itself.
usage: python3 spark/bench_run_without_spark.py BIN LOG OUT   (LOG named as ingest is given it)"""
import json
import os
import subprocess
import sys

binary, log, out = sys.argv[1:4]
fields = ["kind", "source", "offset", "line", "event_id", "session_id", "ts_ms", "seq", "type", "platform", "app",
          "category", "reason", "raw_hex", "raw"]
tsv = os.path.join(out, "input.tsv")
os.makedirs(out, exist_ok=True)
with open(log, "rb") as src, open(tsv, "wb") as dst:
    offset = 0
    for number, line in enumerate(src, 1):
        body = line.rstrip(b"\n")
        dst.write(log.encode() + b"\t%d\t%d\t" % (offset, number) + body + b"\n")
        offset += len(line)
decoded = subprocess.run([binary, "decode"], stdin=open(tsv, "rb"), capture_output=True, check=True).stdout


def text(value):
    if value.startswith("~"):
        import base64
        return base64.b64decode(value[1:]).decode("utf-8")
    return value


tables = {name: [] for name in ["events", "sessions", "violations", "quarantine", "profiles"]}
events_by_session = {}
lines = blank = 0
for raw_line in decoded.decode("utf-8").split("\n"):
    if not raw_line:
        continue
    lines += 1
    row = dict(zip(fields, raw_line.split("\t", 14)))
    if row["kind"] == "blank":
        blank += 1
        continue
    if row["kind"] == "event":
        event = {"event_id": text(row["event_id"]), "session_id": text(row["session_id"]),
                 "ts_ms": float(row["ts_ms"]), "seq": int(row["seq"]) if row["seq"] else None,
                 "platform": text(row["platform"]), "app": text(row["app"]), "type": text(row["type"]),
                 "source": text(row["source"]), "line": int(row["line"]), "byte_offset": int(row["offset"]),
                 "raw": text(row["raw"])}
        tables["events"].append(event)
        events_by_session.setdefault(event["session_id"], []).append(
            f"{event['source']}\t{event['byte_offset']}\t{event['line']}\t{event['raw']}")
    else:
        tables["quarantine"].append({"source": text(row["source"]), "line": int(row["line"]),
                                     "byte_offset": int(row["offset"]), "category": text(row["category"]),
                                     "reason": text(row["reason"]), "raw": text(row["raw"]) if row["raw"] else None,
                                     "raw_hex": row["raw_hex"] or None, "event_id": None})
tables["events"].sort(key=lambda e: e["session_id"])  # grouped by session, as the job writes them
grouped = "".join(line + "\n" for lines_ in events_by_session.values() for line in lines_)
derived = subprocess.run([binary, "derive"], input=grouped.encode(), capture_output=True, check=True).stdout
for line in derived.decode("utf-8").splitlines():
    item = json.loads(line)
    tables[item["table"]].append(item["row"])
for name, rows in tables.items():
    os.makedirs(os.path.join(out, "json", name), exist_ok=True)
    with open(os.path.join(out, "json", name, "part-00000.json"), "w", encoding="utf-8") as handle:
        for row in rows:
            handle.write(json.dumps(row, ensure_ascii=False, separators=(",", ":")) + "\n")
summary = {"format": "pullparity-run", "format_version": 1, "sources": [log], "lines_read": lines,
           "blank_lines": blank, "events_stored": len(tables["events"]), "duplicates": 0, "conflicts": 0,
           "quarantined": len(tables["quarantine"]), "already_quarantined": 0,
           "sessions_derived": len(tables["sessions"]), "tool_version": "bench", "engine": "decode+derive"}
with open(os.path.join(out, "summary.json"), "w") as handle:
    json.dump(summary, handle)
os.remove(tsv)
