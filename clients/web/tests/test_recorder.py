"""The web recorder's own behaviour, run as an ES module in the test browser: where sessions
split (the Swift recorder's rules), the exact line it writes, the install id, the values it
refuses (exactly those ingest quarantines), time-ordered ids, the HTTP sink's batching, retry and
page-hide beacon, and that nothing it does throws into the app."""

import json
import re

import pytest

from event_server import EventServer
from module_runner import module_runner



@pytest.fixture(scope="module")
def run_js(browser, tmp_path_factory):
    """Runs an async JS body with the recorder module as `m`; returns what it returns."""
    with EventServer(tmp_path_factory.mktemp("recorder") / "unused.jsonl") as server:
        browser.get(server.url + "/")  # any page of the origin: the module is imported
        yield module_runner(browser)


UNOBSERVED = {"gestureObserved": False}

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
    ("refreshStart", ["programmatic"], 5), ("indicatorShown", [], 5), ("indicatorHidden", [], 5),
    # A pull refresh only the app's onRefresh saw (a library that hides the gesture) opens a
    # session once the last has ended, and a refresh during it is a double refresh...
    ("refreshStart", ["pull", UNOBSERVED], 6), ("indicatorShown", [], 6), ("loadComplete", [True], 6),
    ("indicatorHidden", [], 6),
    ("refreshStart", ["pull", UNOBSERVED], 7), ("refreshStart", ["pull", UNOBSERVED], 7), ("indicatorHidden", [], 7),
    # ...and, like a programmatic one, it abandons a pull that never released.
    ("pullStart", [], 8), ("pullMove", [30], 8), ("refreshStart", ["pull", UNOBSERVED], 9), ("indicatorHidden", [], 9),
    # A pull refresh fired before the finger lifted starts at once: the release belongs to it,
    # and its hide ends the session.
    ("pullStart", [], 10), ("pullMove", [90], 10), ("refreshStart", ["pull"], 10), ("release", [95], 10),
    ("indicatorHidden", [], 10), ("refreshStart", ["pull", UNOBSERVED], 11),
]
SPLIT_SEQS = [0, 1, 2, 0, 1, 2, 3, 4, 0, 1, 2, 3, 0, 1, 2, 3, 4, 0, 1, 0, 1, 2, 0, 1, 2, 3, 0, 1, 2, 0, 1, 0, 1,
              0, 1, 2, 3, 4, 0]

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
    assert [o for (o,) in outcomes] == [
        "cancelled", "completed", "completed", "incomplete", "incomplete", "completed", "completed", "completed",
        "incomplete", "completed", "completed", "incomplete"]
    unobserved = [e for e in events if e["type"] == "refresh_start" and "gesture_observed" in e]
    assert len(unobserved) == 5 and all(e["gesture_observed"] is False for e in unobserved)


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
    lines = run_js("""
      const recorder = new m.PullParityRecorder({
        app: 'padel', platform: 'pwa', profile: 'padel', appVersion: '3.9.0', osVersion: '18.1',
        device: 'Pixel 9', screen: 'Matches\\\\Today\\n\\t\\u0001', empty: true, installId: 'install-1',
        sink: (l) => recorder.lines.push(l), now: () => 1794800000123.125, random: (bytes) => bytes });
      recorder.lines = [];
      recorder.pullMove(35.1, 25.272);
      recorder.refreshStart('pull', { gestureObserved: false });
      return recorder.lines;
    """)
    # The Swift recorder's EventLineEncoderTests, byte for byte.
    assert lines == [
        '{"event_id":"01a1e26a-9c7b-7001-8000-000000000000","session_id":"01a1e26a-9c7b-7000-8000-000000000000",'
        '"ts":1794800000123.125,"seq":0,"platform":"pwa","app":"padel","type":"pull_move",'
        '"distance":35.1,"offset":25.272,"profile":"padel","app_version":"3.9.0","os_version":"18.1",'
        '"device":"Pixel 9","screen":"Matches\\\\Today\\n\\t\\u0001","empty":true,"install_id":"install-1"}',
        '{"event_id":"01a1e26a-9c7b-7002-8000-000000000000","session_id":"01a1e26a-9c7b-7000-8000-000000000000",'
        '"ts":1794800000123.125,"seq":1,"platform":"pwa","app":"padel","type":"refresh_start",'
        '"trigger":"pull","gesture_observed":false,"profile":"padel","app_version":"3.9.0","os_version":"18.1",'
        '"device":"Pixel 9","screen":"Matches\\\\Today\\n\\t\\u0001","empty":true,"install_id":"install-1"}']


