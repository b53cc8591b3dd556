"""The HTTP sink's delivery in real Chromium against a real collector: nothing is lost to a
page hide while the collector is down, no body exceeds the 64 KiB keepalive quota, a retry
waits and backs off, a request that never answers is aborted and retried, the queue is bounded,
an `onError` that throws changes nothing, and a collector on another origin gets POSTs without
a preflight. Where the browser's network cannot show a rule deterministically (how many POSTs a
write causes, when retries go), a fake `fetch` stands in for it."""

import json
import time

import pytest

from event_server import EventServer
from module_runner import module_runner

KEEPALIVE_QUOTA = 65_536
BUDGET = 60_000  # the sink's default byte budget per POST and per beacon


@pytest.fixture
def collector(tmp_path):
    with EventServer(tmp_path / "events.jsonl") as server:
        yield server


@pytest.fixture
def run_js(browser, collector):
    """Runs an async JS body with the recorder module as `m` on a page of `collector`'s origin."""
    browser.get(collector.url + "/")
    return module_runner(browser)


def event_lines(count: int, pad: str = "", start: int = 0) -> list[str]:
    return [json.dumps({"event_id": f"e{i}", "pad": pad}, ensure_ascii=False) for i in range(start, start + count)]


def wait_for_lines(server: EventServer, expected: list[str], timeout: float = 10) -> list[str]:
    deadline = time.monotonic() + timeout
    while not set(expected) <= set(server.lines()) and time.monotonic() < deadline:
        time.sleep(0.05)
    missing = set(expected) - set(server.lines())
    assert not missing, f"{len(missing)} of {len(expected)} lines never reached the collector"
    return server.lines()


def test_lines_outlive_a_page_hide_while_the_collector_is_down(run_js, collector):
    lines = event_lines(5)
    collector.down = True
    result = run_js("""
      const [lines] = arguments;
      const errors = [], beacons = [];
      const sink = new m.HttpEventSink('/events', { flushIntervalMs: 10, retryDelayMs: 50, maxRetryDelayMs: 200,
        onError: (e) => errors.push(String(e)),
        sendBeacon: (url, body) => { const queued = navigator.sendBeacon(url, body); beacons.push(queued); return queued; } });
      lines.forEach((line) => sink.write(line));
      await until(() => errors.length > 0);
      // The page turns hidden: the beacon is queued by the browser, and refused by the collector.
      Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' });
      document.dispatchEvent(new Event('visibilitychange', { bubbles: true }));
      delete document.visibilityState;
      return { errors: errors.length, beacons, left: sink.queue.length };
    """, lines)
    assert result["errors"] >= 1 and result["beacons"] == [True]
    assert result["left"] == 5, "the beacon took the lines out of the queue before any was acknowledged"
    refused = len([r for r in collector.requests if r[3] == 503])
    collector.down = False
    received = wait_for_lines(collector, lines)
    assert refused >= 1 and set(received) == set(lines)


def test_long_lines_go_in_bodies_the_keepalive_quota_accepts(run_js, collector):
    # 230 lines of 430-odd UTF-8 bytes (the padding is two bytes a character): 200 of them are
    # 87 KB, over the quota; and one line alone over the budget.
    lines = event_lines(230, pad="ä" * 200)
    huge = json.dumps({"event_id": "huge", "pad": "x" * 70_000})
    result = run_js("""
      const [lines, huge] = arguments;
      const errors = [];
      const sink = new m.HttpEventSink('/events', { flushIntervalMs: 10, retryDelayMs: 20, listen: false,
        onError: (e) => errors.push(String(e)) });
      lines.slice(0, 100).forEach((line) => sink.write(line));
      sink.write(huge);
      lines.slice(100).forEach((line) => sink.write(line));
      await until(() => sink.queue.length === 0);
      return { left: sink.queue.length, errors };
    """, lines, huge)
    assert result == {"left": 0, "errors": []}
    received = wait_for_lines(collector, lines + [huge])
    assert len(received) == len(lines) + 1, "a line arrived twice though every POST was acknowledged"
    sizes = [length for method, _, length, _ in collector.requests if method == "POST"]
    assert [s for s in sizes if s > BUDGET] == [len(huge) + 1], sizes
    assert max(s for s in sizes if s != len(huge) + 1) <= BUDGET <= KEEPALIVE_QUOTA


