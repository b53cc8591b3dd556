#!/usr/bin/env python3
"""How long the dashboard's pages take on a database: starts dashboards/serve.sh on it (loopback),
then fetches each view's default HTML page, each canned query's page and each panel's query as
the dashboard fetches it, and prints the seconds (best and worst of --runs), or that Datasette
refused it (its 5 s time limit). A measurement to read, not a test: nothing here passes or fails.

    python3 scripts/generate_events.py bench --events 1000000 --seed 7 --day 0 --out 1m.jsonl
    pullparity ingest --db 1m.sqlite 1m.jsonl
    python3 dashboards/bench.py 1m.sqlite
"""

import argparse
import os
import signal
import socket
import sqlite3
import subprocess
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import yaml
from datasette_dashboards import replace_opts_in_query

HERE = Path(__file__).resolve().parent
VIEWS = ["daily_parity", "violation_counts", "percentile_inputs", "session_violations", "quarantine_summary"]
# The tables the dashboard lists too; each default page counts its rows.
TABLES = ["sessions", "violations", "gate_verdicts", "metric_percentiles", "quarantine"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def fetch_seconds(url: str) -> float:
    start = time.perf_counter()
    with urllib.request.urlopen(url, timeout=120) as response:
        response.read()
    return time.perf_counter() - start


def timed(url: str, runs: int) -> str:
    """Best and worst seconds of `runs` fetches, or why Datasette refused (its time limit)."""
    try:
        times = [fetch_seconds(url) for _ in range(runs)]
    except urllib.error.HTTPError as error:
        body = error.read().decode("utf-8", "replace")
        reason = "the time limit" if "too long" in body else body[:60]
        return f"{'failed':>8} {'':8}   HTTP {error.code}: {reason}"
    return f"{min(times):8.3f} {max(times):8.3f}"


def targets(base: str, name: str, panels: dict, session_id: str | None, app: str) -> list[tuple[str, str]]:
    """Every page and query, the panels twice: for the app the page opens on, and for every app."""
    out = [(f"view {v}", f"{base}/{name}/{v}") for v in VIEWS]
    out += [(f"table {t}", f"{base}/{name}/{t}") for t in TABLES]
    for query in panels["queries"]:
        params = {"session_id": session_id or ""} if query == "session_findings" else {"app": app}
        out.append((f"canned {query}", f"{base}/{name}/{query}?{urllib.parse.urlencode(params)}"))
    out.append(("dashboard page (redirected to one app)", f"{base}/-/dashboards/parity"))
    for slug, chart in panels["dashboards"]["parity"]["charts"].items():
        for label, options in ((app, {"app": app}), ("every app", {})):
            sql = replace_opts_in_query(chart["query"], options)
            query = urllib.parse.urlencode({"sql": sql, **options, "_shape": "objects"})
            out.append((f"panel {slug} ({label})", f"{base}/{name}.json?{query}"))
    return out


def wait_until_up(base: str, process: subprocess.Popen) -> None:
    for _ in range(600):
        try:
            fetch_seconds(base + "/-/versions.json")
            return
        except OSError:
            if process.poll() is not None:
                raise SystemExit("serve.sh ended before answering")
            time.sleep(0.1)
    raise SystemExit("serve.sh did not answer within 60 s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("database", type=Path)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--session-id", help="session for the session_findings query (default: the last one)")
    args = parser.parse_args()
    panels = yaml.safe_load((HERE / "panels.yaml").read_text(encoding="utf-8"))
    session_id = args.session_id or last_session_id(args.database)
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    process = subprocess.Popen([str(HERE / "serve.sh"), str(args.database), "--port", str(port)],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        wait_until_up(base, process)
        print(f"{'page or query':50} {'best s':>8} {'worst s':>8}   ({args.runs} runs, {args.database})")
        for label, url in targets(base, args.database.stem, panels, session_id, busiest_app(args.database)):
            print(f"{label:50} {timed(url, args.runs)}", flush=True)
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=30)


def busiest_app(db: Path) -> str:
    """The app the dashboard opens on (serve.sh's choice)."""
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
        return conn.execute("SELECT app FROM gate_verdicts GROUP BY app ORDER BY sum(sessions) DESC, app LIMIT 1").fetchone()[0]


def last_session_id(db: Path) -> str:
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
        return conn.execute("SELECT session_id FROM sessions ORDER BY session_ref DESC LIMIT 1").fetchone()[0]


if __name__ == "__main__":
    main()
