"""The web recorder's own behaviour, run as an ES module in the test browser: where sessions
split (the Swift recorder's rules), the exact line it writes, time-ordered ids, the HTTP sink's
batching, retry and page-hide beacon, and that nothing it does throws into the app."""

import json

import pytest

from event_server import EventServer
from module_runner import module_runner



@pytest.fixture(scope="module")
def run_js(browser, tmp_path_factory):
    """Runs an async JS body with the recorder module as `m`; returns what it returns."""
    with EventServer(tmp_path_factory.mktemp("recorder") / "unused.jsonl") as server:
        browser.get(server.url + "/")  # any page of the origin: the module is imported
        yield module_runner(browser)


# The Swift recorder's test `sessionsSplitWhereTheContractSplitsThem`, call for call: each call
# with the index of the session it must land in.
SPLIT_SCRIPT = [
    ("pullStart", [], 0), ("pullMove", [20], 0), ("release", [20], 0),
    ("refreshStart", ["programmatic"], 1), ("indicatorShown", [], 1), ("indicatorHidden", [], 1),
    ("loadComplete", [False], 1), ("errorShown", ["offline"], 1),
    ("scrollToTop", [], 2), ("refreshStart", ["tab_reselect"], 2), ("loadComplete", [True], 2),
    ("indicatorHidden", [], 2),
    ("pullStart", [], 3), ("pullMove", [90], 3), ("release", [90], 3),
    ("refreshStart", ["pull"], 3), ("refreshStart", ["tab_reselect"], 3),
    # A pull during a refresh is a new interaction; the refresh it interrupts stays incomplete.
    ("pullStart", [], 4), ("pullMove", [30], 4),
    # The pull was never released: a programmatic refresh is an interaction of its own.
    ("refreshStart", ["programmatic"], 5), ("indicatorShown", [], 5),
]
SPLIT_SEQS = [0, 1, 2, 0, 1, 2, 3, 4, 0, 1, 2, 3, 0, 1, 2, 3, 4, 0, 1, 0, 1]

RECORD_SCRIPT = """
  const [script, arming] = arguments;
  const lines = [];
  let t = 1794800000000;
  const recorder = new m.PullParityRecorder({ app: 'phlock', sink: (line) => lines.push(line),
    now: () => (t += 16.5), arming: arming ?? undefined });
  for (const [method, args] of script) recorder[method](...args);
  return lines;
"""


def test_sessions_split_where_the_swift_recorder_splits_them(run_js, pullparity, tmp_path):
    lines = run_js(RECORD_SCRIPT, [[method, args] for method, args, _ in SPLIT_SCRIPT], {"threshold": 80})
    events = [json.loads(line) for line in lines]
    order = list(dict.fromkeys(e["session_id"] for e in events))
    assert [order.index(e["session_id"]) for e in events] == [session for *_, session in SPLIT_SCRIPT]
    assert [e["seq"] for e in events] == SPLIT_SEQS
    assert [e["type"] for e in events][:3] == ["pull_start", "pull_move", "release"]

    log = tmp_path / "split.jsonl"
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    pullparity.ingest(log)
    assert pullparity.query("SELECT count(*) FROM quarantine") == [(0,)]
    outcomes = pullparity.query("SELECT outcome FROM sessions ORDER BY started_at_ms")
    assert [o for (o,) in outcomes] == ["cancelled", "completed", "completed", "incomplete", "incomplete", "incomplete"]


@pytest.mark.parametrize(
    ("arming", "calls", "sessions"),
    [
        # Without a threshold the app's own `armed` decides: released armed, the refresh joins.
        (None, [("pullStart", []), ("armed", [40]), ("release", [40]), ("refreshStart", [])], [0, 0, 0, 0]),
        # Released without arming, the pull is over and the refresh opens a session of its own.
        (None, [("pullStart", []), ("pullMove", [90]), ("release", [90]), ("refreshStart", [])], [0, 0, 0, 1]),
        # With the threshold the move decides, whatever the app says.
        ({"threshold": 24, "resistance": 0.72},
         [("pullStart", []), ("pullMove", [40]), ("release", [40]), ("refreshStart", [])], [0, 0, 0, 0]),
        ({"threshold": 24, "resistance": 0.72},
         [("pullStart", []), ("pullMove", [30]), ("armed", [30]), ("release", [30]), ("refreshStart", [])],
         [0, 0, 0, 0, 1]),
        # Pulled past the threshold and back under it: not armed any more.
        ({"threshold": 24, "resistance": 0.72},
         [("pullStart", []), ("pullMove", [40]), ("pullMove", [20]), ("release", [20]), ("refreshStart", [])],
         [0, 0, 0, 0, 1]),
    ],
)
def test_arming_follows_the_threshold_or_the_app(run_js, arming, calls, sessions):
    events = [json.loads(line) for line in run_js(RECORD_SCRIPT, calls, arming)]
    order = list(dict.fromkeys(e["session_id"] for e in events))
    assert [order.index(e["session_id"]) for e in events] == sessions


