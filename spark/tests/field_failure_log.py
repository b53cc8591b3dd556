"""A padel log whose verdicts need other sessions (docs/events.md §5, "Waiting for the data" and
"Across sessions"), and the verdicts ingest gives it: stuck and dropped refreshes the data has
moved past and one at its edge, one on a platform whose data stops sooner, and refreshes of one
install within `repeat_within_ms` (1000) of the one before on the same screen, with ties, an
absent screen and the window's edge. Sessions are as Tests/pullparityTests/FieldFailureLog.swift
plays them: a pull samples 0 → 50 px every 16 ms (34 px arms), releases, and its refresh is
shown 10 ms and hidden 1310 ms after it starts."""

import json

T0 = 1794970800000
BALLS = {"kind": "balls", "count": 4, "stagger_ms": 120, "cycle_ms": 800}

# session_id → (stuck_refresh, dropped_refresh, repeated_refresh) as ingest judges them.
VERDICTS = {
    "stuck-past": (1, 0, 0),       # never hidden; the data moves 300 s past it
    "dropped-past": (None, 1, None),  # armed release, no refresh_start ever
    "rep-a": (0, 0, 0),
    "rep-b": (0, None, 1),         # install i3 on feed, no pull, while rep-a still runs (v1.2)
    "rep-settings": (0, None, 0),  # install i3 too, but on another screen
    "tie-Z": (0, None, 0),         # tie-Z and tie-a start together: "Z" < "a" in byte order
    "tie-a": (0, None, 1),
    "noscreen-1": (0, None, 0),    # no screen: absent screens are one screen
    "noscreen-2": (0, None, 1),
    "far-1": (0, None, 0),
    "far-2": (0, None, 0),         # 2310 ms after far-1 started, 1000 ms after it hid: no repeat
    "stuck-edge": (None, 0, 0),    # never hidden, 11 s before the data ends: not judged yet
    "last-pwa": (0, 0, None),      # no install_id; moves the pwa data to T0 + 301,740
    "stuck-ios": (None, 0, 0),     # never hidden; the ios data ends with it
}
# What the Spark job must derive a second time: the stuck and dropped refreshes the data moved
# past, and the refreshes that repeat.
JUDGED_AGAIN = {"stuck-past", "dropped-past", "rep-b", "tie-a", "noscreen-2"}


class Log:
    def __init__(self):
        self.lines = []

    def write(self, session, events, platform="pwa", screen="feed", install=None):
        for t, body in events:
            event = {"event_id": f"e{len(self.lines) + 1}", "session_id": session, "ts": t, "platform": platform,
                     "app": "padel", **body}
            if screen is not None:
                event["screen"] = screen
            if install is not None:
                event["install_id"] = install
            self.lines.append(json.dumps(event))

    def pull(self, session, t, refresh=True, hide=True, **where):
        """A pull that arms and is released 410 ms after it starts; its refresh starts 20 ms
        after the release."""
        events = [(t, {"type": "pull_start"})]
        events += [(t + 16 * step, {"type": "pull_move", "distance": 2 * step}) for step in range(1, 26)]
        events.append((t + 410, {"type": "release", "distance": 50}))
        self.write(session, events, **where)
        if refresh:
            self.refresh(session, t + 430, observed=True, hide=hide, **where)

    def refresh(self, session, t, observed=False, hide=True, **where):
        """A refresh; `observed=False` is one only the app's callback saw (a session of its own)."""
        start = {"type": "refresh_start", "trigger": "pull", **({} if observed else {"gesture_observed": False})}
        events = [(t, start), (t + 10, {"type": "indicator_shown", "indicator": BALLS})]
        if hide:
            events += [(t + 510, {"type": "load_complete", "ok": True}), (t + 1310, {"type": "indicator_hidden"})]
        self.write(session, events, **where)


def field_failure_lines():
    log = Log()
    log.pull("stuck-past", T0, hide=False, install="i1")
    log.pull("dropped-past", T0 + 1000, refresh=False, install="i2")
    log.pull("rep-a", T0 + 60000, install="i3")  # hidden at T0 + 61,740
    log.refresh("rep-b", T0 + 61040, install="i3")
    log.refresh("rep-settings", T0 + 62500, install="i3", screen="settings")
    log.refresh("tie-a", T0 + 90000, install="i4")
    log.refresh("tie-Z", T0 + 90000, install="i4")
    log.refresh("noscreen-1", T0 + 120000, install="i5", screen=None)
    log.refresh("noscreen-2", T0 + 120900, install="i5", screen=None)
    log.refresh("far-1", T0 + 150000, install="i6")
    log.refresh("far-2", T0 + 152310, install="i6")
    log.pull("stuck-edge", T0 + 290000, hide=False, install="i7")
    log.pull("last-pwa", T0 + 300000)
    log.pull("stuck-ios", T0 + 100000, hide=False, install="i8", platform="ios")
    return log.lines


def write_field_failure_log(path):
    with open(path, "w", encoding="utf-8") as handle:
        handle.writelines(line + "\n" for line in field_failure_lines())
