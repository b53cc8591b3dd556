"""Drives the reference PWA with W3C touch-pointer actions, one gesture plan per page visit, and
counts what the page should have recorded."""

import json
import time
import urllib.request
from dataclasses import dataclass, field

import websocket
from selenium.webdriver.common.actions import interaction
from selenium.webdriver.common.actions.action_builder import ActionBuilder
from selenium.webdriver.common.actions.pointer_input import PointerInput
from selenium.webdriver.support.wait import WebDriverWait

# The finger starts inside the feed, below the header, and moves 12 px per touch event up to
# 48 px, past the threshold (33.3 px), then 24 px: every touch event is a round trip through
# chromedriver, and a machine starved of CPU can stall any of them past the checklist's 100 ms
# sample gap, so a long pull takes a dozen events, not dozens.
START_X, START_Y = 200, 250
FINE_STEP_PX, FINE_UNTIL_PX, COARSE_STEP_PX = 12, 48, 24
ARMING_DISTANCE = 24 / 0.72  # padel arms on distance × resistance ≥ 24
# A finger that rests sends no touch event; when it moves on, its first move is a pixel or two
# (a real finger restarting past touch slop), then it travels as before. 2 px × 0.72 is within
# the drag tolerance (2 drawn px), so the rest before it is no stall.
RESTART_PX = 2
# v1.1 flags a refresh that starts within 1000 ms of the end of the last one on the same install
# and screen (`repeated_refresh`): a user does not, so a visit waits that long, from the moment
# it saw a refresh end, before the next pull that refreshes.
REFRESH_GAP_S = 1.05
# When a visit last saw a refresh end (monotonic seconds). Module-wide: the install id lives in
# the browser's storage and outlives a visit, so the next visit's first refresh waits too.
_last_refresh_ended = float("-inf")


@dataclass(frozen=True)
class Pull:
    """A finger pulling `distance` px down, optionally going back to `back_to` before lifting."""
    distance: float
    back_to: float | None = None
    load_ms: int = 200
    fails: bool = False
    # A second pull made while this one's refresh runs: the page must ignore it. The load then
    # lasts until the test ends it after that pull (and at least `load_ms`).
    pull_during_refresh: float | None = None
    # The finger rests `rest_ms` at the first step at or past `rest_at` px on the way out.
    rest_at: float | None = None
    rest_ms: int = 300
    # How far the finger's first move after the rest goes: a restart past touch slop by default,
    # or an ordinary step (`FINE_STEP_PX`) for a finger that simply moves on.
    restart_px: float = RESTART_PX

    @property
    def refreshes(self) -> bool:
        final = self.distance if self.back_to is None else self.back_to
        return final >= ARMING_DISTANCE


