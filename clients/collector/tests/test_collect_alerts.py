"""`collect --alert-webhook URL`: after an ingest, an app's platform whose verdict turned to fail
is posted to the webhook once, and once more when it passes again. A receiver that fails gets the
message again after the next round; a restarted collector does not repeat what it announced.

The log is made here: sessions of an app whose profile trusts its client, clean but for ten
refreshes whose spinner never goes away (stuck once the data moves 30 s past them)."""

import json
import subprocess
import threading
import time
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from collector_process import CollectorProcess, wait_until

APP = "alerts-demo"
START_MS = 1_794_809_600_000
WINDOW_S = 600


def session(session_id: str, t0: int, stuck: bool = False) -> list[bytes]:
    steps = [("pull_start", 0, {}), ("pull_move", 16, {"distance": 10.0}), ("pull_move", 50, {"distance": 30.0}),
             ("armed", 50, {"distance": 30.0}), ("release", 100, {"distance": 40.0}), ("refresh_start", 110, {}),
             ("indicator_shown", 112, {})]
    if not stuck:
        steps += [("load_complete", 600, {"ok": True}), ("indicator_hidden", 620, {})]
    return [json.dumps({"event_id": str(uuid.uuid4()), "session_id": session_id, "ts": t0 + at, "seq": n + 1,
                        "platform": "ios", "app": APP, "type": kind, "screen": "Feed", **extra}).encode() + b"\n"
            for n, (kind, at, extra) in enumerate(steps)]


def sessions(prefix: str, count: int, first_ms: int, stuck: bool = False) -> list[bytes]:
    return [line for i in range(count) for line in session(f"{prefix}-{i}", first_ms + i * 1000, stuck)]


class Receiver:
    """A webhook on loopback: records each body it takes; answers 503 to the first `failures`."""

    def __init__(self, failures: int = 0):
        self.messages: list[dict] = []
        self.refused = 0
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers["Content-Length"]))
                assert self.headers["Content-Type"] == "application/json"
                if receiver.refused < failures:
                    receiver.refused += 1
                    self.send_response(503)
                else:
                    receiver.messages.append(json.loads(body))
                    self.send_response(200)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hook"

    def close(self):
        self.server.shutdown()
        self.server.server_close()


def post_all(collector: CollectorProcess, lines: list[bytes]) -> None:
    for start in range(0, len(lines), 300):
        assert collector.post(b"".join(lines[start:start + 300])) == 204


def metrics_text(collector):
    status, _, body = collector.request("GET", "/metrics")
    assert status == 200
    return body.decode()