def test_the_beacon_carries_the_oldest_lines_that_fit_and_leaves_the_queue_alone(run_js):
    lines = event_lines(300, pad="ä" * 200)
    huge = json.dumps({"event_id": "huge", "pad": "x" * 70_000})
    result = run_js("""
      const [lines, huge] = arguments;
      const beacons = [];
      const sink = new m.HttpEventSink('/events', { fetch: () => new Promise(() => {}), maxBatchLines: 1000,
        sendBeacon: (url, blob) => (beacons.push(blob), true) });
      [huge, ...lines].forEach((line) => sink.write(line));
      dispatchEvent(new PageTransitionEvent('pagehide'));
      return { bodies: await Promise.all(beacons.map((b) => b.text())), sizes: beacons.map((b) => b.size),
        left: sink.queue.length };
    """, lines, huge)
    assert len(result["bodies"]) == 1 and result["sizes"][0] <= BUDGET
    body = result["bodies"][0]
    # The line too long for any beacon is skipped; the oldest of the others fill the budget.
    fitting, size = 0, 0
    while size + len((lines[fitting] + "\n").encode("utf-8")) <= BUDGET:
        size += len((lines[fitting] + "\n").encode("utf-8"))
        fitting += 1
    assert 100 < fitting < 300 and body == "".join(line + "\n" for line in lines[:fitting])
    assert result["left"] == 301


def test_the_beacon_shares_the_quota_with_a_keepalive_post_in_flight(run_js, collector):
    # Chromium refuses a beacon that would take the page's keepalive bytes in flight over 64 KiB.
    lines = event_lines(300, pad="ä" * 200)
    collector.answering.clear()
    try:
        result = run_js("""
          const [lines] = arguments;
          const beacons = [];
          const sink = new m.HttpEventSink('/events', { flushIntervalMs: 10,
            sendBeacon: (url, blob) => { const queued = navigator.sendBeacon(url, blob);
              beacons.push({ blob, queued }); return queued; } });
          lines.forEach((line) => sink.write(line));
          await until(() => sink.inFlight > 0);
          await sleep(50);  // the POST's body is on its way
          dispatchEvent(new PageTransitionEvent('pagehide'));
          return { inFlight: sink.inFlight, queued: beacons.map((b) => b.queued),
            bodies: await Promise.all(beacons.map((b) => b.blob.text())) };
        """, lines)
    finally:
        collector.answering.set()
    in_flight = result["inFlight"]
    posted = sum(len((line + "\n").encode("utf-8")) for line in lines[:in_flight])
    assert 100 < in_flight < 200 and result["queued"] == [True], result["queued"]
    beacon = result["bodies"][0]
    carried = beacon.splitlines()
    assert carried == lines[in_flight:in_flight + len(carried)] and carried
    assert posted + len(beacon.encode("utf-8")) <= KEEPALIVE_QUOTA
    wait_for_lines(collector, lines)


def test_writes_while_a_retry_waits_only_queue(run_js):
    result = run_js("""
      const posts = [];
      let online = false;
      const fetch = (url, init) => (posts.push(init.body),
        online ? Promise.resolve({ ok: true, status: 204 }) : Promise.reject(new TypeError('offline')));
      const sink = new m.HttpEventSink('/events', { fetch, maxBatchLines: 3, flushIntervalMs: 5, retryDelayMs: 60000,
        sendBeacon: () => true });
      ['a', 'b', 'c'].forEach((line) => sink.write(line));
      await sleep(10);
      for (let i = 0; i < 30; i++) { sink.write(`w${i}`); await sleep(1); }
      const whileDown = posts.length;
      // The browser says it is back online: the retry goes now, not in a minute.
      online = true;
      dispatchEvent(new Event('online'));
      await until(() => sink.queue.length === 0, 2000);
      return { whileDown, posts: posts.length, left: sink.queue.length };
    """)
    assert result["whileDown"] == 1, "writes sent POSTs while a retry was scheduled"
    assert result["left"] == 0 and result["posts"] == 1 + 11  # 33 lines, 3 a batch