@dataclass
class Tally:
    """What a page visit should have logged, and what the page said about it."""
    gestures: int = 0
    pulls: int = 0
    refreshes: int = 0
    cancelled: int = 0
    # Whether each refresh's load succeeds, in order.
    loads_ok: list[bool] = field(default_factory=list)
    # Touches the feed received (touchstart), counted in the page.
    touches: int = 0
    # Lines in the sink's queue as the visit left the page, one count per visit.
    queued_at_exit: list[int] = field(default_factory=list)

    def add(self, other: "Tally") -> None:
        for name in ("gestures", "pulls", "refreshes", "cancelled", "touches"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.loads_ok += other.loads_ok
        self.queued_at_exit += other.queued_at_exit


def touch_drag(driver, distance: float, back_to: float | None = None, rest_at: float | None = None,
               rest_ms: int = 300, restart_px: float = RESTART_PX) -> None:
    """One finger down, moved to `distance` (resting `rest_ms` on the way, at `rest_at`, and
    moving on by `restart_px` first), back to `back_to`, lifted. The whole drag is one action
    sequence: chromedriver plays the rest as a pause, with no touch event during it."""
    finger = PointerInput(interaction.POINTER_TOUCH, "finger")
    actions = ActionBuilder(driver, mouse=finger, duration=0)
    actions.pointer_action.move_to_location(START_X, START_Y).pointer_down()
    for y in _path(distance, back_to, rest_at, restart_px):
        if y is REST:
            actions.pointer_action.pause(rest_ms / 1000)
        else:
            actions.pointer_action.move_to_location(START_X, round(START_Y + y))
    actions.pointer_action.pointer_up()
    actions.perform()


REST = None  # in a path: the finger stays where it is, sending nothing


def _path(distance: float, back_to: float | None, rest_at: float | None = None,
          restart_px: float = RESTART_PX) -> list[float | None]:
    """The finger's travel at each touch event: out to `distance` (with a `REST` once it reached
    `rest_at`, then a `restart_px` move), then back to `back_to`."""
    out: list[float | None] = []
    y = 0.0
    while y < distance:
        y = min(distance, y + (FINE_STEP_PX if y < FINE_UNTIL_PX else COARSE_STEP_PX))
        out.append(y)
        if rest_at is not None and y >= rest_at and y < distance:
            y += restart_px
            out += [REST, y]
            rest_at = None
    while back_to is not None and y > back_to:
        y = max(back_to, y - COARSE_STEP_PX)
        out.append(y)
    return out


def wait_until_idle(driver, timeout: float = 10) -> None:
    WebDriverWait(driver, timeout, poll_frequency=0.05).until(
        lambda d: d.execute_script("return window.referenceApp && !window.referenceApp.refreshing"))


def hold_lines_for_the_page_hide(driver, timeout: float = 10) -> None:
    """From now on the page's sink only queues what it is given: once what it holds has gone
    out, its flush interval (the reference app's 500 ms) becomes longer than the visit, so the
    lines written after this are left for the page-hide flush however slow the test is."""
    driver.execute_script("referenceApp.sink.flushIntervalMs = 1e9")  # 11.6 days
    WebDriverWait(driver, timeout, poll_frequency=0.05).until(lambda d: d.execute_script(
        "const sink = referenceApp.sink;"
        "return sink.queue.length === 0 && sink.request === undefined && sink.timer === undefined"))


def visit(driver, url: str, plan: list[Pull], refresh_gap_s: float = REFRESH_GAP_S) -> Tally:
    """Opens the page, performs `plan`, then leaves it, so that the recorder's last lines go out
    with the page-hide flush (the caller waits for them at the server): the last gesture's lines
    are always still queued then. A pull that refreshes waits until `refresh_gap_s` have passed
    since the last refresh ended."""
    driver.get(url)
    WebDriverWait(driver, 10, poll_frequency=0.05).until(lambda d: d.execute_script("return !!window.referenceApp"))
    driver.execute_script(
        "window.touchesSeen = 0; document.getElementById('feed')"
        ".addEventListener('touchstart', () => { window.touchesSeen += 1; }, { capture: true, passive: true });")
    global _last_refresh_ended
    tally = Tally()
    for index, pull in enumerate(plan):
        if index == len(plan) - 1:
            hold_lines_for_the_page_hide(driver)
        if pull.refreshes:
            time.sleep(max(0.0, _last_refresh_ended + refresh_gap_s - time.monotonic()))
        gated = pull.refreshes and pull.pull_during_refresh is not None
        driver.execute_script(
            "referenceApp.loadMs = arguments[0]; referenceApp.loadFails = arguments[1];"
            "referenceApp.loadGate = arguments[2] ? new Promise((resolve) => { referenceApp.endLoad = resolve; })"
            " : undefined;", pull.load_ms, pull.fails, gated)
        touch_drag(driver, pull.distance, pull.back_to, pull.rest_at, pull.rest_ms, pull.restart_px)
        tally.gestures += 1
        tally.pulls += 1
        if pull.refreshes:
            tally.refreshes += 1
            tally.loads_ok.append(not pull.fails)
            if gated:
                touch_drag(driver, pull.pull_during_refresh)
                tally.gestures += 1
                # The load waits for the test, so the whole second pull fell within the refresh.
                assert driver.execute_script("return referenceApp.refreshing"), "the refresh ended before its load"
                driver.execute_script("referenceApp.endLoad()")
            wait_until_idle(driver)
            _last_refresh_ended = time.monotonic()
        else:
            tally.cancelled += 1
    tally.queued_at_exit.append(driver.execute_script("return referenceApp.sink.queue.length"))
    tally.touches = driver.execute_script("return window.touchesSeen")
    driver.get("about:blank")
    return tally


def paced_touch_drag(driver, distance: float, back_to: float | None = None, step_px: float = 3,
                     interval_s: float = 0.016) -> None:
    """One finger down, moved `step_px` every `interval_s` (a finger's ordinary pace at 60 Hz) to
    `distance` and back to `back_to`, lifted, sent straight to Chromium's DevTools without waiting for the page: a
    finger goes on moving while the page's main thread is busy, and Chromium queues and
    coalesces its touch events as it does on a phone (chromedriver waits for the page to handle
    each event before it sends the next, as if the finger stopped whenever the page did)."""
    address = driver.capabilities["goog:chromeOptions"]["debuggerAddress"]
    with urllib.request.urlopen(f"http://{address}/json", timeout=10) as answer:
        targets = json.load(answer)
    page = next(t for t in targets if t["type"] == "page" and t["url"] == driver.current_url)
    socket = websocket.create_connection(page["webSocketDebuggerUrl"], suppress_origin=True, timeout=30)
    try:
        sent = 0

        def send(kind: str, y: float | None) -> None:
            nonlocal sent
            sent += 1
            points = [] if y is None else [{"x": START_X, "y": START_Y + y}]
            socket.send(json.dumps({"id": sent, "method": "Input.dispatchTouchEvent",
                                    "params": {"type": kind, "touchPoints": points}}))

        send("touchStart", 0)
        path = [min(distance, step_px * i) for i in range(1, int(-(-distance // step_px)) + 1)]
        if back_to is not None:
            path += [max(back_to, distance - step_px * i) for i in range(1, int(-(-(distance - back_to) // step_px)) + 1)]
        next_at = time.monotonic()
        for y in path:
            next_at += interval_s
            time.sleep(max(0.0, next_at - time.monotonic()))
            send("touchMove", y)
        send("touchEnd", None)
        answers = [json.loads(socket.recv()) for _ in range(sent)]
        assert all("error" not in a for a in answers), answers
    finally:
        socket.close()
