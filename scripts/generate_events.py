#!/usr/bin/env python3
"""Deterministic generator of pull-to-refresh JSON-lines event logs for PullParity.

Stdlib only. Follows docs/events.md (contract v1).

  python3 scripts/generate_events.py sample [--out sample-events] [--seed 7] [--expected FILE]
  python3 scripts/generate_events.py bench --events 1000000 --out /tmp/bench.jsonl [--seed 1] [--expected FILE]

`sample` rewrites sample-events/ byte for byte identically for a given seed (seeded
random.Random, no clock, no OS uuids, gzip with mtime=0 and no file name) and writes
EXPECTED.json: the ground truth of what was planted (outcomes and violations per session),
taken from the generator's own plan, not from a re-implementation of the state machine.

`bench` streams exactly N lines of interleaved sessions of all three apps, with the same
client models, to one file.

Time is kept in integer ticks of 0.1 ms since the Unix epoch. iOS clients only use whole
milliseconds (multiples of 10 ticks); the PWA uses tenths. Distances are integer tenths of
a pt/px, progress is integer hundredths, so every threshold decision is made in exact
decimal arithmetic. Every random draw that decides a hold/late/flash outcome keeps at least
20 ms away from the boundary.
"""

import argparse
import gzip
import hashlib
import heapq
import json
import os
import sys
import time
import unicodedata
from datetime import datetime, timedelta, timezone
from random import Random

# ---------------------------------------------------------------------------
# constants from docs/events.md section 3
# ---------------------------------------------------------------------------

KINDS = [
    "flash", "premature_hide", "late_hide", "label_text", "arm_mismatch",
    "double_refresh", "unexpected_event", "indicator_config", "reveal_order",
    "cache_order", "content_cleared_on_error", "error_not_shown",
    # v1.1
    "stuck_refresh", "dropped_refresh", "refresh_before_release", "repeated_refresh",
]
OUTCOMES = ["completed", "cancelled", "incomplete"]

TPM = 10  # ticks per millisecond

PADEL_COPY = {
    "pulling": "Dra för att ladda senaste padelnytt...",
    "ready": "Släpp för att uppdatera",
    "refreshing": "Padelbollarna studsar medan vi laddar...",
}
PADEL_READY_NFD = unicodedata.normalize("NFD", PADEL_COPY["ready"])
PADEL_MIN_HOLD = 1200
PHLOCK_MIN_HOLD = 1300
PHLOCK_FADE = 300

IND_BALLS = '{"kind":"balls","count":4,"stagger_ms":120,"cycle_ms":800}'
IND_NATIVE = '{"kind":"native"}'
IND_WAVE = '{"kind":"waveform","count":5,"stagger_ms":100,"cycle_ms":500}'
IND_WAVE_BAD = '{"kind":"waveform","count":5,"stagger_ms":100,"cycle_ms":650}'

ERROR_MESSAGE = "Kunde inte uppdatera"
UNKNOWN_FIELD = ',"build":"2026.11.3"'

DAY0_MS = int(datetime(2026, 11, 16, tzinfo=timezone.utc).timestamp()) * 1000
DAY_MS = 86400000
WINDOW_START = (DAY0_MS + 6 * 3600 * 1000) * TPM           # 2026-11-16T06:00Z
WINDOW_END = (DAY0_MS + 4 * DAY_MS + 21 * 3600 * 1000) * TPM  # 2026-11-20T21:00Z

PWA_DEVICES = [("Pixel 8", "Android 15"), ("Galaxy S24", "Android 14"),
               ("iPhone 15", "iOS 18.1"), ("iPhone 13", "iOS 17.6"),
               ("Desktop Chrome", "macOS 15.1")]
IOS_DEVICES = [("iPhone15,3", "18.1"), ("iPhone16,1", "18.1.1"), ("iPhone14,5", "17.6.1"),
               ("iPhone17,2", "18.2"), ("iPhone13,2", "18.0.1")]


def jstr(s):
    return json.dumps(s, ensure_ascii=False)