def test_retries_back_off_and_reset_after_a_success(run_js):
    # The sink's timers and POSTs, in the order it makes them: each timer as the delay it asks
    # setTimeout for (the timer still runs, for that delay), each POST as whether it succeeds.
    # Nothing but the sink sets a timer while it runs: the body waits on promises the fake
    # fetch settles, not on `until`.
    result = run_js("""
      const log = [];
      const realSetTimeout = globalThis.setTimeout;
      const answers = [false, false, false, false, false, true, false, true];
      let delivered;
      const fetch = () => {
        const ok = answers.shift();
        log.push(ok ? 'post ok' : 'post fails');
        if (ok) delivered();
        return ok ? Promise.resolve({ ok: true, status: 204 }) : Promise.reject(new TypeError('offline'));
      };
      const deliveredOnce = () => new Promise((resolve) => { delivered = resolve; });
      // A macrotask: the sink has handled the answer (its promise callbacks have run).
      const settled = () => new Promise((resolve) => realSetTimeout(resolve, 0));
      globalThis.setTimeout = (callback, ms, ...rest) => (log.push(ms), realSetTimeout(callback, ms, ...rest));
      try {
        const sink = new m.HttpEventSink('/events', { fetch, flushIntervalMs: 1, retryDelayMs: 30,
          maxRetryDelayMs: 240, requestTimeoutMs: 5000, listen: false });
        let posted = deliveredOnce();
        sink.write('a');
        await posted;
        await settled();
        const afterA = sink.queue.length;
        posted = deliveredOnce();
        sink.write('b');
        await posted;
        await settled();
        return { log, afterA, left: sink.queue.length, answersLeft: answers.length };
      } finally {
        globalThis.setTimeout = realSetTimeout;
      }
    """)
    assert result["afterA"] == 0 and result["left"] == 0 and result["answersLeft"] == 0
    # The write waits the flush interval; each POST gets its timeout; each failure doubles the
    # wait, up to the maximum; a success sends nothing more (the queue is empty), and resets the
    # wait: 'b' fails once and is retried after the first delay again, not the maximum.
    timeout = 5000
    assert result["log"] == [
        1, timeout, "post fails", 30, timeout, "post fails", 60, timeout, "post fails", 120, timeout, "post fails",
        240, timeout, "post fails", 240, timeout, "post ok",
        1, timeout, "post fails", 30, timeout, "post ok"]


@pytest.mark.parametrize("fetch_honours_the_abort", [True, False], ids=["fetch-aborts", "fetch-ignores-the-signal"])
def test_a_post_that_never_answers_is_aborted_after_the_timeout_and_retried(run_js, fetch_honours_the_abort):
    # The first POST never settles by itself. Whether or not the fetch honours its signal, the
    # timeout fails the request once (a late AbortError is not a second failure) and the retry
    # carries the same lines.
    result = run_js("""
      const [honours] = arguments;
      const log = [], bodies = [], signals = [];
      const realSetTimeout = globalThis.setTimeout;
      let delivered;
      const posted = new Promise((resolve) => { delivered = resolve; });
      const fetch = (url, init) => {
        bodies.push(init.body);
        signals.push(init.signal);
        if (bodies.length === 1) {
          log.push('post hangs');
          return new Promise((resolve, reject) => {
            if (honours) init.signal.addEventListener('abort', () => reject(init.signal.reason));
          });
        }
        log.push('post ok');
        delivered();
        return Promise.resolve({ ok: true, status: 204 });
      };
      globalThis.setTimeout = (callback, ms, ...rest) => (log.push(ms), realSetTimeout(callback, ms, ...rest));
      try {
        const sink = new m.HttpEventSink('/events', { fetch, flushIntervalMs: 1, retryDelayMs: 30, requestTimeoutMs: 50,
          listen: false, onError: (e) => log.push(String(e)) });
        sink.write('a');
        sink.write('b');
        await posted;
        globalThis.setTimeout = realSetTimeout;
        await sleep(30);  // long enough for a late rejection to be (wrongly) reported
        return { log, bodies, aborted: signals.map((s) => s.aborted), left: sink.queue.length };
      } finally {
        globalThis.setTimeout = realSetTimeout;
      }
    """, fetch_honours_the_abort)
    assert result["log"] == [
        1, 50, "post hangs", "Error: PullParity sink: no answer from /events within 50 ms", 30, 50, "post ok"]
    assert result["bodies"] == ["a\nb\n", "a\nb\n"]
    assert result["aborted"] == [True, False]
    assert result["left"] == 0


def test_a_request_the_collector_holds_is_aborted_and_its_lines_arrive_with_a_retry(run_js, collector):
    lines = event_lines(3)
    collector.answering.clear()
    try:
        held = run_js("""
          const [lines] = arguments;
          window.heldErrors = [];
          window.heldSink = new m.HttpEventSink('/events', { flushIntervalMs: 10, retryDelayMs: 50, maxRetryDelayMs: 50,
            requestTimeoutMs: 300, listen: false, onError: (e) => heldErrors.push(String(e)) });
          lines.forEach((line) => heldSink.write(line));
          await until(() => heldErrors.length > 0, 5000);
          return { errors: [...heldErrors], left: heldSink.queue.length };
        """, lines)
    finally:
        collector.answering.set()
    assert held == {"errors": ["Error: PullParity sink: no answer from /events within 300 ms"], "left": 3}
    left = run_js("await until(() => heldSink.queue.length === 0, 8000); return heldSink.queue.length;")
    assert left == 0, "the sink never delivered after its first request hung"
    wait_for_lines(collector, lines)