def test_a_line_is_written_exactly_as_the_swift_recorder_writes_it(run_js):
    line = run_js("""
      const recorder = new m.PullParityRecorder({
        app: 'padel', platform: 'pwa', profile: 'padel', appVersion: '3.9.0', osVersion: '18.1',
        device: 'Pixel 9', screen: 'Matches\\\\Today\\n\\t\\u0001', empty: true,
        sink: (l) => (recorder.last = l), now: () => 1794800000123.125, random: (bytes) => bytes });
      recorder.pullMove(35.1, 25.272);
      return recorder.last;
    """)
    assert line == (
        '{"event_id":"01a1e26a-9c7b-7001-8000-000000000000","session_id":"01a1e26a-9c7b-7000-8000-000000000000",'
        '"ts":1794800000123.125,"seq":0,"platform":"pwa","app":"padel","type":"pull_move",'
        '"distance":35.1,"offset":25.272,"profile":"padel","app_version":"3.9.0","os_version":"18.1",'
        '"device":"Pixel 9","screen":"Matches\\\\Today\\n\\t\\u0001","empty":true}')


def test_optional_fields_left_out_are_not_written(run_js):
    lines = run_js("""
      const lines = [];
      const recorder = new m.PullParityRecorder({ app: 'padel', sink: (l) => lines.push(l) });
      recorder.pullStart(); recorder.pullMove(3); recorder.cancel(); recorder.indicatorShown();
      recorder.loadComplete(false); recorder.errorShown();
      recorder.indicatorShown({ cycle_ms: 800, stagger_ms: 120, count: 4, kind: 'balls' });
      return lines;
    """)
    keys = [list(json.loads(line)) for line in lines]
    head = ["event_id", "session_id", "ts", "seq", "platform", "app", "type"]
    assert keys[:6] == [head, head + ["distance"], head, head, head + ["ok"], head]
    assert '"indicator":{"kind":"balls","count":4,"stagger_ms":120,"cycle_ms":800}' in lines[6]
    assert json.loads(lines[0])["platform"] == "pwa"


def test_ids_are_uuidv7_in_the_order_they_were_made(run_js):
    ids = run_js("""
      const ids = new m.UUIDv7Generator();
      // The same millisecond, a clock that steps back, then 5000 ids in one millisecond.
      const times = [1000, 1000, 1000.9, 999, 1001, ...Array(5000).fill(1002), 1003];
      return times.map((t) => ids.next(t));
    """)
    assert ids == sorted(ids) and len(set(ids)) == len(ids)
    for uuid in ids:
        assert len(uuid) == 36 and uuid[14] == "7" and uuid[19] in "89ab", uuid
    assert ids[0].startswith("00000000-03e8-7")


def test_nothing_the_recorder_does_throws_into_the_app(run_js):
    errors = run_js("""
      const errors = [];
      const throwing = new m.PullParityRecorder({ app: 'padel', onError: (e) => errors.push(String(e)),
        sink: () => { throw new Error('disk full'); } });
      throwing.pullStart();
      throwing.flush();
      const lines = [];
      const recorder = new m.PullParityRecorder({ app: 'padel', onError: (e) => errors.push(String(e)),
        sink: (l) => lines.push(l) });
      recorder.pullMove(10n);  // a BigInt cannot be written as JSON
      recorder.pullStart();
      return { errors, lines: lines.length };
    """)
    assert errors["errors"][0] == "Error: disk full"
    assert "BigInt" in errors["errors"][1]
    assert errors["lines"] == 1


def test_the_http_sink_batches_and_sends_a_failed_batch_again_unchanged(run_js):
    result = run_js("""
      const bodies = [];
      const answers = [() => Promise.reject(new TypeError('offline')), () => Promise.resolve({ ok: false, status: 503 })];
      const fetch = (url, init) => {
        bodies.push(init.body);
        return (answers.shift() ?? (() => Promise.resolve({ ok: true, status: 204 })))();
      };
      const errors = [];
      const sink = new m.HttpEventSink('/events', { fetch, flushIntervalMs: 5, retryDelayMs: 5, maxBatchLines: 2,
        listen: false, onError: (e) => errors.push(String(e)) });
      ['a', 'b', 'c'].forEach((line) => sink.write(line));
      const settled = async () => { while (sink.queue.length) await new Promise((r) => setTimeout(r, 5)); };
      await settled();
      return { bodies, errors };
    """)
    assert result["bodies"] == ["a\nb\n", "a\nb\n", "a\nb\n", "c\n"]
    assert result["errors"] == ["TypeError: offline", "Error: PullParity sink: HTTP 503 from /events"]


def test_the_page_hide_flush_beacons_what_no_post_carries_and_keeps_it_queued(run_js):
    result = run_js("""
      const beacons = [];
      let answer;
      const fetch = () => new Promise((resolve) => (answer = resolve));  // answered by the test
      const sink = new m.HttpEventSink('/events', { fetch, flushIntervalMs: 5, maxBatchLines: 2,
        sendBeacon: (url, blob) => (beacons.push(blob), true) });
      ['a', 'b', 'c'].forEach((line) => sink.write(line));
      await new Promise((r) => setTimeout(r, 30));
      const inFlight = sink.inFlight;
      dispatchEvent(new PageTransitionEvent('pagehide'));
      const left = sink.queue.length;
      // The page comes back (back-forward cache), records on, and the old POST answers late.
      sink.write('d');
      answer({ ok: true, status: 204 });
      await new Promise((r) => setTimeout(r, 0));
      return { inFlight, beacons: await Promise.all(beacons.map((b) => b.text())), left,
        type: beacons[0].type, after: [...sink.queue] };
    """)
    # The keepalive POST out outlives the page as the beacon does: the beacon carries the rest. A
    # beacon is never acknowledged, so its lines stay queued until a POST of them is.
    assert result == {"inFlight": 2, "beacons": ["c\n"], "left": 3, "type": "text/plain;charset=utf-8",
                      "after": ["c", "d"]}
