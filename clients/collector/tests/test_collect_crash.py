"""kill -9 in the middle of a load, then a restart: every body the collector acknowledged is in
the spool, and no torn line is."""

import http.client
import threading
import time

from collector_process import CollectorProcess, spooled

CLIENTS = 8
LINES_PER_BODY = 20


def body(client: int, number: int) -> bytes:
    return b"".join(b'{"event_id":"c%d-b%d-l%d"}\n' % (client, number, line) for line in range(LINES_PER_BODY))


class LoadClient(threading.Thread):
    """Posts numbered bodies on one keep-alive connection until the collector goes away,
    remembering which were acknowledged (a 2xx)."""

    def __init__(self, port: int, number: int, stop: threading.Event):
        super().__init__(daemon=True)
        self.port, self.number, self.stop = port, number, stop
        self.sent: list[bytes] = []
        self.acknowledged: list[bytes] = []

    def run(self) -> None:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        for number in range(1_000_000):
            if self.stop.is_set():
                return
            payload = body(self.number, number)
            self.sent.append(payload)
            try:
                connection.request("POST", "/events", payload, {"Content-Type": "text/plain;charset=UTF-8"})
                response = connection.getresponse()
                response.read()
            except OSError:
                return  # killed: this body's fate is unknown, so it is not counted as acknowledged
            except http.client.HTTPException:
                return
            if 200 <= response.status < 300:
                self.acknowledged.append(payload)


def test_kill_9_mid_load_loses_no_acknowledged_line(pullparity_bin, tmp_path):
    spool = tmp_path / "spool"
    # Small files: rotations happen under load too.
    collector = CollectorProcess(pullparity_bin, spool, "--rotate-bytes", "200000").start()
    stop = threading.Event()
    clients = [LoadClient(collector.port, n, stop) for n in range(CLIENTS)]
    for client in clients:
        client.start()
    time.sleep(2)
    collector.kill()
    stop.set()
    for client in clients:
        client.join(timeout=20)

    assert (spool / ".open.jsonl").exists(), "the kill left no open file to recover"
    with CollectorProcess(pullparity_bin, spool) as restarted:
        assert restarted.stop() == 0
        assert "Closed the spool file a previous run left open" in restarted.stderr()
    lines = spooled(spool).split(b"\n")
    assert lines[-1] == b"", "the spool ends with a complete line"
    found = set(lines[:-1])
    sent = {line for client in clients for payload in client.sent for line in payload.split(b"\n") if line}
    acknowledged = [payload for client in clients for payload in client.acknowledged]
    acknowledged_lines = {line for payload in acknowledged for line in payload.split(b"\n") if line}
    assert len(acknowledged) > 100, "the load did not get going before the kill"
    assert acknowledged_lines <= found, f"{len(acknowledged_lines - found)} acknowledged lines lost"
    assert found <= sent, "a line in the spool that no client sent (a torn line?)"
    assert len(found) == len(lines) - 1, "a line stored twice"
    print(f"\nkill -9 after 2 s of {CLIENTS} clients: {len(acknowledged)} bodies "
          f"({len(acknowledged_lines)} lines) acknowledged, {len(found)} lines found, "
          f"{len(found - acknowledged_lines)} found but unacknowledged (in flight at the kill)")