def test_an_on_error_that_throws_stops_neither_the_writes_nor_the_retries(run_js):
    result = run_js("""
      const bodies = [];
      let failures = 1, heard = 0;
      const fetch = (url, init) => (bodies.push(init.body),
        failures-- > 0 ? Promise.reject(new TypeError('offline')) : Promise.resolve({ ok: true, status: 204 }));
      const sink = new m.HttpEventSink('/events', { fetch, flushIntervalMs: 5, retryDelayMs: 10, maxQueueLines: 2,
        listen: false, onError: () => { heard += 1; throw new Error('the handler broke'); } });
      ['a', 'b', 'c'].forEach((line) => sink.write(line));  // 'a' is dropped: the handler hears it and throws
      await until(() => sink.queue.length === 0, 2000);      // the failed POST's handler threw too
      sink.close();
      sink.write('late');                                     // refused, and the handler throws again
      return { bodies, heard, left: sink.queue.length };
    """)
    assert result == {"bodies": ["b\nc\n", "b\nc\n"], "heard": 3, "left": 0}


def test_the_queue_keeps_the_newest_lines_up_to_its_cap(run_js):
    result = run_js("""
      const bodies = [];
      let online = false;
      const fetch = (url, init) => online
        ? (bodies.push(init.body), Promise.resolve({ ok: true, status: 204 }))
        : Promise.reject(new TypeError('offline'));
      const errors = [];
      const sink = new m.HttpEventSink('/events', { fetch, maxQueueLines: 10, flushIntervalMs: 5, retryDelayMs: 10,
        maxRetryDelayMs: 10, listen: false, onError: (e) => errors.push(String(e)) });
      for (let i = 0; i < 25; i++) { sink.write(`l${i}`); if (i === 0) await sleep(20); }
      const queued = [...sink.queue], dropped = sink.dropped;
      online = true;
      await until(() => sink.queue.length === 0, 2000);
      return { queued, dropped, delivered: bodies.join(''),
        drops: errors.filter((e) => e.includes('dropped')) };
    """)
    newest = [f"l{i}" for i in range(15, 25)]
    assert result["queued"] == newest and result["dropped"] == 15
    assert result["delivered"] == "".join(line + "\n" for line in newest)
    assert result["drops"] == ["Error: PullParity sink: the queue holds at most 10 lines; dropped the oldest"]


def test_a_collector_on_another_origin_gets_posts_without_a_preflight(browser, run_js, tmp_path):
    lines = event_lines(3)
    with EventServer(tmp_path / "other-origin.jsonl", cors=True) as other:
        result = run_js("""
          const [url, lines] = arguments;
          const errors = [];
          const sink = new m.HttpEventSink(url, { flushIntervalMs: 10, retryDelayMs: 50, listen: false,
            onError: (e) => errors.push(String(e)) });
          lines.forEach((line) => sink.write(line));
          await until(() => sink.queue.length === 0, 4000);
          return { left: sink.queue.length, errors };
        """, other.url + "/events", lines)
        received = wait_for_lines(other, lines)
    assert result == {"left": 0, "errors": []}
    assert received == lines
    assert other.requests == [("POST", "text/plain;charset=UTF-8", sum(len(l) + 1 for l in lines), 204)]


def test_a_closed_sink_stops_listening_and_sending(run_js):
    result = run_js("""
      const beacons = [], posts = [], errors = [];
      const sink = new m.HttpEventSink('/events', { fetch: (url, init) => (posts.push(init.body), new Promise(() => {})),
        flushIntervalMs: 5, sendBeacon: (url, blob) => (beacons.push(blob), true),
        onError: (e) => errors.push(String(e)) });
      sink.write('a');
      sink.close();  // the last beacon carries 'a'
      dispatchEvent(new PageTransitionEvent('pagehide'));
      Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' });
      document.dispatchEvent(new Event('visibilitychange', { bubbles: true }));
      delete document.visibilityState;
      sink.write('b');
      await sleep(30);
      return { beacons: await Promise.all(beacons.map((b) => b.text())), posts, errors, queue: [...sink.queue] };
    """)
    assert result == {"beacons": ["a\n"], "posts": [], "queue": ["a"],
                      "errors": ["Error: PullParity sink: closed; a line written after close() is not sent"]}
