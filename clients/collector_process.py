"""Starts the real `pullparity collect` on a free loopback port and talks HTTP to it."""

import http.client
import os
import re
import resource
import signal
import subprocess
import time
from pathlib import Path


class CollectorProcess:
    """`pullparity collect --listen 127.0.0.1:0 --spool SPOOL ...`, its port read from the line it
    prints once it listens. `stop()` sends SIGTERM and returns the exit code; `kill()` is kill -9."""

    def __init__(self, binary: Path, spool: Path, *args: str, env: dict | None = None,
                 file_size_limit: int | None = None):
        self.binary = binary
        self.spool = spool
        self.args = args
        self.env = env
        # Files may grow to this many bytes at most, a write past it failing as on a full disk.
        self.file_size_limit = file_size_limit
        self.process: subprocess.Popen | None = None
        self.port = 0

    def _limit_files(self) -> None:
        if self.file_size_limit is not None:
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # else the write past it kills
            resource.setrlimit(resource.RLIMIT_FSIZE, (self.file_size_limit, self.file_size_limit))

    def start(self) -> "CollectorProcess":
        command = [str(self.binary), "collect", "--listen", "127.0.0.1:0", "--spool", str(self.spool), *self.args]
        self.process = subprocess.Popen(
            command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            env={**os.environ, **(self.env or {})}, preexec_fn=self._limit_files)
        line = self.process.stdout.readline()
        match = re.search(r"http://127\.0\.0\.1:(\d+)/events", line)
        if not match:
            self.process.kill()
            raise AssertionError(f"collect did not start: {line!r}\n{self.process.stderr.read()}")
        self.port = int(match.group(1))
        return self

    def __enter__(self) -> "CollectorProcess":
        return self.start()

    def __exit__(self, *exc) -> None:
        if self.process and self.process.poll() is None:
            self.process.kill()
            self.process.wait()

    def stop(self, timeout: float = 30) -> int:
        self.process.send_signal(signal.SIGTERM)
        return self.process.wait(timeout=timeout)

    def kill(self) -> None:
        self.process.send_signal(signal.SIGKILL)
        self.process.wait()

    def stderr(self) -> str:
        return self.process.stderr.read()

    def request(self, method: str, path: str, body: bytes | None = None, headers: dict | None = None,
                timeout: float = 10) -> tuple[int, dict, bytes]:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        try:
            connection.request(method, path, body=body, headers=headers or {})
            response = connection.getresponse()
            return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()
        finally:
            connection.close()

    def post(self, body: bytes, **headers: str) -> int:
        return self.request("POST", "/events", body, {"Content-Type": "text/plain;charset=UTF-8", **headers})[0]


def closed_files(spool: Path) -> list[Path]:
    """The closed spool files, in the order ingest reads them (Python's glob, unlike ingest,
    matches the hidden open file)."""
    return sorted(path for path in spool.glob("*.jsonl") if not path.name.startswith("."))


def spooled(spool: Path) -> bytes:
    """Every closed spool file's bytes, in order."""
    return b"".join(path.read_bytes() for path in closed_files(spool))


def wait_until(condition, timeout: float = 20, what: str = "condition") -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.05)
