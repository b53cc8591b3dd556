"""A local HTTP server for the browser tests: serves clients/web and collects what the page's
recorder POSTs to /events, with failures planted on demand (refused POSTs, an outage, a request
held in flight) that the recorder's retries must survive. Real delivery goes to `pullparity
collect` (docs/collector.md; test_reference_pwa.py drives the page into one)."""

import http.server
import sys
import threading
from pathlib import Path

WEB_ROOT = Path(__file__).resolve().parents[1]


class EventServer:
    """Serves `WEB_ROOT` on a random local port from a thread. POST /events appends the body's
    lines to `log_path`; the first `fail_posts` POSTs are answered 503 (their bodies are kept in
    `failed_bodies`) so a test can prove the recorder sends a failed batch again, and every POST
    is answered 503 while `down` is set (a collector that is unreachable for a while); while
    `answering` is clear, POSTs wait for it (a request stays in flight).
    `requests` lists every POST and OPTIONS as (method, Content-Type, body bytes, status). With
    `cors`, POST answers allow any origin, as a collector on another origin must for the page
    to read them; it never answers a preflight (OPTIONS gets 405), so only a simple request
    gets through."""

    def __init__(self, log_path: Path, fail_posts: int = 0, cors: bool = False):
        self.log_path = log_path
        self.fail_posts = fail_posts
        self.cors = cors
        self.down = False
        self.answering = threading.Event()
        self.answering.set()
        self.failed_bodies: list[str] = []
        self.requests: list[tuple[str, str, int, int]] = []
        self.accepted_posts = 0
        self.lock = threading.Lock()
        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        # A short poll interval: shutdown() waits for it, and each test stops a server.
        self.thread = threading.Thread(target=self.httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}"

    def __enter__(self) -> "EventServer":
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()

    def lines(self) -> list[str]:
        with self.lock:
            if not self.log_path.exists():
                return []
            return self.log_path.read_text(encoding="utf-8").splitlines()

    def receive(self, body: str) -> bool:
        """Stores `body`, or refuses it while failures are still planned or the server is down."""
        with self.lock:
            if self.down:
                return False
            if self.fail_posts > 0:
                self.fail_posts -= 1
                self.failed_bodies.append(body)
                return False
            with self.log_path.open("a", encoding="utf-8") as log:
                log.write(body if body.endswith("\n") else body + "\n")
            self.accepted_posts += 1
            return True

    def _handler(self):
        server = self

        class Handler(http.server.SimpleHTTPRequestHandler):
            def __init__(self, *args, **kwargs):
                super().__init__(*args, directory=str(WEB_ROOT), **kwargs)

            def do_POST(self):
                if self.path != "/events":
                    self.send_error(404)
                    return
                length = int(self.headers.get("Content-Length", "0"))
                body = self.rfile.read(length).decode("utf-8")
                server.answering.wait(timeout=30)
                status = 204 if server.receive(body) else 503
                self.record(status, length)
                self.send_response(status)
                if server.cors:
                    self.send_header("Access-Control-Allow-Origin", "*")
                self.send_header("Content-Length", "0")
                self.end_headers()

            def do_OPTIONS(self):
                self.record(405, 0)
                self.send_error(405)

            def record(self, status: int, length: int) -> None:
                with server.lock:
                    server.requests.append((self.command, self.headers.get("Content-Type", ""), length, status))

            def end_headers(self):
                # Every test run must load the page's current files.
                self.send_header("Cache-Control", "no-store")
                super().end_headers()

            def log_message(self, *args):
                pass

        return Handler