def test_a_stuck_spinner_is_announced_once_when_it_fails_and_once_when_it_recovers(pullparity_bin, tmp_path):
    profiles = tmp_path / "profiles.json"
    profiles.write_text(json.dumps({"profiles": [{"name": APP, "min_hold_ms": 0}]}))
    spool, db = tmp_path / "spool", tmp_path / "collected.sqlite"
    receiver = Receiver(failures=1)
    args = ("--db", str(db), "--ingest-every", "1", "--profiles", str(profiles), "--alert-webhook", receiver.url,
            "--alert-window", str(WINDOW_S), "--alert-link", "https://dash.example/alerts?app=alerts-demo&x=<y>")
    try:
        with CollectorProcess(pullparity_bin, spool, *args) as collector:
            # 40 clean sessions, 10 stuck, then 40 more a minute later: the data moved past them.
            post_all(collector, sessions("good", 40, START_MS) + sessions("stuck", 10, START_MS + 40_000, stuck=True)
                     + sessions("late", 40, START_MS + 100_000))
            wait_until(lambda: len(receiver.messages) == 1, timeout=30, what="the failing platform's message")
            failing = receiver.messages[0]
            assert receiver.refused == 1, "the first post was refused and sent again after the next round"
            assert failing["pullparity"]["change"] == "failing"
            assert (failing["pullparity"]["app"], failing["pullparity"]["platform"]) == (APP, "ios")
            assert failing["pullparity"]["sessions"] == 90
            assert failing["pullparity"]["failing"] == ["pull: stuck_refresh 11.1% (10/90), budget 0%"]
            assert failing["text"].startswith(":red_circle: PullParity: *alerts-demo* on *ios* is failing (90 sessions):")
            assert "• pull: stuck_refresh 11.1% (10/90), budget 0%" in failing["text"]
            # The link as given in the fields, escaped for Slack's markup in the text.
            assert failing["pullparity"]["link"] == "https://dash.example/alerts?app=alerts-demo&x=<y>"
            assert "<https://dash.example/alerts?app=alerts-demo&amp;x=&lt;y&gt;|Open the report>" in failing["text"]
            assert failing["pullparity"]["command"].startswith(
                f"pullparity report --db {db} --app alerts-demo --platform ios --since 2026-11-16T")

            # Sessions beyond the window after the stuck ones, all clean: the platform passes again.
            post_all(collector, sessions("next-day", 40, START_MS + (WINDOW_S + 200) * 1000))
            wait_until(lambda: len(receiver.messages) == 2, timeout=30, what="the recovered platform's message")
            recovered = receiver.messages[1]
            assert recovered["pullparity"]["change"] == "recovered"
            assert recovered["pullparity"]["sessions"] == 40 and recovered["pullparity"]["failing"] == []
            assert recovered["text"].startswith(":large_green_circle: PullParity: *alerts-demo* on *ios* passes again")

            # What was posted, and the refused post, on /metrics. A post is counted once the receiver
            # has answered it, a moment after the receiver holds its message (CI once read /metrics
            # in between).
            recovered_counted = 'pullparity_collect_alerts_posted_total{change="recovered"} 1'
            wait_until(lambda: recovered_counted in metrics_text(collector), timeout=10,
                       what="the recovered post counted on /metrics")
            metrics = metrics_text(collector)
            assert 'pullparity_collect_alerts_posted_total{change="failing"} 1' in metrics
            assert 'pullparity_collect_alerts_posted_total{change="recovered"} 1' in metrics
            assert "pullparity_collect_alert_failures_total 1" in metrics

            # More clean sessions: rounds with new data, nothing new to say.
            post_all(collector, sessions("more", 5, START_MS + (WINDOW_S + 300) * 1000))
            wait_until(lambda: not list(spool.glob("*.jsonl")), what="the last posts to be ingested")
            assert collector.stop() == 0
        assert json.loads((spool / ".alerts.json").read_text()) == {"failing": []}

        # Failing again, then restarted: announced once, not again by the new process.
        with CollectorProcess(pullparity_bin, spool, *args) as collector:
            post_all(collector, sessions("stuck-again", 10, START_MS + (WINDOW_S + 400) * 1000, stuck=True)
                     + sessions("after", 30, START_MS + (WINDOW_S + 500) * 1000))
            wait_until(lambda: len(receiver.messages) == 3, timeout=30, what="the second failure's message")
            assert receiver.messages[2]["pullparity"]["change"] == "failing"
            assert collector.stop() == 0
        with CollectorProcess(pullparity_bin, spool, *args) as collector:
            post_all(collector, sessions("quiet", 5, START_MS + (WINDOW_S + 550) * 1000))
            wait_until(lambda: not list(spool.glob("*.jsonl")), what="the restarted collector's ingest")
            time.sleep(2.5)  # two more rounds, each of which would post a change it found
            assert collector.stop() == 0
        assert [m["pullparity"]["change"] for m in receiver.messages] == ["failing", "recovered", "failing"]
    finally:
        receiver.close()


def test_an_alert_without_a_database_or_with_a_bad_url_is_refused(pullparity_bin, tmp_path):
    for args, said in [((), "--alert-webhook needs --db"),
                       (("--db", str(tmp_path / "x.sqlite")), "is not an http or https URL")]:
        url = "http://127.0.0.1:9/hook" if not args else "ftp://example/hook"
        result = subprocess.run([str(pullparity_bin), "collect", "--spool", str(tmp_path / "spool"),
                                 "--alert-webhook", url, *args], capture_output=True, text=True, timeout=30)
        assert result.returncode == 2 and said in result.stderr, result.stderr
