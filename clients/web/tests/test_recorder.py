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


# The Swift recorder's clock tests, step for step: `pass` moves wall and monotonic time together,
# `jump` moves wall time alone (the clock was set, or the machine slept while `performance.now()`
# stood still); any other step is a recorder call.
CLOCK_SCRIPT = """
  const [steps] = arguments;
  const lines = [];
  let wall = 1794800000000, monotonic = 0;
  const recorder = new m.PullParityRecorder({ app: 'padel', sink: (line) => lines.push(line),
    wallNow: () => wall, monotonicNow: () => monotonic });
  for (const [step, ...args] of steps) {
    if (step === 'pass') { wall += args[0]; monotonic += args[0]; }
    else if (step === 'jump') wall += args[0];
    else recorder[step](...args);
  }
  return lines.map((line) => JSON.parse(line));
"""
START = 1794800000000
HOUR = 3600000


@pytest.mark.parametrize(
    ("jump", "followed"),
    [(HOUR, True), (-HOUR, True), (1001, True), (-1001, True), (1000, False), (-1000, False),
     (999, False), (-999, False), (0, False)])
def test_the_next_session_follows_wall_time_once_it_moved_more_than_a_second(run_js, jump, followed):
    events = run_js(CLOCK_SCRIPT, [
        ["pullStart"], ["pass", 100], ["cancel"], ["jump", jump], ["pass", 2000],
        ["pullStart"], ["pass", 50], ["cancel"]])
    moved = jump if followed else 0
    assert [e["ts"] for e in events] == [START, START + 100, START + 2100 + moved, START + 2150 + moved]
    assert len({e["session_id"] for e in events}) == 2


def test_a_jump_inside_a_session_waits_for_the_next_session(run_js):
    # Not even an event that joins the session after the indicator hid follows the jump.
    events = run_js(CLOCK_SCRIPT, [
        ["refreshStart", "programmatic"], ["pass", 100], ["indicatorShown"], ["jump", HOUR],
        ["pass", 1500], ["loadComplete", False], ["indicatorHidden"], ["jump", -2 * HOUR], ["pass", 100],
        ["errorShown", "offline"], ["pass", 100], ["refreshStart", "programmatic"]])
    assert [e["ts"] for e in events] == [START, START + 100, START + 1600, START + 1600, START + 1700,
                                         START + 1800 - HOUR]
    assert [e["seq"] for e in events] == [0, 1, 2, 3, 4, 0]
    assert len({e["session_id"] for e in events[:5]}) == 1 and events[5]["session_id"] != events[0]["session_id"]


def test_a_step_back_between_sessions_keeps_the_ids_unique_and_in_order(run_js):
    session = [["pullStart"], ["pass", 100], ["pullMove", 10], ["cancel"], ["jump", -HOUR], ["pass", 1000]]
    events = run_js(CLOCK_SCRIPT, session + session + [["pullStart"]])
    assert [e["ts"] for e in events] == [
        START, START + 100, START + 100, START + 1100 - HOUR, START + 1200 - HOUR, START + 1200 - HOUR,
        START + 2200 - 2 * HOUR]
    made = []  # in the order made: each session's id just before its first event's
    for event in events:
        if event["session_id"] not in made:
            made.append(event["session_id"])
        made.append(event["event_id"])
    assert len(set(made)) == len(made) == 10
    assert made == sorted(made)
    # The generator keeps its last millisecond and counts on rather than go back with the clock.
    last = START + 100
    assert [int(uuid.replace("-", "")[:12], 16) for uuid in made] == [last - 100] * 2 + [last] * 8


def test_small_drifts_add_up_until_they_pass_the_threshold(run_js):
    events = run_js(CLOCK_SCRIPT, [["pullStart"], ["jump", 600], ["pass", 10000]] * 4)
    assert [e["ts"] for e in events] == [START, START + 10000, START + 21200, START + 31200]


def test_the_clocks_given_or_not(run_js):
    result = run_js("""
      const stamps = (options) => {
        const lines = [];
        const recorder = new m.PullParityRecorder({ app: 'padel', sink: (l) => lines.push(l), ...options });
        recorder.pullStart(); recorder.pullMove(10); recorder.pullStart();
        return lines.map((line) => JSON.parse(line).ts);
      };
      let t = 5000;
      const given = stamps({ now: () => (t += 10), wallNow: () => 1e12, monotonicNow: () => 0 });
      const before = Date.now();
      const system = stamps({});
      return { given, system, before, after: Date.now() };
    """)
    # `now` is used as it is: the wall and monotonic clocks given beside it are never read.
    assert result["given"] == [5010, 5020, 5030]
    # Without clocks, wall time (Date.now() is whole ms, so the anchor may be up to 1 ms early).
    system = result["system"]
    assert system == sorted(system)
    assert result["before"] - 1 <= system[0] and system[-1] <= result["after"] + 1


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
