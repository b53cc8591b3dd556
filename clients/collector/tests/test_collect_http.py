"""`pullparity collect` over real HTTP: bodies kept byte for byte and acknowledged once spooled,
413 above the limit, CORS only for listed origins, the bearer token, health, and SIGTERM."""

import json
import socket
import time

import pytest

from collector_process import CollectorProcess, closed_files, spooled


@pytest.fixture
def spool(tmp_path):
    return tmp_path / "spool"


def test_bodies_are_kept_byte_for_byte_and_closed_on_sigterm(pullparity_bin, spool):
    bodies = [b'{"event_id":"a"}\n{"event_id":"b"}\n', b'{"event_id":"c"}', b"not json \xff at all\n"]
    with CollectorProcess(pullparity_bin, spool) as collector:
        assert [collector.post(body) for body in bodies] == [204, 204, 204]
        # The open file is hidden until it is closed.
        assert closed_files(spool) == [] and (spool / ".open.jsonl").exists()
        assert collector.stop() == 0
    assert spooled(spool) == b'{"event_id":"a"}\n{"event_id":"b"}\n{"event_id":"c"}\nnot json \xff at all\n'
    assert not (spool / ".open.jsonl").exists()


def test_health_answers_with_the_spool_counts(pullparity_bin, spool):
    with CollectorProcess(pullparity_bin, spool) as collector:
        collector.post(b"x\n")
        status, headers, body = collector.request("GET", "/health")
    assert status == 200 and headers["content-type"] == "application/json"
    health = json.loads(body)
    assert health["status"] == "ok" and health["bodies"] == 1 and health["bytes"] == 2 and health["syncs"] >= 1


def test_a_body_over_the_limit_gets_413_and_nothing_is_kept(pullparity_bin, spool):
    with CollectorProcess(pullparity_bin, spool, "--max-body-bytes", "100") as collector:
        assert collector.post(b"y" * 99 + b"\n") == 204
        assert collector.post(b"z" * 101) == 413
        assert collector.stop() == 0
    assert spooled(spool) == b"y" * 99 + b"\n"


def test_the_default_limit_takes_the_web_sinks_largest_bodies(pullparity_bin, spool):
    batch = (b'{"pad":"' + b"p" * 290 + b'"}\n') * 200  # 60,000 bytes: the sink's budget
    long_line = b'{"pad":"' + b"q" * 200_000 + b'"}\n'  # one line over budget, sent alone
    with CollectorProcess(pullparity_bin, spool) as collector:
        assert collector.post(batch) == 204
        assert collector.post(long_line) == 204
        collector.stop()
    assert spooled(spool) == batch + long_line


ORIGIN = "http://app.test:8000"


def preflight(collector, origin):
    return collector.request("OPTIONS", "/events", headers={
        "Origin": origin, "Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "content-type"})


def test_cors_is_granted_to_listed_origins_only(pullparity_bin, spool):
    with CollectorProcess(pullparity_bin, spool, "--allow-origin", ORIGIN, "--allow-origin", "http://other.test") as c:
        status, headers, _ = preflight(c, ORIGIN)
        assert status == 204 and headers["access-control-allow-origin"] == ORIGIN
        assert "POST" in headers["access-control-allow-methods"]
        status, headers, _ = c.request("POST", "/events", b"a\n", {"Origin": ORIGIN, "Content-Type": "text/plain"})
        assert status == 204 and headers["access-control-allow-origin"] == ORIGIN

        status, headers, _ = preflight(c, "http://evil.test")
        assert status != 204 and "access-control-allow-origin" not in headers
        status, headers, _ = c.request("POST", "/events", b"b\n", {"Origin": "http://evil.test"})
        assert "access-control-allow-origin" not in headers


@pytest.mark.parametrize("how", ["file", "environment"])
def test_a_token_is_required_when_configured(pullparity_bin, spool, tmp_path, how):
    token = "s3cret-token"
    if how == "file":
        (tmp_path / "token").write_text(token + "\n")
        collector = CollectorProcess(pullparity_bin, spool, "--token-file", str(tmp_path / "token"),
                                     "--allow-origin", ORIGIN)
    else:
        collector = CollectorProcess(pullparity_bin, spool, "--allow-origin", ORIGIN,
                                     env={"PULLPARITY_COLLECT_TOKEN": token})
    with collector:
        assert token not in " ".join(collector.process.args)
        assert collector.post(b"no token\n") == 401
        assert collector.post(b"wrong\n", Authorization="Bearer s3cret-tokeN") == 401
        assert collector.post(b"right\n", Authorization=f"Bearer {token}") == 204
        # A browser's preflight carries no credentials and is still answered.
        assert preflight(collector, ORIGIN)[0] == 204
        assert collector.request("GET", "/health")[0] == 200
        collector.stop()
    assert spooled(spool) == b"right\n"


def test_sigterm_lets_a_request_in_flight_finish(pullparity_bin, spool):
    body = b'{"event_id":"in-flight"}\n'
    with CollectorProcess(pullparity_bin, spool) as collector:
        client = socket.create_connection(("127.0.0.1", collector.port), timeout=10)
        client.sendall(b"POST /events HTTP/1.1\r\nHost: x\r\nContent-Length: %d\r\n\r\n" % len(body) + body[:5])
        time.sleep(0.3)
        collector.process.send_signal(15)
        time.sleep(0.5)
        assert collector.process.poll() is None, "exited with a request in flight"
        client.sendall(body[5:])
        answer = client.recv(4096)
        client.close()
        assert answer.startswith(b"HTTP/1.1 204")
        assert collector.process.wait(timeout=30) == 0
    assert spooled(spool) == body