def test_optional_fields_left_out_are_not_written(run_js):
    lines = run_js("""
      const lines = [];
      const recorder = new m.PullParityRecorder({ app: 'padel', installId: null, sink: (l) => lines.push(l) });
      recorder.pullStart(); recorder.pullMove(3); recorder.cancel(); recorder.indicatorShown();
      recorder.loadComplete(false); recorder.errorShown();
      recorder.indicatorShown({ cycle_ms: 800, stagger_ms: 120, count: 4, kind: 'balls' });
      recorder.refreshStart('pull', { gestureObserved: true }); recorder.refreshStart();
      return lines;
    """)
    keys = [list(json.loads(line)) for line in lines]
    head = ["event_id", "session_id", "ts", "seq", "platform", "app", "type"]
    assert keys[:6] == [head, head + ["distance"], head, head, head + ["ok"], head]
    assert '"indicator":{"kind":"balls","count":4,"stagger_ms":120,"cycle_ms":800}' in lines[6]
    # `gesture_observed` is written only when false.
    assert keys[7:] == [head + ["trigger"], head + ["trigger"]]
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
      recorder.cancel(10n);  // a BigInt cannot be written as JSON
      recorder.pullStart();
      return { errors, lines: lines.length };
    """)
    assert errors["errors"][0] == "Error: disk full"
    assert "BigInt" in errors["errors"][1]
    assert errors["lines"] == 1


def test_an_on_error_that_throws_never_reaches_the_app(run_js):
    # Every path to onError at once: a storage that throws, a refused value, a sink that throws,
    # a flush that throws, arguments whose reading throws. Any exception escaping a call fails
    # the script.
    heard = run_js("""
      const heard = [];
      const recorder = new m.PullParityRecorder({ app: 'padel',
        storage: { getItem() { throw new Error('denied'); }, setItem() {} },
        onError: (e) => { heard.push(String(e)); throw new Error('the handler broke too'); },
        sink: { write() { throw new Error('disk full'); }, flush() { throw new Error('offline'); } } });
      recorder.pullStart();
      recorder.pullMove(-3);
      recorder.flush();
      recorder.refreshStart('pull', { get gestureObserved() { throw new Error('getter'); } });
      recorder.indicatorShown({ get kind() { throw new Error('getter'); } });
      return heard;
    """)
    assert [h.split(":")[0] for h in heard] == ["Error", "Error", "RecorderError", "Error", "Error", "Error"]
    assert "no install_id" in heard[0] and heard[1] == "Error: disk full" and heard[3] == "Error: offline"


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


def test_the_install_id_is_made_once_kept_in_local_storage_and_stamped_on_every_line(run_js):
    result = run_js("""
      localStorage.removeItem(m.INSTALL_ID_STORAGE_KEY);
      const lines = [];
      const first = new m.PullParityRecorder({ app: 'padel', sink: (l) => lines.push(l) });
      first.pullStart(); first.pullMove(10, 7.2); first.cancel();
      // A later page load: the same install.
      const again = new m.PullParityRecorder({ app: 'padel', sink: (l) => lines.push(l) });
      again.refreshStart('programmatic');
      return { lines, kept: localStorage.getItem(m.INSTALL_ID_STORAGE_KEY), key: m.INSTALL_ID_STORAGE_KEY,
        ids: [first.installId, again.installId] };
    """)
    kept = result["kept"]
    assert result["key"] == "pullparity.install_id"
    assert re.fullmatch(r"[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}", kept), kept
    assert result["ids"] == [kept, kept]
    events = [json.loads(line) for line in result["lines"]]
    assert len(events) == 4
    # The last field, as the Swift recorder writes it.
    assert all(list(e)[-1] == "install_id" and e["install_id"] == kept for e in events)


@pytest.mark.parametrize(("given", "stamped", "complaint"), [
    ("'install-7'", "install-7", None),
    ("'x'.repeat(128)", "x" * 128, None),
    # 128 characters of two code points each: ingest counts characters.
    ("'e\\u0301'.repeat(128)", "e\u0301" * 128, None),
    ("null", None, None),
    ("''", None, 'RecorderError: PullParityRecorder: installId must be a string of 1–128 characters, got ""'),
    ("'x'.repeat(129)", None, "installId must be a string of 1–128 characters"),
    ("42", None, "RecorderError: PullParityRecorder: installId must be a string of 1–128 characters, got 42"),
])
def test_a_given_install_id_is_stamped_unless_ingest_would_refuse_it(run_js, given, stamped, complaint):
    result = run_js(f"""
      const lines = [], errors = [];
      const recorder = new m.PullParityRecorder({{ app: 'padel', installId: {given},
        sink: (l) => lines.push(l), onError: (e) => errors.push(String(e)) }});
      recorder.pullStart(); recorder.cancel();
      return {{ lines, errors }};
    """)
    events = [json.loads(line) for line in result["lines"]]
    assert len(events) == 2, "a bad install id must cost the id, not the events"
    assert [e.get("install_id") for e in events] == [stamped, stamped]
    if complaint is None:
        assert result["errors"] == []
    else:
        assert len(result["errors"]) == 1 and complaint in result["errors"][0]


def test_a_storage_that_throws_costs_only_the_install_id_and_is_reported_once(run_js):
    result = run_js("""
      const lines = [], errors = [];
      for (const storage of [
        { getItem() { throw new DOMException('denied', 'SecurityError'); }, setItem() {} },
        { getItem() { return null; }, setItem() { throw new DOMException('full', 'QuotaExceededError'); } },
      ]) {
        const recorder = new m.PullParityRecorder({ app: 'padel', storage,
          sink: (l) => lines.push(l), onError: (e) => errors.push(String(e)) });
        recorder.pullStart(); recorder.pullMove(5); recorder.cancel();
      }
      return { lines, errors };
    """)
    assert len(result["lines"]) == 6
    assert all("install_id" not in json.loads(line) for line in result["lines"])
    assert len(result["errors"]) == 2
    assert "no install_id" in result["errors"][0] and "SecurityError" in result["errors"][0]
    assert "QuotaExceededError" in result["errors"][1]


# Each call with a value at the edge of what the format allows, and whether the recorder must
# refuse it (with the field it names), given as JS. The test below holds the recorder to ingest:
# every line it writes is stored, and every line it refused is quarantined for that field.
EDGES = [
    ("recorder.pullMove(-3)", "pullMove: distance must be a finite number ≥ 0, got -3"),
    ("recorder.pullMove(NaN)", "pullMove: distance must be a finite number ≥ 0, got NaN"),
    ("recorder.pullMove(Infinity, 3)", "pullMove: distance must be a finite number ≥ 0, got Infinity"),
    ("recorder.pullMove('3')", 'pullMove: distance must be a finite number ≥ 0, got "3"'),
    ("recorder.pullMove()", "pullMove: distance must be a finite number ≥ 0, got undefined"),
    ("recorder.pullMove(3, '2')", 'pullMove: offset must be a number, got "2"'),
    ("recorder.armed(-0.5)", "armed: distance must be a finite number ≥ 0, got -0.5"),
    ("recorder.disarmed(null)", "disarmed: distance must be a finite number ≥ 0, got null"),
    ("recorder.release(-Infinity)", "release: distance must be a finite number ≥ 0, got -Infinity"),
    ("recorder.label('Släpp', 'armed')", 'label: state must be one of pulling, ready, refreshing, got "armed"'),
    ("recorder.label(3, 'ready')", "label: text must be a string, got 3"),
    ("recorder.label(undefined, 'ready')", "label: text must be a string, got undefined"),
    ("recorder.refreshStart('tap')", 'refreshStart: trigger must be one of pull, tab_reselect, programmatic, got "tap"'),
    ("recorder.refreshStart('pull', { gestureObserved: 'no' })", 'refreshStart: gesture_observed must be a boolean, got "no"'),
    ("recorder.indicatorShown('balls')", 'indicatorShown: indicator must be an object, got "balls"'),
    ("recorder.indicatorShown({ kind: 'dots' })", 'indicatorShown: indicator.kind must be one of balls, waveform, native, got "dots"'),
    ("recorder.indicatorShown({ count: 4.5 })", "indicatorShown: indicator.count must be an integer, got 4.5"),
    ("recorder.indicatorShown({ count: '4' })", 'indicatorShown: indicator.count must be an integer, got "4"'),
    ("recorder.indicatorShown({ stagger_ms: '120' })", 'indicatorShown: indicator.stagger_ms must be a number, got "120"'),
    ("recorder.indicatorShown({ cycle_ms: true })", "indicatorShown: indicator.cycle_ms must be a number, got true"),
    ("recorder.reveal(1.2, 1)", "reveal: progress must be a number from 0 to 1, got 1.2"),
    ("recorder.reveal(-0.1, 0)", "reveal: progress must be a number from 0 to 1, got -0.1"),
    ("recorder.reveal(NaN, 0)", "reveal: progress must be a number from 0 to 1, got NaN"),
    ("recorder.reveal(0.5, -1)", "reveal: visible must be an integer ≥ 0, got -1"),
    ("recorder.reveal(0.5, 2.5)", "reveal: visible must be an integer ≥ 0, got 2.5"),
    ("recorder.reveal(0.5, NaN)", "reveal: visible must be an integer ≥ 0, got NaN"),
    ("recorder.cacheInvalidated(5)", "cacheInvalidated: key must be a string, got 5"),
    ("recorder.loadComplete('true')", 'loadComplete: ok must be a boolean, got "true"'),
    ("recorder.loadComplete()", "loadComplete: ok must be a boolean, got undefined"),
    ("recorder.screen = 5; recorder.fetchStart()", "fetchStart: screen must be a string, got 5"),
    ("recorder.empty = 'yes'; recorder.contentCleared()", 'contentCleared: empty must be a boolean, got "yes"'),
    ("recorder.record('pull_started')", 'record: type must be an event type of the contract, got "pull_started"'),
    # Allowed, however odd: ingest stores these lines.
    ("recorder.pullMove(0, -4)", None),
    ("recorder.pullMove(-0)", None),
    ("recorder.pullMove(3, NaN)", None),  # written as `"offset":null`, read as no offset
    ("recorder.release(0)", None),
    ("recorder.label('', 'refreshing')", None),
    ("recorder.refreshStart(null)", None),
    ("recorder.refreshStart('pull', { gestureObserved: null })", None),
    ("recorder.refreshStart('tab_reselect', { gestureObserved: false })", None),
    ("recorder.indicatorShown(null)", None),
    ("recorder.indicatorShown({})", None),
    ("recorder.indicatorShown({ kind: 'native', count: 0, stagger_ms: -1, cycle_ms: Infinity })", None),
    ("recorder.indicatorShown({ count: -2 })", None),
    ("recorder.reveal(0, 0)", None),
    ("recorder.reveal(1, 5.0)", None),
    ("recorder.cacheInvalidated('')", None),
    ("recorder.loadComplete(false, { code: 500 })", None),
    ("recorder.cancel({ why: 'scroll' })", None),
    ("recorder.errorShown(404)", None),
    ("recorder.screen = ''; recorder.fetchStart()", None),
]


def test_the_recorder_refuses_exactly_what_ingest_would_quarantine(run_js, pullparity, tmp_path):
    results = run_js("""
      const [calls] = arguments;
      return calls.map((call) => {
        const run = (check) => {
          const lines = [], errors = [];
          const recorder = new m.PullParityRecorder({ app: 'phlock', installId: 'edges', sink: (l) => lines.push(l),
            onError: (e) => errors.push(e), now: () => 1794800000000 });
          if (!check) recorder.refusal = () => undefined;  // the line it would have written
          new Function('recorder', call)(recorder);
          return { lines, errors: errors.map((e) => ({ text: e.message, recorderError: e instanceof m.RecorderError })) };
        };
        return { checked: run(true), unchecked: run(false) };
      });
    """, [call for call, _ in EDGES])

    written, refused = [], []
    for (call, refusal), result in zip(EDGES, results):
        checked = result["checked"]
        if refusal is None:
            assert checked["errors"] == [] and len(checked["lines"]) == 1, call
            written.append(checked["lines"][0])
        else:
            assert checked["lines"] == [], f"{call} wrote a line"
            assert checked["errors"] == [{"text": refusal, "recorderError": True}], call
            assert result["unchecked"]["errors"] == [] and len(result["unchecked"]["lines"]) == 1, call
            field = refusal.split(":")[1].split()[0]
            refused.append((result["unchecked"]["lines"][0], field))

    log = tmp_path / "edges.jsonl"
    log.write_text("\n".join(written + [line for line, _ in refused]) + "\n", encoding="utf-8")
    pullparity.ingest(log)
    stored = {raw for (raw,) in pullparity.query("SELECT raw FROM events")}
    quarantined = dict(pullparity.query("SELECT raw, reason FROM quarantine"))
    assert [line for line in written if line not in stored] == [], "the recorder wrote a line ingest refuses"
    for line, field in refused:
        assert line in quarantined, f"refused a line ingest stores: {line}"
        assert f"`{field}`" in quarantined[line], (field, quarantined[line])
