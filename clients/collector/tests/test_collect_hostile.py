"""Slow or hostile clients cannot stop others: while each misbehaves, a normal POST is still
acknowledged within a few seconds, and the collector ends the misbehaving connection."""

import resource
import socket
import threading
import time

import pytest

from collector_process import CollectorProcess, spooled, wait_until

NORMAL = b'{"event_id":"normal"}\n'


def normal_post_succeeds(collector: CollectorProcess) -> None:
    """Served: answered 204 within the client's 10 s timeout (a collector that stopped serving
    fails it with a timeout; how fast it answers is the load benchmark's, not a test's)."""
    assert collector.post(NORMAL) == 204


def closed_by_server(client: socket.socket, timeout: float) -> bytes:
    """Reads until the server closes the connection; returns what it answered."""
    client.settimeout(timeout)
    answer = b""
    try:
        while chunk := client.recv(65536):
            answer += chunk
    except ConnectionResetError:
        pass
    return answer


@pytest.fixture
def collector(pullparity_bin, tmp_path):
    with CollectorProcess(pullparity_bin, tmp_path / "spool", "--request-seconds", "2", "--idle-seconds", "3",
                          "--max-body-bytes", "100000") as collector:
        yield collector


def test_a_body_dribbled_byte_by_byte_is_cut_at_the_request_deadline(collector):
    client = socket.create_connection(("127.0.0.1", collector.port))
    client.sendall(b"POST /events HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n")
    stop = threading.Event()

    def dribble():
        # A byte every 0.1 s never lets the idle timeout fire; only the request deadline can.
        for _ in range(300):
            if stop.is_set():
                return
            try:
                client.sendall(b"x")
            except OSError:
                return
            time.sleep(0.1)

    dribbler = threading.Thread(target=dribble, daemon=True)
    dribbler.start()
    normal_post_succeeds(collector)
    started = time.monotonic()
    answer = closed_by_server(client, timeout=15)
    stop.set()
    assert time.monotonic() - started < 15
    assert answer.startswith(b"HTTP/1.1 408") or answer == b""
    collector.stop()
    assert spooled(collector.spool) == NORMAL


def test_an_endless_body_is_cut_at_the_maximum(collector):
    client = socket.create_connection(("127.0.0.1", collector.port))
    client.sendall(b"POST /events HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n")
    chunk = b"%x\r\n%s\r\n" % (16384, b"e" * 16384)
    sent = 0
    answered = threading.Event()

    def endless():
        nonlocal sent
        # Bounded: 64 MiB, far past the 100,000-byte limit, unless the collector cuts it first.
        while sent < 64 << 20 and not answered.is_set():
            try:
                client.sendall(chunk)
            except OSError:
                return
            sent += len(chunk)

    sender = threading.Thread(target=endless, daemon=True)
    sender.start()
    normal_post_succeeds(collector)
    answer = closed_by_server(client, timeout=15)
    answered.set()
    sender.join(timeout=15)
    assert answer.startswith(b"HTTP/1.1 413") or answer == b""
    assert sent < 8 << 20, f"the collector read {sent} bytes of a body limited to 100,000"
    collector.stop()
    assert spooled(collector.spool) == NORMAL


def test_ten_thousand_idle_connections_time_out_while_others_are_served(collector):
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    assert hard >= 10_200, f"this machine allows {hard} open files; the test needs 10,200"
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, 10_200), hard))
    idle = []
    try:
        for _ in range(10_000):
            idle.append(socket.create_connection(("127.0.0.1", collector.port), timeout=10))
        normal_post_succeeds(collector)
        for client in idle:
            client.setblocking(False)

        def all_closed() -> bool:
            open_ones = []
            for client in idle:
                try:
                    if client.recv(1) != b"":
                        open_ones.append(client)
                except BlockingIOError:
                    open_ones.append(client)
                except ConnectionResetError:
                    pass
            idle[:] = open_ones
            return not open_ones

        # The collector's idle timeout is 3 s.
        wait_until(all_closed, timeout=60, what="the idle connections to be closed")
        normal_post_succeeds(collector)
    finally:
        for client in idle:
            client.close()
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
    collector.stop()
    assert spooled(collector.spool) == NORMAL * 2