def num10(v):
    """tenths (int) -> JSON number text with one decimal."""
    if v < 0:
        return "-" + num10(-v)
    return "%d.%d" % (v // 10, v % 10)


def num100(v):
    """hundredths (int) -> JSON number text with two decimals (0.40, 1.00)."""
    return "%d.%02d" % (v // 100, v % 100)


def new_uuid(rng):
    h = "%032x" % rng.getrandbits(128)
    return "%s-%s-4%s-%s%s-%s" % (h[:8], h[8:12], h[13:16], "89ab"[int(h[16], 16) & 3],
                                  h[17:20], h[20:32])


def new_uuid_v7(rng, t):
    """A UUIDv7 as the recorders write it: the event's Unix milliseconds in the first 48 bits,
    so ids written in time order sort in time order; the other 74 bits random."""
    h = "%012x%020x" % (t // TPM, rng.getrandbits(80))
    return "%s-%s-7%s-%s%s-%s" % (h[:8], h[8:12], h[13:16], "89ab"[int(h[16], 16) & 3],
                                  h[17:20], h[20:32])


# How bench mode names events: "v7" (time-ordered, what the recorders write) or "v4" (random).
# The sample keeps v4 ids: its files are committed and tests name their ids.
EVENT_IDS = "v4"


def new_event_id(rng, t):
    return new_uuid_v7(rng, t) if EVENT_IDS == "v7" else new_uuid(rng)


# ---------------------------------------------------------------------------
# timestamp formats
# ---------------------------------------------------------------------------

def fmt_pwa(t):
    ms, frac = divmod(t, TPM)
    return "%d.%d" % (ms, frac) if frac else "%d" % ms


def fmt_ms(t):
    assert t % TPM == 0
    return "%d" % (t // TPM)


_DAY_CACHE = {}


def fmt_rfc3339_cet(t):
    """'"2026-11-20T11:15:02.345+01:00"' (quoted JSON string), whole ms only."""
    assert t % TPM == 0
    local = t // TPM + 3600000
    day, rem = divmod(local, DAY_MS)
    d = _DAY_CACHE.get(day)
    if d is None:
        d = (datetime(1970, 1, 1) + timedelta(days=day)).strftime("%Y-%m-%d")
        _DAY_CACHE[day] = d
    s, ms = divmod(rem, 1000)
    h, s = divmod(s, 3600)
    m, s = divmod(s, 60)
    return '"%sT%02d:%02d:%02d.%03d+01:00"' % (d, h, m, s, ms)


# ---------------------------------------------------------------------------
# sessions: one model per client, shared by sample and bench
# ---------------------------------------------------------------------------

class Session(object):
    __slots__ = ("sid", "app", "platform", "screen", "app_version", "empty", "fmt",
                 "mid", "tail", "events", "order", "keys", "truth", "plan")

    def __init__(self, rng, app, platform, plan, fmt, t0):
        # The recorders name a session like an event, by a UUIDv7 of its start.
        self.sid = new_event_id(rng, t0 - t0 % TPM)
        self.app = app
        self.platform = platform
        self.plan = plan
        self.screen = plan["screen"]
        self.app_version = plan["version"]
        self.empty = plan.get("empty", False)
        self.fmt = fmt
        dev, osv = rng.choice(PWA_DEVICES if platform == "pwa" else IOS_DEVICES)
        self.mid = ',"platform":"%s","app":"%s","type":"' % (platform, app)
        tail = ',"app_version":%s,"os_version":%s,"device":%s,"screen":%s' % (
            jstr(self.app_version), jstr(osv), jstr(dev), jstr(self.screen))
        if self.empty:
            tail += ',"empty":true'
        if plan.get("build"):
            tail += UNKNOWN_FIELD
        if plan.get("install_id"):
            tail += ',"install_id":%s' % jstr(plan["install_id"])
        self.tail = tail + "}"
        self.events = []  # [tick, build order, type, payload fragment, seq, event_id]
        self.truth = None

    def add(self, t, typ, frag=""):
        self.events.append([t, len(self.events), typ, frag, 0, None])

    def finish(self, rng, truth, swap=False, cut_after=None):
        """Sort, optionally cut (incomplete), give seq to events sharing a ts, give ids,
        and pick the order the events are written in (one adjacent pair swapped if asked)."""
        ev = self.events
        ev.sort(key=lambda e: (e[0], e[1]))
        if cut_after is not None:
            idx = [i for i, e in enumerate(ev) if e[2] == cut_after][0]
            del ev[idx + 1:]
        n = len(ev)
        i = 0
        while i < n:
            j = i
            while j + 1 < n and ev[j + 1][0] == ev[i][0]:
                j += 1
            if j > i:
                for k in range(i, j + 1):
                    ev[k][4] = k - i + 1
            i = j + 1
        for e in ev:
            e[5] = new_event_id(rng, e[0])
        order = list(range(n))
        keys = [e[0] for e in ev]
        if swap and n >= 3:
            p = rng.randrange(1, n - 1)  # swap positions p and p+1 in the file
            order[p], order[p + 1] = order[p + 1], order[p]
            keys[p] = keys[p + 1]
        # keys[j] is the file sort key of the j-th written event (non-decreasing)
        self.order = order
        self.keys = keys
        truth.setdefault("violations", {})
        truth["swapped"] = bool(swap and n >= 3)
        self.truth = truth
        return self

    def line(self, j):
        """JSON text (no line end) of the j-th event in file order."""
        e = self.events[self.order[j]]
        seq = ',"seq":%d' % e[4] if e[4] else ""
        return ('{"event_id":"%s","session_id":"%s","ts":%s%s%s%s"%s%s'
                % (e[5], self.sid, self.fmt(e[0]), seq, self.mid, e[2], e[3], self.tail))

    def start(self):
        return self.events[0][0]

    def end(self):
        return self.events[-1][0]


def draw(rng, lo_ms, hi_ms, q):
    """A duration in ticks, uniform in [lo_ms, hi_ms] ms, a multiple of the quantum q."""
    lo = -(-lo_ms * TPM // q)
    hi = hi_ms * TPM // q
    return q * rng.randint(lo, hi)


def quantize(ms, q):
    """A duration given in ms (float) -> ticks, rounded to a multiple of the quantum q."""
    return q * int(ms * TPM / q + 0.5)


def strata(rng, n, lo, hi):
    """n evenly spaced quantiles of uniform [lo, hi] (midpoints of n equal strata), shuffled."""
    out = [lo + (hi - lo) * (k + 0.5) / n for k in range(n)]
    rng.shuffle(out)
    return out


# padel sample loads: FAST_SHARE fast (200-980 ms), the rest slow (1500-4000 ms). With
# fewer than half fast, every platform's visible-time p50 lies inside the slow cluster,
# where the PWA and iOS clients behave the same (hold until the load + 20..180 ms).
FAST_SHARE = 0.4


def load_quantile(u):
    """Inverse CDF (ms) of the padel sample load mixture at u in (0, 1)."""
    if u < FAST_SHARE:
        return 200 + 780 * u / FAST_SHARE
    return 1500 + 2500 * (u - FAST_SHARE) / (1 - FAST_SHARE)


def load_hide_pairs(n):
    """n (load ms, hide delay ms) pairs: the loads are the n evenly spaced quantiles of the load
    mixture; within the fast and within the slow loads, the hide delays are the midpoints of
    equal strata of 20..180 ms, paired with the loads in golden-ratio order (a fixed
    low-discrepancy pairing, so loads close to each other get delays far apart)."""
    loads = [load_quantile((k + 0.5) / n) for k in range(n)]
    pairs = []
    for group in ([x for x in loads if x < 1000], [x for x in loads if x >= 1000]):
        m = len(group)
        order = sorted(range(m), key=lambda j: ((j * 0.6180339887498949) % 1.0, j))
        rank = {j: r for r, j in enumerate(order)}
        pairs.extend((x, 20 + 160 * (rank[j] + 0.5) / m) for j, x in enumerate(group))
    return pairs


def pull_samples(rng, t0, ios, target10, speed):
    """pull_move samples (tick, distance in tenths), strictly growing, ending at target10.
    iOS: every 16-17 ms; PWA: every 16-33 ms (tenths of ms)."""
    out = []
    t = t0
    d = 0.0
    last = 0
    while True:
        dt = 160 + 10 * rng.randint(0, 1) if ios else rng.randint(160, 330)
        t += dt
        d += speed * (dt / TPM) * rng.uniform(0.6, 1.4)
        d10 = int(d * 10 + 0.5)
        if d10 <= last:
            d10 = last + 1
        if d10 >= target10:
            out.append((t, target10))
            return out
        out.append((t, d10))
        last = d10


def offset_frag(rng, d10):
    # offset = distance x 0.72 +- 0.3, in hundredths
    off = (d10 * 72 + 5) // 10 + rng.randint(-30, 30)
    return ',"offset":%s' % num100(max(0, off))


def padel_machine_arms(d10):
    return d10 * 72 >= 24000  # distance * 0.72 >= 24, exact in tenths


# The Padel clients' gesture, in pieces shared with bench/verdicts.py (which builds faithful
# clients from them). Each piece draws from rng in the order build_padel always has, so the
# sample stays byte-identical.

def padel_pull_start(s, rng, ios, t0):
    """pull_start and the pulling label (iOS draws it in the same frame)."""
    s.add(t0, "pull_start")
    s.add(t0 if ios else t0 + rng.randint(3, 30), "label",
          ',"text":%s,"state":"pulling"' % jstr(PADEL_COPY["pulling"]))


def padel_pull_moves(s, rng, ios, samples, client_arms):
    """The pull_move samples, with the client's armed event and ready label at the first sample
    where client_arms(distance in tenths) holds. Returns (client arm, machine arm) in tenths,
    None where it never arms."""
    client_arm = machine_arm = None
    for t, d10 in samples:
        s.add(t, "pull_move", ',"distance":%s%s' % (num10(d10), offset_frag(rng, d10)))
        if machine_arm is None and padel_machine_arms(d10):
            machine_arm = d10
        if client_arm is None and client_arms(d10):
            client_arm = d10
            s.add(t, "armed", ',"distance":%s' % num10(d10))
            ready = PADEL_READY_NFD if ios else PADEL_COPY["ready"]  # iOS writes NFD: same copy
            s.add(t, "label", ',"text":%s,"state":"ready"' % jstr(ready))
    return client_arm, machine_arm


def padel_refresh_start(s, rng, ios, t_rel):
    """What follows an armed release: refresh_start, the balls indicator with the refreshing
    label, fetch_start. Returns the ticks of refresh_start and indicator_shown."""
    q = 10 if ios else 1
    t_rs = t_rel + draw(rng, 3, 25, q)
    s.add(t_rs, "refresh_start", "" if ios else ',"trigger":"pull"')
    t_sh = t_rs + draw(rng, 2, 30, q)
    s.add(t_sh, "indicator_shown", ',"indicator":' + IND_BALLS)
    s.add(t_sh + draw(rng, 0, 8, q), "label",
          ',"text":%s,"state":"refreshing"' % jstr(PADEL_COPY["refreshing"]))
    s.add(t_rs + draw(rng, 5, 40, q), "fetch_start")
    return t_rs, t_sh


def build_padel(rng, platform, plan, t0):
    ios = platform == "ios"
    q = 10 if ios else 1
    s = Session(rng, "padel", platform, plan, fmt_rfc3339_cet if ios else fmt_pwa, t0)
    outcome = plan["outcome"]
    viol = {}
    padel_pull_start(s, rng, ios, t0)
    if outcome in ("cancel_scroll", "cancel_release"):
        target10 = rng.randint(80, 210 if ios else 295)  # iOS < 22 (client arms at 24), PWA < 30
    else:
        target10 = rng.randint(450, 900)
    speed = plan["speed"] if "speed" in plan else rng.uniform(0.08, 0.22)
    samples = pull_samples(rng, t0, ios, target10, speed)
    # defect B: the iOS client arms on the raw distance, not on distance x resistance
    client_arms = (lambda d10: d10 >= 240) if ios else padel_machine_arms
    client_arm, machine_arm = padel_pull_moves(s, rng, ios, samples, client_arms)
    last = samples[-1][0]
    if outcome == "cancel_scroll":
        s.add(last + draw(rng, 10, 60, q), "cancel", ',"reason":"scroll_took_over"')
    elif outcome == "cancel_release":
        s.add(last + draw(rng, 4, 16, q), "release", ',"distance":%s' % num10(samples[-1][1]))
    if outcome.startswith("cancel"):
        assert client_arm is None and machine_arm is None
        return s.finish(rng, {"outcome": "cancelled", "trigger": "pull", "violations": viol},
                        swap=plan.get("swap", False))

    assert machine_arm is not None and client_arm is not None
    if ios:
        assert machine_arm - client_arm >= 30  # defect B: far more than 2 pt apart
        viol["arm_mismatch"] = 1
    else:
        assert machine_arm == client_arm
    t_rel = last + draw(rng, 4, 16, q)
    s.add(t_rel, "release", ',"distance":%s' % num10(samples[-1][1]))
    t_rs, t_sh = padel_refresh_start(s, rng, ios, t_rel)
    if "load_ms" in plan:  # sample: stratified, see padel_plans
        load = quantize(plan["load_ms"], q)
        assert (load < 1000 * TPM) == plan["fast"]
    else:
        load = draw(rng, 200, 980, q) if plan["fast"] else draw(rng, 1500, 4000, q)
    t_lc = t_rs + load
    s.add(t_lc, "load_complete", ',"ok":true')
    hold_end = max(t_sh + PADEL_MIN_HOLD * TPM, t_lc)
    if not ios and plan["fast"]:
        t_hid = t_lc + draw(rng, 30, 120, q)  # defect A: hides right after the load
        assert t_hid - t_sh <= (PADEL_MIN_HOLD - 20) * TPM
        flash = True
    else:
        if "hide_ms" in plan:  # sample: stratified, see padel_plans
            t_hid = hold_end + quantize(plan["hide_ms"], q)
        else:
            t_hid = hold_end + draw(rng, 20, 180, q)
        assert (PADEL_MIN_HOLD + 20) * TPM <= t_hid - t_sh and t_hid <= hold_end + 230 * TPM
        flash = False
    s.add(t_hid, "indicator_hidden")
    if outcome == "completed":
        if flash:
            viol["flash"] = 1
        return s.finish(rng, {"outcome": "completed", "trigger": "pull", "violations": viol},
                        swap=plan.get("swap", False))
    cut = "refresh_start" if outcome == "inc_refresh" else "indicator_shown"
    return s.finish(rng, {"outcome": "incomplete", "trigger": "pull", "violations": viol},
                    swap=plan.get("swap", False), cut_after=cut)


def build_ffci(rng, plan, t0):
    q = 10
    s = Session(rng, "ffci", "ios", plan, fmt_ms, t0)
    viol = {}
    defect = plan.get("defect")
    s.add(t0, "pull_start")
    thr10 = rng.randint(600, 750)  # the client's own arming point, 60-75 pt
    cancelled = plan["outcome"] == "cancel_release"
    target10 = rng.randint(150, 500) if cancelled else thr10 + rng.randint(80, 400)
    samples = pull_samples(rng, t0, True, target10, rng.uniform(0.15, 0.35))
    armed = False
    for t, d10 in samples:
        s.add(t, "pull_move", ',"distance":%s' % num10(d10))
        if not armed and d10 >= thr10:
            armed = True
            s.add(t, "armed", ',"distance":%s' % num10(d10))
    last = samples[-1][0]
    t_rel = last + draw(rng, 4, 16, q)
    s.add(t_rel, "release", ',"distance":%s' % num10(samples[-1][1]))
    if cancelled:
        assert not armed
        return s.finish(rng, {"outcome": "cancelled", "trigger": "pull", "violations": viol},
                        swap=plan.get("swap", False))
    assert armed
    t_rs = t_rel + draw(rng, 3, 25, q)
    s.add(t_rs, "refresh_start")
    t_sh = t_rs + draw(rng, 2, 30, q)
    s.add(t_sh, "indicator_shown", (',"indicator":' + IND_NATIVE) if plan["indicator"] else "")
    if plan["screen"] == "TabPageView":
        key = ',"key":"page:%s"' % new_uuid(rng)
        if defect == "C":
            t_f = t_rs + draw(rng, 3, 12, q)
            t_c = t_f + draw(rng, 2, 10, q)
            viol["cache_order"] = 1
        else:
            t_c = t_rs + draw(rng, 3, 12, q)
            t_f = t_c + draw(rng, 2, 10, q)
        s.add(t_c, "cache_invalidated", key)
        s.add(t_f, "fetch_start")
    else:
        s.add(t_rs + draw(rng, 3, 20, q), "fetch_start")
    fail = plan.get("fail")
    if fail == "timeout":
        load = draw(rng, 2500, 4000, q)
    elif fail == "offline":
        load = draw(rng, 200, 900, q)
    else:
        load = draw(rng, 200, 980, q) if plan["fast"] else draw(rng, 1500, 4000, q)
    t_lc = t_rs + load
    if defect == "E":
        t2 = t_sh + draw(rng, 60, 400, q)  # second refresh_start while refreshing
        assert t2 <= t_lc - 50 * TPM
        s.add(t2, "refresh_start")
        viol["double_refresh"] = 1
    if fail:
        s.add(t_lc, "load_complete", ',"ok":false,"error":"%s"' % fail)
    else:
        s.add(t_lc, "load_complete", ',"ok":true')
    t_hid = t_lc + draw(rng, 20, 200, q)  # min hold 0, slack 250
    s.add(t_hid, "indicator_hidden")
    if defect == "D":
        s.add(t_lc + draw(rng, 5, 40, q), "content_cleared")
        viol["content_cleared_on_error"] = 1
        viol["error_not_shown"] = 1
    elif fail:
        if plan.get("error_after_hide"):
            s.add(t_hid + draw(rng, 10, 80, q), "error_shown", ',"message":%s' % jstr(ERROR_MESSAGE))
        else:
            s.add(t_lc + draw(rng, 5, 15, q), "error_shown", ',"message":%s' % jstr(ERROR_MESSAGE))
    return s.finish(rng, {"outcome": "completed", "trigger": "pull", "violations": viol},
                    swap=plan.get("swap", False))


def phlock_hide(rng, t_sh, t_lc, q):
    hold_end = max(t_sh + PHLOCK_MIN_HOLD * TPM, t_lc)
    t_hid = hold_end + PHLOCK_FADE * TPM + draw(rng, 10, 30, q)  # slack 350: >= 20 ms clear
    assert t_hid <= hold_end + 330 * TPM
    return t_hid


def build_phlock(rng, plan, t0):
    q = 10
    s = Session(rng, "phlock", "ios", plan, fmt_ms, t0)
    viol = {}
    defect = plan.get("defect")
    if plan["outcome"] == "tab_reselect":
        s.add(t0, "scroll_to_top")
        t_rs = t0 + draw(rng, 600, 900, q)
        s.add(t_rs, "refresh_start", ',"trigger":"tab_reselect"')
        t_sh = t_rs + draw(rng, 2, 30, q)
        s.add(t_sh, "indicator_shown", ',"indicator":' + (IND_WAVE_BAD if defect == "G" else IND_WAVE))
        if defect == "G":
            viol["indicator_config"] = 1
        s.add(t_rs + draw(rng, 3, 20, q), "fetch_start")
        load = draw(rng, 200, 980, q) if plan["fast"] else draw(rng, 1500, 4000, q)
        t_lc = t_rs + load
        s.add(t_lc, "load_complete", ',"ok":true')
        s.add(phlock_hide(rng, t_sh, t_lc, q), "indicator_hidden")
        return s.finish(rng, {"outcome": "completed", "trigger": "tab_reselect", "violations": viol},
                        swap=plan.get("swap", False))

    cancelled = plan["outcome"] == "cancel_release"
    s.add(t0, "pull_start")
    target10 = rng.randint(300, 690) if cancelled else rng.randint(850, 1300)
    samples = pull_samples(rng, t0, True, target10, rng.uniform(0.12, 0.3))
    armed = False
    reveals = []
    full = False
    for t, d10 in samples:
        s.add(t, "pull_move", ',"distance":%s' % num10(d10))
        if not armed and d10 >= 800:
            armed = True
            s.add(t, "armed", ',"distance":%s' % num10(d10))
        if not full:
            hp = min(100, (d10 + 4) // 8)  # progress = min(1, d/80) in hundredths, half up
            full = hp == 100
            reveals.append([t + draw(rng, 1, 3, q), hp, min(5, hp // 20 + 1)])
    if defect == "F":
        window = [r for r in reveals if 40 <= r[1] <= 55]
        assert window
        rng.choice(window)[2] = 4  # bar 3 shown before progress 0.6
        viol["reveal_order"] = 1
    for t, hp, vis in reveals:
        s.add(t, "reveal", ',"progress":%s,"visible":%d' % (num100(hp), vis))
    last = samples[-1][0]
    t_rel = last + draw(rng, 5, 16, q)
    s.add(t_rel, "release", ',"distance":%s' % num10(samples[-1][1]))
    if cancelled:
        assert not armed
        return s.finish(rng, {"outcome": "cancelled", "trigger": "pull", "violations": viol},
                        swap=plan.get("swap", False))
    assert armed
    t_rs = t_rel + draw(rng, 3, 25, q)
    s.add(t_rs, "refresh_start", ',"trigger":"pull"')
    t_sh = t_rs + draw(rng, 2, 30, q)
    s.add(t_sh, "indicator_shown", ',"indicator":' + IND_WAVE)
    s.add(t_rs + draw(rng, 3, 20, q), "fetch_start")
    load = draw(rng, 200, 980, q) if plan["fast"] else draw(rng, 1500, 4000, q)
    t_lc = t_rs + load
    s.add(t_lc, "load_complete", ',"ok":true')
    s.add(phlock_hide(rng, t_sh, t_lc, q), "indicator_hidden")
    return s.finish(rng, {"outcome": "completed", "trigger": "pull", "violations": viol},
                    swap=plan.get("swap", False))


def build(rng, app, platform, plan, t0):
    if app == "padel":
        return build_padel(rng, platform, plan, t0)
    if app == "ffci":
        return build_ffci(rng, plan, t0)
    return build_phlock(rng, plan, t0)


# ---------------------------------------------------------------------------
# plans: fixed counts for sample, random draws for bench
# ---------------------------------------------------------------------------

def padel_plans(rng, platform, n=130):
    outcomes = (["cancel_scroll"] * 5 + ["cancel_release"] * 5 + ["inc_refresh"] * 2
                + ["inc_shown"] * 2)
    outcomes += ["completed"] * (n - len(outcomes))
    rng.shuffle(outcomes)
    refreshing = [i for i, o in enumerate(outcomes) if not o.startswith("cancel")]
    completed = [i for i, o in enumerate(outcomes) if o == "completed"]
    # Stratified draws, so both platforms get the same distributions and their p50s differ by
    # the planted defects only. The completed sessions get the (load, hide delay) pairs of
    # load_hide_pairs, shuffled: for the same count, both platforms get the same pairs. The
    # sessions that arm get n evenly spaced pull speeds, shuffled.
    pairs = load_hide_pairs(len(completed))
    rng.shuffle(pairs)
    load_of = {i: lh[0] for i, lh in zip(completed, pairs)}
    hide_of = {i: lh[1] for i, lh in zip(completed, pairs)}
    fast_of = {i: load_of[i] < 1000 for i in completed}
    for i in refreshing:
        if i not in fast_of:  # incomplete: the log stops before load_complete
            fast_of[i] = rng.random() < FAST_SHARE
    speed_of = dict(zip(refreshing, strata(rng, len(refreshing), 0.08, 0.22)))
    empties = set(rng.sample(range(n), n // 10))
    builds = set(rng.sample(range(n), 8))
    swaps = set(rng.sample(range(n), 7))
    screens = ["feed", "matches"] if platform == "pwa" else ["FeedView", "MatchesView"]
    version = "3.8.0" if platform == "pwa" else "3.8.1"
    plans = []
    for i, o in enumerate(outcomes):
        plans.append({"outcome": o, "fast": fast_of.get(i, False), "empty": i in empties,
                      "build": i in builds, "swap": i in swaps, "screen": rng.choice(screens),
                      "version": version})
        if i in load_of:
            plans[-1]["load_ms"] = load_of[i]
            plans[-1]["hide_ms"] = hide_of[i]
        if i in speed_of:
            plans[-1]["speed"] = speed_of[i]
    return plans


def ffci_plans(rng):
    screens = ["HomeView"] * 30 + ["TabPageView"] * 30 + ["CollectionListView"] * 30
    plans = [{"screen": sc, "version": "1.9.0", "outcome": "completed"} for sc in screens]
    by = {sc: [p for p in plans if p["screen"] == sc] for sc in ("HomeView", "TabPageView",
                                                                  "CollectionListView")}
    for p in rng.sample(by["TabPageView"], 4):
        p["defect"] = "C"
        p["version"] = "1.9.1"
    for p in rng.sample(by["CollectionListView"], 3):
        p["defect"] = "D"
        p["fail"] = rng.choice(["timeout", "offline"])
    free = lambda sc: [p for p in by[sc] if "defect" not in p]
    e1 = rng.choice(free("HomeView"))
    e2 = rng.choice(free("CollectionListView"))
    for p in (e1, e2):
        p["defect"] = "E"
    rest = [p for p in plans if "defect" not in p]
    for p in rng.sample(rest, 4):
        p["outcome"] = "cancel_release"
    rest = [p for p in rest if p["outcome"] == "completed"]
    for p in rng.sample(rest, 10):
        p["fail"] = rng.choice(["timeout", "offline"])
        p["error_after_hide"] = rng.random() < 0.5
    for p in plans:
        p.setdefault("fail", None)
        p["fast"] = False if p.get("defect") == "E" else rng.random() < 0.5  # E needs room
        p["indicator"] = rng.random() < 0.6
    rng.shuffle(plans)
    for i in rng.sample(range(len(plans)), 6):
        plans[i]["build"] = True
    for i in rng.sample(range(len(plans)), 5):
        plans[i]["swap"] = True
    return plans


def phlock_plans(rng):
    screens = ["Feed", "Shares", "Phlocks"]
    plans = []
    # 30 tab re-selects: enough for a verdict (a group needs 30 sessions) on their own.
    for i in range(30):
        plans.append({"outcome": "tab_reselect", "defect": "G" if i < 3 else None})
    for i in range(60):
        plans.append({"outcome": "cancel_release" if i >= 57 else "completed",
                      "defect": "F" if i < 5 else None})
    for p in plans:
        p["version"] = "2.0.3" if p["defect"] else "2.1.0"
        p["screen"] = rng.choice(screens)
        p["fast"] = rng.random() < 0.5
    rng.shuffle(plans)
    for i in rng.sample(range(len(plans)), 6):
        plans[i]["build"] = True
    for i in rng.sample(range(len(plans)), 5):
        plans[i]["swap"] = True
    return plans


def random_plan(rng, app, platform):
    """Bench: one session plan drawn with the sample's proportions."""
    r = rng.random()
    p = {"fast": rng.random() < 0.5, "build": rng.random() < 0.06, "swap": rng.random() < 0.05}
    if app == "padel":
        p["outcome"] = ("cancel_scroll" if r < 0.04 else "cancel_release" if r < 0.08 else
                        "inc_refresh" if r < 0.095 else "inc_shown" if r < 0.11 else "completed")
        p["empty"] = rng.random() < 0.1
        p["screen"] = rng.choice(["feed", "matches"] if platform == "pwa" else
                                 ["FeedView", "MatchesView"])
        p["version"] = "3.8.0" if platform == "pwa" else "3.8.1"
    elif app == "ffci":
        p["screen"] = rng.choice(["HomeView", "TabPageView", "CollectionListView"])
        p["version"] = "1.9.0"
        p["outcome"] = "cancel_release" if r < 0.045 else "completed"
        p["indicator"] = rng.random() < 0.6
        p["fail"] = None
        d = rng.random()
        if p["screen"] == "TabPageView" and d < 0.13:
            p["defect"], p["version"] = "C", "1.9.1"
        elif p["screen"] == "CollectionListView" and d < 0.1:
            p["defect"], p["fail"] = "D", rng.choice(["timeout", "offline"])
        elif d > 0.978:
            p["defect"], p["fast"] = "E", False
        elif rng.random() < 0.12:
            p["fail"] = rng.choice(["timeout", "offline"])
            p["error_after_hide"] = rng.random() < 0.5
        if p.get("defect") and p["outcome"] != "completed":
            p["outcome"] = "completed"
    else:
        p["screen"] = rng.choice(["Feed", "Shares", "Phlocks"])
        p["defect"] = None
        if r < 0.28:
            p["outcome"] = "tab_reselect"
            if rng.random() < 0.12:
                p["defect"] = "G"
        else:
            p["outcome"] = "cancel_release" if rng.random() < 0.05 else "completed"
            if p["outcome"] == "completed" and rng.random() < 0.08:
                p["defect"] = "F"
        p["version"] = "2.0.3" if p["defect"] else "2.1.0"
    return p


# ---------------------------------------------------------------------------
# sample mode
# ---------------------------------------------------------------------------

def schedule(rng, n, split_size=0):
    """Start ticks for n sessions: clusters of 1-4 sessions starting within 2.5 s of each other
    (so their events interleave), clusters >= 3 minutes apart. With split_size, one cluster of
    that many sessions in the middle starts within 1 s; its index range is returned."""
    sizes = []
    total = split_size
    while total < n:
        k = min(rng.choice([1, 1, 2, 2, 2, 3, 4]), n - total)
        sizes.append(k)
        total += k
    split_at = len(sizes) // 2 if split_size else None
    if split_size:
        sizes.insert(split_at, split_size)
    bases = sorted(rng.randint(WINDOW_START // 10000, WINDOW_END // 10000) * 10000
                   for _ in sizes)
    for i in range(1, len(bases)):
        bases[i] = max(bases[i], bases[i - 1] + 180 * 1000 * TPM)
    starts = []
    split_range = None
    for ci, (k, b) in enumerate(zip(sizes, bases)):
        spread = 1000 if ci == split_at else 2500
        if ci == split_at:
            split_range = (len(starts), len(starts) + k)
        starts.extend(sorted(b + 10 * rng.randint(0, spread) for _ in range(k)))
    assert starts[-1] < WINDOW_END + 3600 * 1000 * TPM
    return starts, split_range


def file_lines(sessions):
    """All events of these sessions in file order: sessions interleave by time."""
    items = []
    for si, s in enumerate(sessions):
        for j in range(len(s.events)):
            items.append((s.keys[j], si, j))
    items.sort()
    return [(sessions[si], j) for _, si, j in items]


class OutFile(object):
    """Lines of one output file, as bytes, with their terminators and what each line is."""

    def __init__(self, name):
        self.name = name
        self.lines = []  # [bytes text, bytes terminator, kind, extra]

    def add(self, text, kind="event", term=b"\n", extra=None):
        if isinstance(text, str):
            text = text.encode("utf-8")
        self.lines.append([text, term, kind, extra])

    def data(self):
        return b"".join(t + e for t, e, _, _ in self.lines)

    def stats(self):
        st = {"physical_lines": len(self.lines), "blank_lines": 0, "event_lines": 0,
              "stored_events": 0, "duplicate_lines": 0, "conflict_lines": 0,
              "quarantined_lines": 0, "crlf_lines": 0, "no_final_newline": False}
        for text, term, kind, _ in self.lines:
            if kind == "blank":
                st["blank_lines"] += 1
            elif kind == "bad":
                st["quarantined_lines"] += 1
            else:
                st["event_lines"] += 1
                if kind == "duplicate":
                    st["duplicate_lines"] += 1
                elif kind == "conflict":
                    st["conflict_lines"] += 1
                else:
                    st["stored_events"] += 1
            if term == b"\r\n" and text:
                st["crlf_lines"] += 1
        st["no_final_newline"] = bool(self.lines) and self.lines[-1][1] == b""
        return st


def write_bytes(path, data, gz=False):
    if gz:
        with open(path, "wb") as raw:
            with gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0, compresslevel=9) as g:
                g.write(data)
    else:
        with open(path, "wb") as f:
            f.write(data)


def empty_counts():
    return {"sessions": {"total": 0, "completed": 0, "cancelled": 0, "incomplete": 0},
            "violations": {k: 0 for k in KINDS}}


def add_counts(c, truth):
    c["sessions"]["total"] += 1
    c["sessions"][truth["outcome"]] += 1
    for k, v in truth["violations"].items():
        c["violations"][k] += v


def bad_line_specs(rng, t_base):
    """The deliberately bad lines: (reason category, description, bytes)."""
    def ev(**over):
        d = {"event_id": new_uuid(rng), "session_id": new_uuid(rng),
             "ts": (t_base + rng.randint(0, 600000)) // TPM, "platform": "pwa", "app": "padel",
             "type": "pull_move", "distance": 12.5, "app_version": "3.8.0", "screen": "feed"}
        for k, v in over.items():
            if v is None:
                del d[k]
            else:
                d[k] = v
        return json.dumps(d, ensure_ascii=False, separators=(",", ":"))

    specs = [
        ("not_json", "not JSON at all", b"garbage"),
        ("not_json", "single quotes are not JSON", b"{'a':1}"),
        ("not_json", "NaN is not a JSON number", ev(distance=float("nan")).encode()),
        ("not_json", "a valid object followed by trailing garbage",
         (ev(type="pull_start", distance=None) + ' {"oops"').encode()),
        ("not_object", "a JSON array (holding an event) is not an object",
         ("[" + ev(type="pull_start", distance=None) + "]").encode()),
        ("not_object", "a JSON string is not an object", b'"pull_start"'),
        ("missing_field", "no event_id", ev(event_id=None).encode()),
        ("missing_field", "no session_id", ev(session_id=None).encode()),
        ("wrong_type", "ts is a boolean", ev(ts=True).encode()),
        ("wrong_type", "platform is a number", ev(platform=42).encode()),
        ("unknown_type", "type pull_dance is not an event type",
         ev(type="pull_dance", distance=None).encode()),
        ("bad_ts", "ts string is not a date", ev(ts="yesterday").encode()),
        ("bad_ts", "ts string has no UTC offset (RFC 3339 requires one)",
         ev(ts="2026-11-20T10:15:02").encode()),
        ("invalid_utf8", "raw bytes C3 28 inside a string are not UTF-8",
         ev(type="label", distance=None, text="SLAPP", state="ready").encode()
         .replace(b"SLAPP", b"Sl\xc3\x28pp f\xc3\xb6r att uppdatera")),
        ("invalid_value", "event_id is 200 characters (limit 128)",
         ev(event_id="e" * 8 + "".join("%x" % rng.randrange(16) for _ in range(192))).encode()),
        ("invalid_value", "session_id is empty (limit 1-128 characters)",
         ev(session_id="").encode()),
    ]
    truncated = ev(type="release", distance=41.5)
    specs.append(("not_json", "truncated last line: cut mid-object, no newline",
                  truncated[: len(truncated) * 3 // 5].encode()))
    return specs


STUCK_AFTER_MS = 30000  # the built-in profiles' stuck_after_ms


def mark_stuck_refreshes(every):
    """Contract v1.1: a refresh whose log stops after refresh_start or indicator_shown is a stuck
    refresh once its app and platform's data (the newest event of either) has moved
    STUCK_AFTER_MS past its refresh_start."""
    newest = {}
    for app, plat, s in every:
        newest[(app, plat)] = max(newest.get((app, plat), 0), s.end())
    for app, plat, s in every:
        if s.truth["outcome"] != "incomplete":
            continue
        started = [e[0] for e in s.events if e[2] == "refresh_start"]
        if started and newest[(app, plat)] >= started[0] + STUCK_AFTER_MS * TPM:
            s.truth["violations"]["stuck_refresh"] = 1


def run_sample(out, seed, expected_path):
    rng = Random(seed)
    os.makedirs(out, exist_ok=True)
    groups = []  # (file label, sessions)

    # padel pwa
    plans = padel_plans(rng, "pwa")
    starts, _ = schedule(rng, len(plans))
    pwa = [build_padel(rng, "pwa", p, t) for p, t in zip(plans, starts)]

    # padel ios, one cluster of 6 split across two files
    plans = padel_plans(rng, "ios")
    completed = [i for i, p in enumerate(plans) if p["outcome"] == "completed"]
    split_plans = [plans[i] for i in rng.sample(completed, 6)]
    others = [p for p in plans if not any(p is q for q in split_plans)]
    for p in split_plans:
        p["swap"] = False
    starts, split_range = schedule(rng, len(plans), split_size=6)
    ordered = others[: split_range[0]] + split_plans + others[split_range[0]:]
    ios = [build_padel(rng, "ios", p, t) for p, t in zip(ordered, starts)]
    split_sessions = ios[split_range[0]: split_range[1]]
    cut = max(s.start() for s in split_sessions) + 300 * TPM
    assert all(s.end() > cut for s in split_sessions)

    # ffci, phlock
    plans = ffci_plans(rng)
    starts, _ = schedule(rng, len(plans))
    ffci = [build_ffci(rng, p, t) for p, t in zip(plans, starts)]
    plans = phlock_plans(rng)
    starts, _ = schedule(rng, len(plans))
    phlock = [build_phlock(rng, p, t) for p, t in zip(plans, starts)]

    # bad-lines.jsonl: two good padel pwa sessions (slow loads, clean) between the bad lines.
    # Their load and pull speed lie one below and one above the p50 of the stratified padel
    # draws, so adding them to padel/pwa leaves its p50s where they were.
    t_bad = (DAY0_MS + 2 * DAY_MS + 3 * 3600 * 1000) * TPM  # 2026-11-18T03:00Z
    good = [build_padel(rng, "pwa", {"outcome": "completed", "fast": False, "screen": "feed",
                                      "version": "3.8.0", "swap": False, "load_ms": load,
                                      "hide_ms": 100, "speed": speed}, t_bad + k * 900 * TPM)
            for k, (load, speed) in enumerate(((1700, 0.18), (3100, 0.12)))]

    files = {}
    file_of = {}  # session id -> file names

    def note(name, sess_lines):
        for s, _ in sess_lines:
            lst = file_of.setdefault(s.sid, [])
            if name not in lst:
                lst.append(name)

    # --- padel-pwa.jsonl: duplicates, one CRLF line, blank lines
    f = OutFile("padel-pwa.jsonl")
    pl = file_lines(pwa)
    note(f.name, pl)
    texts = [s.line(j) for s, j in pl]
    n = len(texts)
    conflict_idx = None
    for i, (s, j) in enumerate(pl):  # conflict target: the pull_start of a completed session
        if s.events[s.order[j]][2] == "pull_start" and s.truth["outcome"] == "completed" \
                and i > n // 3:
            conflict_idx = i
            break
    pick = [i for i in rng.sample(range(n // 4, n // 2), 6) if i != conflict_idx][:4]
    dup_src, crlf_idx = pick[:3], pick[3]
    dup_at = {}  # insert copy after this index
    for i in dup_src:
        dup_at.setdefault(i + rng.randint(40, 400), []).append(i)
    blank_at = rng.sample(range(10, n - 10), 3)
    blanks = {blank_at[0]: b"\n", blank_at[1]: b"\n", blank_at[2]: b"\r\n"}
    for i, t in enumerate(texts):
        f.add(t, term=b"\r\n" if i == crlf_idx else b"\n")
        for src in dup_at.get(i, []):
            f.add(texts[src], kind="duplicate")
        if i in blanks:
            f.add(b"", kind="blank", term=blanks[i])
    assert sum(map(len, dup_at.values())) == 3 and all(k < n for k in dup_at)
    files[f.name] = f
    conflict_text = texts[conflict_idx]
    conflict_sid = pl[conflict_idx][0].sid

    # --- padel-ios-1/2.jsonl
    il = file_lines(ios)
    f1, f2 = OutFile("padel-ios-1.jsonl"), OutFile("padel-ios-2.jsonl")
    p1 = [(s, j) for s, j in il if s.keys[j] < cut]
    p2 = [(s, j) for s, j in il if s.keys[j] >= cut]
    for fo, part in ((f1, p1), (f2, p2)):
        note(fo.name, part)
        for s, j in part:
            fo.add(s.line(j))
        files[fo.name] = fo
    straddle = [sid for sid, names in file_of.items() if len(names) == 2]
    assert sorted(straddle) == sorted(s.sid for s in split_sessions), straddle

    # --- ffci-ios.jsonl.gz, phlock-ios.jsonl
    for name, sess in (("ffci-ios.jsonl.gz", ffci), ("phlock-ios.jsonl", phlock)):
        fo = OutFile(name)
        part = file_lines(sess)
        note(name, part)
        for s, j in part:
            fo.add(s.line(j))
        files[name] = fo

    # --- bad-lines.jsonl
    fb = OutFile("bad-lines.jsonl")
    gl = file_lines(good)
    note(fb.name, gl)
    specs = bad_line_specs(rng, t_bad)
    conflict_line = conflict_text[:-1] + ',"resent":true}'
    specs.insert(12, ("conflict", "same event_id as a pull_start in padel-pwa.jsonl, different "
                      "content (an extra field)", conflict_line.encode()))
    good_texts = [s.line(j) for s, j in gl]
    nb = len(specs)
    per = len(good_texts) // nb
    assert per >= 2
    gi = 0
    for k, (reason, desc, raw) in enumerate(specs):
        take = per if k < nb - 1 else len(good_texts) - gi
        for _ in range(take):
            fb.add(good_texts[gi])
            gi += 1
        last = k == nb - 1
        fb.add(raw, kind="conflict" if reason == "conflict" else "bad",
               term=b"" if last else b"\n", extra=(reason, desc))
    assert gi == len(good_texts)
    files[fb.name] = fb

    # --- write
    names = sorted(files)
    for name in names:
        write_bytes(os.path.join(out, name), files[name].data(), gz=name.endswith(".gz"))

    # --- ground truth
    every = [("padel", "pwa", s) for s in pwa + good] + [("padel", "ios", s) for s in ios] + \
            [("ffci", "ios", s) for s in ffci] + [("phlock", "ios", s) for s in phlock]
    mark_stuck_refreshes(every)
    apps = {}
    for app, plat, s in every:
        g = apps.setdefault(app, {}).setdefault(plat, empty_counts())
        add_counts(g, s.truth)
        if app == "ffci":
            add_counts(g.setdefault("by_screen", {}).setdefault(s.screen, empty_counts()), s.truth)
        if app == "phlock":
            add_counts(g.setdefault("by_trigger", {}).setdefault(s.truth["trigger"],
                                                                 empty_counts()), s.truth)
    fstats = {name: files[name].stats() for name in names}
    for name in names:
        fstats[name]["sha256"] = hashlib.sha256(
            open(os.path.join(out, name), "rb").read()).hexdigest()
        fstats[name]["gzip"] = name.endswith(".gz")
    total_sessions = len(every)
    ingest = {
        "lines_read": sum(st["physical_lines"] for st in fstats.values()),
        "blank_lines": sum(st["blank_lines"] for st in fstats.values()),
        "events_stored": sum(st["stored_events"] for st in fstats.values()),
        "duplicates": sum(st["duplicate_lines"] for st in fstats.values()),
        "conflicts": sum(st["conflict_lines"] for st in fstats.values()),
        "quarantined": sum(st["quarantined_lines"] for st in fstats.values()),
        "sessions_derived": total_sessions,
    }
    assert ingest["events_stored"] == sum(len(s.events) for _, _, s in every)

    bad_rows = []
    offset = 0
    for i, (text, term, kind, extra) in enumerate(fb.lines):
        if kind in ("bad", "conflict"):
            bad_rows.append({"line": i + 1, "byte_offset": offset, "reason": extra[0],
                             "why": extra[1], "quarantined": kind == "bad"})
        offset += len(text) + len(term)
    by_reason = {}
    for r in bad_rows:
        if r["quarantined"]:
            by_reason[r["reason"]] = by_reason.get(r["reason"], 0) + 1

    def defect(kind, app, plat, pred, note_):
        sids = [s.sid for a, p, s in every if a == app and p == plat and pred(s)]
        return {"kind": kind, "app": app, "platform": plat, "count": sum(
            s.truth["violations"].get(kind, 0) for a, p, s in every if a == app and p == plat),
            "sessions": sorted(sids), "what": note_}

    vk = lambda k: (lambda s: k in s.truth["violations"])
    defects = {
        "A": defect("flash", "padel", "pwa", vk("flash"),
                    "PWA hides the indicator 30-120 ms after a fast load (< 1000 ms): visible < 1200"),
        "B": defect("arm_mismatch", "padel", "ios", vk("arm_mismatch"),
                    "iOS arms at raw distance >= 24, machine at distance x 0.72 >= 24"),
        "C": defect("cache_order", "ffci", "ios", vk("cache_order"),
                    "ffci 1.9.1 on TabPageView sends fetch_start before cache_invalidated"),
        "D1": defect("content_cleared_on_error", "ffci", "ios", vk("content_cleared_on_error"),
                     "CollectionListView failed load clears content"),
        "D2": defect("error_not_shown", "ffci", "ios", vk("error_not_shown"),
                     "same sessions: no error_shown after the failed load"),
        "E": defect("double_refresh", "ffci", "ios", vk("double_refresh"),
                    "second refresh_start while refreshing"),
        "F": defect("reveal_order", "phlock", "ios", vk("reveal_order"),
                    "phlock 2.0.3: one reveal with progress 0.40-0.55 reports visible 4"),
        "G": defect("indicator_config", "phlock", "ios", vk("indicator_config"),
                    "phlock 2.0.3 tab re-select: indicator cycle_ms 650"),
        "H1": defect("stuck_refresh", "padel", "pwa", vk("stuck_refresh"),
                     "the log stops after refresh_start or indicator_shown while later sessions go on"),
        "H2": defect("stuck_refresh", "padel", "ios", vk("stuck_refresh"),
                     "the log stops after refresh_start or indicator_shown while later sessions go on"),
    }
    sessions_map = {}
    for app, plat, s in sorted(every, key=lambda x: x[2].sid):
        sessions_map[s.sid] = {
            "app": app, "platform": plat, "screen": s.screen, "app_version": s.app_version,
            "outcome": s.truth["outcome"], "trigger": s.truth["trigger"],
            "empty": bool(s.empty), "events": len(s.events), "files": file_of[s.sid],
            "violations": {k: v for k, v in sorted(s.truth["violations"].items())},
        }
    boundary_reveals = sum(1 for s in phlock for e in s.events
                           if e[2] == "reveal" and any(e[3].startswith(',"progress":%s,' % b)
                                                       for b in ("0.20", "0.40", "0.60", "0.80")))
    expected = {
        "contract": "docs/events.md v1.1",
        "generator": {"command": "python3 scripts/generate_events.py sample", "seed": seed},
        "notes": [
            "Counts assume every *.jsonl and *.jsonl.gz file of this directory is ingested "
            "(README.md and EXPECTED.json are not logs).",
            "padel/pwa includes the 2 good sessions of bad-lines.jsonl.",
            "violations lists every kind of docs/events.md section 5; kinds with 0 must not appear.",
            "The conflict line of bad-lines.jsonl repeats a padel-pwa pull_start with one extra "
            "unknown field; whichever copy is kept first, the derived session is the same. "
            "Ingesting bad-lines.jsonl alone stores it as a 1-event incomplete padel/pwa session.",
        ],
        "ingest": ingest,
        "files": fstats,
        "apps": apps,
        "defects": defects,
        "bad_lines": {
            "file": "bad-lines.jsonl",
            "quarantined": len([r for r in bad_rows if r["quarantined"]]),
            "quarantined_by_reason": dict(sorted(by_reason.items())),
            "duplicates": 0,
            "conflicts": 1,
            "conflict_event_id": json.loads(conflict_text)["event_id"],
            "conflict_session_id": conflict_sid,
            "good_sessions": sorted(s.sid for s in good),
            "lines": bad_rows,
            "alone": {"sessions": 3, "completed": 2, "incomplete": 1, "violations": 0,
                      "events_stored": sum(len(s.events) for s in good) + 1},
        },
        "padel_pwa_line_features": {
            "duplicates": 3, "crlf_event_lines": 1, "blank_lines": 3,
            "blank_lines_with_cr": 1,
        },
        "padel_ios_split": {"sessions_in_both_files": sorted(s.sid for s in split_sessions),
                            "count": len(split_sessions)},
        "phlock_reveals_at_exact_bar_thresholds": boundary_reveals,
        "sessions_with_swapped_lines": sum(1 for _, _, s in every if s.truth.get("swapped")),
        "sessions": sessions_map,
    }
    sessions_map = expected.pop("sessions")
    text = json.dumps(expected, ensure_ascii=False, indent=1)
    assert text.endswith("\n}")
    rows = ",\n".join("  %s: %s" % (json.dumps(sid), json.dumps(v, ensure_ascii=False))
                       for sid, v in sessions_map.items())
    text = text[:-2] + ',\n "sessions": {\n' + rows + "\n }\n}\n"
    expected["sessions"] = sessions_map
    assert json.loads(text) == expected
    with open(expected_path, "w", encoding="utf-8") as fh:
        fh.write(text)
    with open(os.path.join(out, "README.md"), "w", encoding="utf-8") as fh:
        fh.write(readme(expected, names))
    return expected


def readme(x, names):
    a = x["apps"]
    ing = x["ingest"]
    fs = x["files"]
    d = x["defects"]

    def sess(g):
        s = g["sessions"]
        return "%d sessions (%d completed, %d cancelled, %d incomplete)" % (
            s["total"], s["completed"], s["cancelled"], s["incomplete"])

    rows = []
    what = {
        "bad-lines.jsonl": "17 malformed lines + 1 conflict, with 2 good padel/pwa sessions between them",
        "ffci-ios.jsonl.gz": "ffci/ios (gzip): HomeView, TabPageView, CollectionListView; ts epoch ms",
        "padel-ios-1.jsonl": "padel/ios, first part; ts RFC 3339 strings with +01:00",
        "padel-ios-2.jsonl": "padel/ios, second part (6 sessions began in part 1)",
        "padel-pwa.jsonl": "padel/pwa; ts epoch ms with fractions; 3 duplicate lines, 1 CRLF line, 3 blank lines (one is `\\r\\n`)",
        "phlock-ios.jsonl": "phlock/ios: pull and tab re-select refreshes; ts epoch ms",
    }
    for n in names:
        rows.append("| `%s` | %d | %s |" % (n, fs[n]["physical_lines"], what[n]))
    bad = "\n".join("| %d | %s | %s |" % (r["line"], r["reason"] if r["quarantined"] else
                                            "conflict (not quarantined)", r["why"])
                    for r in x["bad_lines"]["lines"])
    dl = "\n".join("| %s | `%s` | %s/%s | %d | %s |" % (k, v["kind"], v["app"], v["platform"],
                                                       v["count"], v["what"])
                   for k, v in d.items())
    return """# Sample event logs

Generated by `scripts/generate_events.py` (do not edit by hand; edit the script):

    python3 scripts/generate_events.py sample            # seed 7, writes this directory
    python3 scripts/generate_events.py bench --events 1000000 --out /tmp/bench.jsonl

The output is byte-identical on every run. `EXPECTED.json` is the generator's ground truth
(what it planted, per session), for the end-to-end tests. Ingest `*.jsonl` and `*.jsonl.gz`
only; this README and EXPECTED.json are not logs. Events follow the event contract
(docs/events.md, v1); some lines carry the unknown field
`"build":"2026.11.3"`, which must be kept, and ~5%% of sessions have two adjacent events
written in swapped order (their `ts`/`seq` give the true order).

| file | lines | content |
|---|---|---|
%s

(lines = physical lines, decompressed for the .gz file.)

Sessions: padel/pwa %s (including the 2 in bad-lines.jsonl); padel/ios %s;
ffci/ios %s; phlock/ios %s.
All ingested together: %d lines read (%d blank), %d events stored, %d duplicates,
%d conflict, %d quarantined, %d sessions.

## Planted defects (the only violations in these files)

| id | kind | app/platform | violations | what the client does |
|---|---|---|---|---|
%s

D1 and D2 are the same 3 sessions (one of each kind per session). H1 and H2 are the incomplete
sessions: the log stops after `refresh_start` or `indicator_shown` while the app's later
sessions go on, so under contract v1.1 each is a stuck refresh. Every other session is
correct: padel holds the indicator until max(shown + 1200, load) + 20..180 ms, ffci hides
20..200 ms after the load, phlock hides 310..330 ms after max(shown + 1300, load); all
draws keep >= 20 ms clear of the slack. Not defects: the padel iOS ready label is written
in NFD (canonically equal to the copy); padel `empty: true` sessions; cancelled sessions
(`cancel` with reason `scroll_took_over`, or a release below the threshold); ffci failed loads that
show `Kunde inte uppdatera` (before or after the indicator hides) and keep content; ffci
sessions without an `indicator` object.

Padel draws are stratified, not independent, so that the padel parity report fails on the
planted defects only (A and B), never on sampling noise: on each platform the completed
sessions get the same set of (load, hide delay) pairs, %d%% fast loads (200..980 ms) and
%d%% slow (1500..4000 ms) at evenly spaced quantiles, and the sessions that arm get evenly
spaced pull speeds (0.08..0.22 pt/ms), each shuffled with the seed. With fewer than half
the loads fast, the visible-time p50 of both platforms lies in the slow cluster, where PWA
and iOS behave the same. The 2 padel/pwa sessions of bad-lines.jsonl have one load and
speed below and one above those p50s. ffci and phlock loads are drawn at random (about
half fast).

## bad-lines.jsonl

Each bad line sits between good lines. Line numbers are 1-based.

| line | reason | why it is rejected |
|---|---|---|
%s

The conflict repeats event_id `%s` (a `pull_start` of padel-pwa.jsonl) with one extra field,
so the derived session is the same whichever copy is kept. The last line has no newline.

## EXPECTED.json

`ingest` (run totals when all files are ingested together), `files` (per file: physical,
blank, stored, duplicate, conflict, quarantined lines, sha256), `apps` (per app and platform:
sessions by outcome and violations by kind, every kind listed; ffci also `by_screen`, phlock
also `by_trigger`), `defects` (A-G with their session ids), `bad_lines` (line, byte offset,
reason of each bad line; `alone` = what ingesting bad-lines.jsonl by itself gives), and
`sessions` (per session id: app, platform, screen, version, outcome, trigger, event count,
files, violations).
""" % ("\n".join(rows), sess(a["padel"]["pwa"]), sess(a["padel"]["ios"]),
       sess(a["ffci"]["ios"]), sess(a["phlock"]["ios"]),
       ing["lines_read"], ing["blank_lines"], ing["events_stored"], ing["duplicates"],
       ing["conflicts"], ing["quarantined"], ing["sessions_derived"], dl,
       round(FAST_SHARE * 100), round((1 - FAST_SHARE) * 100), bad,
       x["bad_lines"]["conflict_event_id"])


# ---------------------------------------------------------------------------
# bench mode
# ---------------------------------------------------------------------------

BENCH_MIX = [("padel", "pwa", 0.3), ("padel", "ios", 0.3), ("ffci", "ios", 0.2),
             ("phlock", "ios", 0.2)]


def run_bench(n, out, seed, concurrency, expected_path, day=0):
    rng = Random(seed)
    t_begin = time.time()
    heap = []
    counter = 0
    now = WINDOW_START + day * DAY_MS * TPM
    written = 0
    done_counts = {}
    truncated = 0
    started = 0

    def pick_app():
        r = rng.random()
        for app, plat, w in BENCH_MIX:
            r -= w
            if r < 0:
                return app, plat
        return BENCH_MIX[-1][:2]

    def start_session(at):
        nonlocal counter, started
        app, plat = pick_app()
        s = build(rng, app, plat, random_plan(rng, app, plat), at)
        counter += 1
        started += 1
        heapq.heappush(heap, (s.keys[0], counter, 0, s))

    for _ in range(concurrency):
        start_session(now + rng.randint(0, 5000) * TPM)
    buf = []
    with open(out, "w", encoding="utf-8", newline="\n") as fh:
        while written < n:
            key, c, j, s = heapq.heappop(heap)
            buf.append(s.line(j))
            written += 1
            if j + 1 < len(s.events):
                heapq.heappush(heap, (s.keys[j + 1], c, j + 1, s))
            else:
                g = done_counts.setdefault("%s/%s" % (s.app, s.platform), empty_counts())
                add_counts(g, s.truth)
                start_session((key // TPM + rng.randint(1, 2000)) * TPM)  # whole ms
            if len(buf) >= 4096:
                fh.write("\n".join(buf))
                fh.write("\n")
                buf = []
        if buf:
            fh.write("\n".join(buf))
            fh.write("\n")
    truncated = len(heap)
    elapsed = time.time() - t_begin
    size = os.path.getsize(out)
    info = {"lines": written, "bytes": size, "avg_bytes_per_line": round(size / written, 1),
            "sessions_started": started, "sessions_complete_in_file": started - truncated,
            "sessions_cut_at_end": truncated, "seconds": round(elapsed, 2)}
    if expected_path:
        with open(expected_path, "w", encoding="utf-8") as fh:
            json.dump({"bench": info, "seed": seed,
                       "note": "counts cover the sessions written in full; the %d sessions "
                               "cut at the end of the file are not counted" % truncated,
                       "groups": done_counts,
                       "cut_session_ids": sorted(e[3].sid for e in heap)}, fh, indent=1)
            fh.write("\n")
    sys.stderr.write(json.dumps(info) + "\n")
    return info


def main(argv=None):
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="mode", required=True)
    sp = sub.add_parser("sample", help="rewrite sample-events/ and EXPECTED.json")
    sp.add_argument("--out", default=os.path.join(os.path.dirname(here), "sample-events"))
    sp.add_argument("--seed", type=int, default=7)
    sp.add_argument("--expected", default=None,
                    help="ground truth file (default: OUT/EXPECTED.json)")
    bp = sub.add_parser("bench", help="stream a large interleaved log")
    bp.add_argument("--events", type=int, required=True, help="number of lines to write")
    bp.add_argument("--out", required=True)
    bp.add_argument("--seed", type=int, default=1)
    bp.add_argument("--concurrency", type=int, default=40, help="sessions open at once")
    bp.add_argument("--expected", default=None)
    bp.add_argument("--ids", choices=["v7", "v4"], default="v7",
                    help="event ids: v7 (time-ordered, as the recorders write them) or v4 (random)")
    bp.add_argument("--day", type=int, default=0,
                    help="start this many days after 2026-11-16 (consecutive days of one history)")
    a = ap.parse_args(argv)
    if a.mode == "sample":
        run_sample(a.out, a.seed, a.expected or os.path.join(a.out, "EXPECTED.json"))
    else:
        if a.events < 1:
            ap.error("--events must be >= 1")
        global EVENT_IDS
        EVENT_IDS = a.ids
        run_bench(a.events, a.out, a.seed, a.concurrency, a.expected, a.day)


if __name__ == "__main__":
    main()
