// PullParity recorder for the web: records a PWA's pull-to-refresh as the event log that
// `pullparity ingest` reads (one JSON object per line, the event contract v1).
//
// No dependencies, no build step: import it as an ES module. Every public method catches its own
// errors and reports them to `onError` (and an `onError` that throws is caught too): recording
// must never break the app's gesture.

/**
 * @typedef {'pulling' | 'ready' | 'refreshing'} LabelState
 * @typedef {'pull' | 'tab_reselect' | 'programmatic'} RefreshTrigger
 * @typedef {{kind?: 'balls' | 'waveform' | 'native', count?: number, stagger_ms?: number,
 *   cycle_ms?: number}} IndicatorConfig
 * @typedef {{write(line: string): void, flush?(final: boolean): void}} EventSink
 * @typedef {{threshold: number, resistance?: number}} Arming the profile's arm threshold, on
 *   `distance × resistance`; without it the app's `armed`/`disarmed` calls say when it armed
 * @typedef {{getItem(key: string): string | null, setItem(key: string, value: string): void}} KeyValueStorage
 * @typedef {{
 *   app: string, appVersion?: string, platform?: string, profile?: string, screen?: string,
 *   empty?: boolean, osVersion?: string, device?: string, arming?: Arming,
 *   installId?: string | null, storage?: KeyValueStorage,
 *   sink: EventSink | ((line: string) => void),
 *   onError?: (error: unknown) => void,
 *   now?: () => number, wallNow?: () => number, monotonicNow?: () => number,
 *   random?: (bytes: Uint8Array) => Uint8Array, listen?: boolean
 * }} RecorderOptions `now` (epoch ms) is used as it is; without it `ts` is `monotonicNow`
 *   (`performance.now()`) anchored to `wallNow` (`Date.now()`) as AnchoredClock says.
 *   `installId`: the id stamped as `install_id`; `null` for none; by default one kept in
 *   `storage` (`localStorage`) under `INSTALL_ID_STORAGE_KEY`, made on first use.
 *   `listen` (default true): record `screen_left` when the page is hidden or unloaded (see
 *   `PullParityRecorder.screenLeft`)
 */

/** Where a session is, as far as it decides when the next one starts (the Core's phases). */
const Phase = Object.freeze({
  idle: 'idle', pulling: 'pulling', armed: 'armed', released: 'released',
  refreshing: 'refreshing', holding: 'holding', done: 'done', cancelled: 'cancelled',
  // The screen went away (`screen_left`): the session is over, whatever it still had running.
  left: 'left',
});

/**
 * Time-ordered UUIDs (RFC 9562 version 7): 48 bits of epoch ms, a 12-bit counter (method 1) and
 * 62 random bits, so ids from one recorder sort in the order they were made, even within one
 * millisecond or when the clock steps back.
 */
export class UUIDv7Generator {
  /** @param {(bytes: Uint8Array) => Uint8Array} [random] */
  constructor(random = (bytes) => crypto.getRandomValues(bytes)) {
    this.random = random;
    this.lastMs = 0;
    this.counter = 0;
  }

  /** @param {number} timestamp epoch ms @returns {string} */
  next(timestamp) {
    const ms = Number.isFinite(timestamp) ? Math.max(0, Math.floor(timestamp)) : 0;
    const bytes = this.random(new Uint8Array(10));
    if (ms > this.lastMs) {
      this.lastMs = ms;
      // Start low in the counter's range so that many ids in one millisecond still fit.
      this.counter = ((bytes[0] << 8) | bytes[1]) & 0x7ff;
    } else if (this.counter < 0xfff) {
      this.counter += 1;
    } else {
      this.lastMs += 1;
      this.counter = ((bytes[0] << 8) | bytes[1]) & 0x7ff;
    }
    const time = this.lastMs.toString(16).padStart(12, '0');
    const randA = (0x7000 | this.counter).toString(16);
    const tail = Array.from(bytes.subarray(2, 10), (b) => b.toString(16).padStart(2, '0')).join('');
    const variant = ((parseInt(tail.slice(0, 2), 16) & 0x3f) | 0x80).toString(16);
    const randB = variant + tail.slice(2);
    return `${time.slice(0, 8)}-${time.slice(8)}-${randA}-${randB.slice(0, 4)}-${randB.slice(4, 16)}`;
  }
}

/**
 * The Fetch spec's quota for a keepalive request body (and for all of a page's keepalive bodies
 * in flight, beacons included): over it, `fetch` fails with a network error.
 */
const KEEPALIVE_QUOTA_BYTES = 65536;

/**
 * Batches lines and POSTs them to `url` as JSON lines (`fetch`), and hands the oldest of them to
 * `navigator.sendBeacon` when the page is hidden or unloaded. Delivery is at least once: a line
 * leaves the queue only when a POST carrying it is acknowledged (a 2xx). A batch that fails
 * (network error or a non-2xx status) stays queued and is sent again, byte for byte, after a
 * delay that doubles up to `maxRetryDelayMs`; a beacon only says the browser queued it, so its
 * lines stay queued too. PullParity skips an event id it already stored, so a line that did
 * arrive twice costs nothing.
 *
 * Bodies are `text/plain;charset=UTF-8`, a CORS-safelisted type, so a collector on another
 * origin gets the POST without a preflight (it must answer with `Access-Control-Allow-Origin`
 * for the sink to see the acknowledgement). Every body stays within `maxBatchBytes` (UTF-8),
 * under the 64 KiB keepalive quota; a single line longer than that is POSTed alone without
 * `keepalive` and never beaconed.
 *
 * Every POST is given `requestTimeoutMs`: one that has not answered by then is aborted and
 * counts as failed (retried with its lines like any failure), so a request the network never
 * settles cannot hold the queue for the rest of the page's life.
 */
export class HttpEventSink {
  /**
   * @param {string} url
   * @param {{flushIntervalMs?: number, maxBatchLines?: number, maxBatchBytes?: number,
   *   retryDelayMs?: number, maxRetryDelayMs?: number, maxQueueLines?: number,
   *   requestTimeoutMs?: number,
   *   fetch?: typeof fetch, sendBeacon?: (url: string, body: Blob) => boolean,
   *   onError?: (error: unknown) => void, listen?: boolean}} [options]
   */
  constructor(url, options = {}) {
    this.url = url;
    this.flushIntervalMs = options.flushIntervalMs ?? 2000;
    this.maxBatchLines = Math.max(1, options.maxBatchLines ?? 200);
    this.maxBatchBytes = Math.min(options.maxBatchBytes ?? 60000, KEEPALIVE_QUOTA_BYTES);
    this.retryDelayMs = options.retryDelayMs ?? 1000;
    this.maxRetryDelayMs = Math.max(this.retryDelayMs, options.maxRetryDelayMs ?? 30000);
    this.maxQueueLines = Math.max(1, options.maxQueueLines ?? 10000);
    this.requestTimeoutMs = options.requestTimeoutMs ?? 15000;
    this.fetch = options.fetch ?? globalThis.fetch?.bind(globalThis);
    this.sendBeacon = options.sendBeacon ??
      (typeof navigator !== 'undefined' && navigator.sendBeacon ? navigator.sendBeacon.bind(navigator) : undefined);
    this.onError = options.onError ?? (() => {});
    /** @type {string[]} lines not yet acknowledged, oldest first */
    this.queue = [];
    /**
     * The POST out: how many of the queue's first lines it carries, and its body's bytes if it is
     * a keepalive request (they count against the quota the beacon shares), else 0.
     * @type {{lines: number, keepaliveBytes: number} | undefined}
     */
    this.request = undefined;
    this.timer = undefined;
    /** Whether the timer is a retry's: until it fires, writes only queue. */
    this.retrying = false;
    this.nextRetryDelayMs = this.retryDelayMs;
    /** Lines dropped from the queue's front because it was full. */
    this.dropped = 0;
    this.overflowReported = false;
    this.closed = false;
    /**
     * The queue's first lines that a keepalive POST or a beacon already carries since the page
     * was hidden, and the beacons' bytes: a second final flush in the same hide (the recorder's
     * `screen_left`, then this sink's own listener) beacons only what came after them.
     */
    this.beaconed = { lines: 0, bytes: 0 };
    this.listeners = options.listen !== false && typeof addEventListener === 'function' ? {
      pagehide: () => this.flush(true),
      visibilitychange: () => {
        if (document.visibilityState === 'hidden') this.flush(true);
        else this.beaconed = { lines: 0, bytes: 0 };
      },
      pageshow: () => { this.beaconed = { lines: 0, bytes: 0 }; },
      online: () => this.retryNow(),
    } : {};
    for (const [type, listener] of Object.entries(this.listeners)) addEventListener(type, listener);
  }

  /** How many of the queue's first lines are in flight. */
  get inFlight() {
    return this.request?.lines ?? 0;
  }

  /** @param {string} line */
  write(line) {
    try {
      if (this.closed) throw new Error('PullParity sink: closed; a line written after close() is not sent');
      this.queue.push(line);
      if (this.queue.length > this.maxQueueLines) this.dropOldest(this.queue.length - this.maxQueueLines);
      // A scheduled retry sends the queue; sending before it would undo the backoff.
      if (this.retrying) return;
      if (this.queue.length - this.inFlight >= this.maxBatchLines) this.flush(false);
      else this.schedule(this.flushIntervalMs);
    } catch (error) {
      this.report(error);
    }
  }

  /**
   * Sends what is queued, unless a retry is scheduled (it will). `final` (the page is going
   * away) beacons the oldest lines not yet acknowledged that no keepalive POST carries: both
   * outlive the page.
   * @param {boolean} [final]
   */
  flush(final = false) {
    try {
      if (final) return this.flushFinal();
      if (this.retrying || this.request || this.queue.length === 0) return;
      this.post();
    } catch (error) {
      this.report(error);
    }
  }

  /**
   * Hands `error` to `onError`. A handler that throws is ignored: its exception would otherwise
   * reach the recorder call that wrote the line (the app's gesture), or stop a retry from being
   * scheduled.
   * @param {unknown} error
   */
  report(error) {
    try {
      this.onError(error);
    } catch {
      // Nowhere left to report it without throwing into the app.
    }
  }

  /** Sends one last beacon, then stops: no listener, no timer, no POST after the one out. */
  close() {
    if (this.closed) return;
    this.flush(true);
    this.closed = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    for (const [type, listener] of Object.entries(this.listeners)) removeEventListener(type, listener);
  }

  /** @param {number} delay */
  schedule(delay) {
    if (this.timer !== undefined || this.closed) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.retrying = false;
      this.flush(false);
    }, delay);
  }

  /** The browser is back online: a waiting retry goes now. */
  retryNow() {
    if (!this.retrying) return;
    clearTimeout(this.timer);
    this.timer = undefined;
    this.retrying = false;
    this.flush(false);
  }

  post() {
    const { lines } = this.batch(0, this.maxBatchBytes, false);
    const body = lines.join('\n') + '\n';
    const bytes = utf8Length(body);
    const request = { lines: lines.length, keepaliveBytes: bytes <= this.maxBatchBytes ? bytes : 0 };
    this.request = request;
    const controller = typeof AbortController === 'function' ? new AbortController() : undefined;
    let timeout;
    // The first of the answer and the timeout settles the request; the other is ignored.
    const settle = (ok, error) => {
      clearTimeout(timeout);
      if (this.request !== request) return;
      this.request = undefined;
      if (ok) this.acknowledged(request.lines);
      else this.failed(error);
    };
    // Settled here, not by the abort's rejection: a `fetch` that ignores its signal (a polyfill,
    // a wrapper) must not hold the queue either.
    timeout = setTimeout(() => {
      settle(false, new Error(`PullParity sink: no answer from ${this.url} within ${this.requestTimeoutMs} ms`));
      controller?.abort();
    }, this.requestTimeoutMs);
    let response;
    try {
      response = Promise.resolve(this.fetch(this.url, {
        method: 'POST', body, keepalive: request.keepaliveBytes > 0,
        headers: { 'Content-Type': 'text/plain;charset=UTF-8' }, signal: controller?.signal,
      }));
    } catch (error) {
      response = Promise.reject(error);
    }
    response.then(
      (response) => settle(Boolean(response?.ok), new Error(`PullParity sink: HTTP ${response?.status} from ${this.url}`)),
      (error) => settle(false, error),
    );
  }

  /** @param {number} count */
  acknowledged(count) {
    this.queue.splice(0, count);
    this.forgetBeaconed(count);
    this.nextRetryDelayMs = this.retryDelayMs;
    this.overflowReported = false;
    if (this.queue.length > 0) this.schedule(0);
  }

  /** @param {unknown} error */
  failed(error) {
    this.report(error);
    if (this.closed) return;
    clearTimeout(this.timer);
    this.timer = undefined;
    this.schedule(this.nextRetryDelayMs);
    this.retrying = true;
    this.nextRetryDelayMs = Math.min(this.nextRetryDelayMs * 2, this.maxRetryDelayMs);
  }

  /** @param {number} count */
  dropOldest(count) {
    this.queue.splice(0, count);
    this.forgetBeaconed(count);
    this.dropped += count;
    if (this.request) this.request.lines = Math.max(0, this.request.lines - count);
    if (this.overflowReported) return;
    // Once per outage, not once per line: the app hears that lines are being lost.
    this.overflowReported = true;
    this.report(new Error(`PullParity sink: the queue holds at most ${this.maxQueueLines} lines; dropped the oldest`));
  }

  /** The queue's first `count` lines are gone: the beaconed ones among them no longer count. */
  forgetBeaconed(count) {
    const lines = Math.max(0, this.beaconed.lines - count);
    this.beaconed = { lines, bytes: lines > 0 ? this.beaconed.bytes : 0 };
  }

  /**
   * The oldest lines from the queue's index `from` whose body fits `budget` bytes, for a POST at
   * most `maxBatchLines` of them (a beacon is the last chance: only the quota limits it). A POST
   * takes a first line longer than `maxBatchBytes` alone; a beacon cannot carry one, so it skips
   * such lines. `end`: the queue's index after the last line taken.
   * @param {number} from @param {number} budget @param {boolean} beacon
   * @returns {{lines: string[], end: number, bytes: number}}
   */
  batch(from, budget, beacon) {
    const lines = [];
    let bytes = 0;
    let end = from;
    for (let index = from; index < this.queue.length; index++) {
      if (!beacon && lines.length === this.maxBatchLines) break;
      const line = this.queue[index];
      const size = utf8Length(line) + 1;
      if (size > this.maxBatchBytes) {
        if (beacon) continue;
        if (lines.length === 0) {
          lines.push(line);
          end = index + 1;
        }
        break;
      }
      if (bytes + size > budget) break;
      lines.push(line);
      bytes += size;
      end = index + 1;
    }
    return { lines, end, bytes };
  }

  flushFinal() {
    if (this.closed || this.queue.length === 0) return;
    // A keepalive POST out outlives the page too, and its body counts against the same quota:
    // the beacon carries the lines after it, in what the quota has left.
    // So does a beacon this hide already sent: the next one carries what came after it.
    const skip = Math.max(this.request?.keepaliveBytes ? this.request.lines : 0, this.beaconed.lines);
    const budget = Math.min(this.maxBatchBytes,
      KEEPALIVE_QUOTA_BYTES - (this.request?.keepaliveBytes ?? 0) - this.beaconed.bytes);
    const { lines, end, bytes } = this.batch(skip, budget, true);
    if (lines.length === 0 && this.beaconed.lines > 0) return;
    // A beacon is only queued by the browser, never acknowledged: its lines stay queued and go
    // again with the next POST if the page lives on.
    const body = new Blob([lines.join('\n') + '\n'], { type: 'text/plain;charset=UTF-8' });
    const queued = lines.length > 0 && this.sendBeacon && this.sendBeacon(this.url, body);
    if (queued) this.beaconed = { lines: end, bytes: this.beaconed.bytes + bytes };
    if (!queued && !this.request) {
      this.retrying = false;
      this.post();
    }
  }
}

/** The UTF-8 size of `text`, as the body goes on the wire (a lone surrogate as U+FFFD). */
function utf8Length(text) {
  let bytes = 0;
  for (const char of text) {
    const code = char.codePointAt(0);
    bytes += code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
  }
  return bytes;
}

/**
 * How far (ms) wall time must have moved from the anchor for a new session to follow it, as in the
 * Swift recorder's `SystemRecorderClock`. Below it, following wall time would only let a
 * back-to-back session start before the last one ended (a slew of a few ms) and move the anchor on
 * `Date.now()`'s whole (or coarsened) milliseconds; no UTC day or session order worth fixing is
 * wrong by less than a second. Above it are the drifts that matter: a clock stepped or set by hand,
 * a machine that slept while `performance.now()` stood still.
 */
const REANCHOR_THRESHOLD_MS = 1000;

/**
 * Epoch ms for `ts`: wall time advanced by a monotonic clock, so that a clock set mid-gesture never
 * corrupts a session's durations, anchored to wall time again when a session opens (`reanchor`)
 * if the wall-minus-monotonic offset moved by more than `REANCHOR_THRESHOLD_MS`, so that a tab open
 * for days still stamps its sessions on the right day.
 */
class AnchoredClock {
  /** @param {() => number} wallNow epoch ms @param {() => number} monotonicNow ms from any origin */
  constructor(wallNow, monotonicNow) {
    this.wallNow = wallNow;
    this.monotonicNow = monotonicNow;
    this.offset = wallNow() - monotonicNow();
  }

  now() {
    return this.offset + this.monotonicNow();
  }

  /** Called only when a session opens, before its first `ts` is read. */
  reanchor() {
    const offset = this.wallNow() - this.monotonicNow();
    if (Math.abs(offset - this.offset) > REANCHOR_THRESHOLD_MS) this.offset = offset;
  }
}

/** Wraps a callback as a sink: it gets every line as it is recorded. */
class CallbackEventSink {
  /** @param {(line: string) => void} callback */
  constructor(callback) {
    this.callback = callback;
  }

  /** @param {string} line */
  write(line) {
    this.callback(line);
  }
}

/** The `localStorage` key of the install id the recorder makes when the app gives none. */
export const INSTALL_ID_STORAGE_KEY = 'pullparity.install_id';

/**
 * A value the event format forbids, refused before anything is written: the method the app
 * called, the event's field, what the field must be and what it was. The message reads
 * `pullMove: distance must be a finite number ≥ 0, got -3`, as the Swift recorder's
 * `RecorderError` does.
 */
export class RecorderError extends Error {
  /** @param {string} method @param {string} field @param {string} requirement @param {unknown} value */
  constructor(method, field, requirement, value) {
    super(`${method}: ${field} must be ${requirement}, got ${describe(value)}`);
    this.name = 'RecorderError';
    this.method = method;
    this.field = field;
    this.requirement = requirement;
    this.value = value;
  }
}

/** `value` as an error message shows it, whatever it is (printing must not throw). */
function describe(value) {
  try {
    if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
    if (typeof value === 'bigint') return `${value}n`;
    if (typeof value === 'object' && value !== null) {
      const json = JSON.stringify(value);
      return json.length > 60 ? `${json.slice(0, 60)}…` : json;
    }
    return String(value);
  } catch {
    return Object.prototype.toString.call(value);
  }
}

const absent = (value) => value === undefined || value === null;
const optional = (test) => (value) => absent(value) || test(value);
const isString = (value) => typeof value === 'string';
const isBoolean = (value) => typeof value === 'boolean';
const isNumber = (value) => typeof value === 'number';
const isObject = (value) => typeof value === 'object' && value !== null && !Array.isArray(value);
const oneOf = (values) => (value) => values.includes(value);
/** The decoder reads a number as an integer only below 9e15, where a double still counts in ones. */
const isInteger = (value) => Number.isInteger(value) && Math.abs(value) < 9e15;

const DISTANCE = ['distance', (v) => isNumber(v) && v >= 0 && Number.isFinite(v), 'a finite number ≥ 0'];

/**
 * What `pullparity ingest` quarantines a line for, field by field (EventDecoder.swift), as the
 * line would be written: exactly that is refused, nothing more. A non-finite number has no JSON
 * spelling and is written as `null` (as the Swift recorder writes it), which ingest reads as no
 * value: refused where the field is required (`distance`, `progress`, `visible`), written where
 * it is optional (`offset`, the indicator's numbers), since ingest stores that line. Free text
 * (`reason`, `error`, `message`) may be anything.
 * @type {Map<string, Array<[string, (value: unknown) => boolean, string]>>}
 */
const PAYLOAD_RULES = new Map([
  ['pull_start', []],
  ['pull_move', [DISTANCE, ['offset', optional(isNumber), 'a number']]],
  ['armed', [DISTANCE]],
  ['disarmed', [DISTANCE]],
  ['release', [DISTANCE]],
  ['cancel', []],
  ['label', [
    ['text', isString, 'a string'],
    ['state', oneOf(['pulling', 'ready', 'refreshing']), 'one of pulling, ready, refreshing'],
  ]],
  ['refresh_start', [
    ['trigger', optional(oneOf(['pull', 'tab_reselect', 'programmatic'])), 'one of pull, tab_reselect, programmatic'],
    ['gesture_observed', optional(isBoolean), 'a boolean'],
  ]],
  ['indicator_shown', [
    ['indicator', optional(isObject), 'an object'],
    ['indicator.kind', optional(oneOf(['balls', 'waveform', 'native'])), 'one of balls, waveform, native'],
    ['indicator.count', optional((v) => isNumber(v) && (!Number.isFinite(v) || isInteger(v))), 'an integer'],
    ['indicator.stagger_ms', optional(isNumber), 'a number'],
    ['indicator.cycle_ms', optional(isNumber), 'a number'],
  ]],
  ['indicator_hidden', []],
  ['reveal', [
    ['progress', (v) => isNumber(v) && v >= 0 && v <= 1, 'a number from 0 to 1'],
    ['visible', (v) => isInteger(v) && v >= 0, 'an integer ≥ 0'],
  ]],
  ['scroll_to_top', []],
  ['cache_invalidated', [['key', isString, 'a string']]],
  ['fetch_start', []],
  ['load_complete', [['ok', isBoolean, 'a boolean']]],
  ['error_shown', []],
  ['content_cleared', []],
  ['screen_left', [['reason', optional(isString), 'a string']]],
]);

/** The rules for the fields the recorder stamps from its own properties on every line. */
const STAMPED_RULES = [['screen', optional(isString), 'a string'], ['empty', optional(isBoolean), 'a boolean']];

/** `pull_move` → `pullMove`: the method that records the type. */
const methodName = (type) => type.replace(/_([a-z])/g, (_, letter) => letter.toUpperCase());

/** Whether ingest takes `value` as an identifier: a string of 1–128 characters (grapheme clusters). */
function isIdentifier(value) {
  if (typeof value !== 'string' || value.length === 0) return false;
  if (value.length <= 128) return true;
  const characters = typeof Intl === 'object' && Intl.Segmenter
    ? [...new Intl.Segmenter().segment(value)].length : [...value].length;
  return characters <= 128;
}

/** A random (version 4) UUID: `crypto.randomUUID` where the page has it (secure contexts). */
function randomUUID(random = (bytes) => crypto.getRandomValues(bytes)) {
  if (typeof globalThis.crypto?.randomUUID === 'function') return globalThis.crypto.randomUUID();
  const bytes = random(new Uint8Array(16));
  bytes[6] = (bytes[6] & 0x0f) | 0x40;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * Records a page's pull-to-refresh, one method per moment of the gesture, and writes each event
 * as one JSON line to the sink. Stamps `event_id` (UUIDv7), `session_id`, `ts` (epoch ms,
 * sub-millisecond: `performance.now()`, monotonic within a session, anchored to `Date.now()` again
 * when a session opens and wall time moved more than a second), `seq` (from 0 per session),
 * `platform`, `app`, `app_version`, `screen`, `empty` and `install_id`.
 *
 * Sessions split where the pipeline splits them: `pullStart` always opens one; `refreshStart`
 * and `scrollToTop` open one when the last has ended (indicator hidden, pull cancelled or released
 * short of arming), and a refresh that no finger of the recorder's started (another trigger, or
 * `gestureObserved: false`) also when the last pull never released; any other event joins the
 * last session, even an ended one (a late `loadComplete` or `errorShown` belongs to it).
 *
 * A value the format forbids (a negative distance, a label state that is not one) is refused:
 * no line, and `onError` hears a `RecorderError` naming the method and the field.
 */
export class PullParityRecorder {
  /** @param {RecorderOptions} options */
  constructor(options = /** @type {RecorderOptions} */ ({})) {
    this.app = options.app;
    this.appVersion = options.appVersion;
    this.platform = options.platform ?? 'pwa';
    this.profile = options.profile;
    this.osVersion = options.osVersion;
    this.device = options.device;
    /** The screen stamped on the next events (`feed`). */
    this.screen = options.screen;
    /** Whether the screen has no content, stamped on the next events; `undefined` leaves it out. */
    this.empty = options.empty;
    this.onError = options.onError ?? ((error) => console.warn('PullParity recorder:', error));
    this.sink = typeof options.sink === 'function' ? new CallbackEventSink(options.sink) : options.sink;
    this.clock = options.now ? { now: options.now, reanchor() {} } : new AnchoredClock(
      options.wallNow ?? (() => Date.now()), options.monotonicNow ?? (() => performance.now()));
    this.ids = new UUIDv7Generator(options.random);
    this.arming = options.arming;
    /** The `install_id` on every line, or `undefined` for none. */
    this.installId = this.installIdFrom(options);
    /** @type {{id: string, nextSeq: number, phase: string} | undefined} */
    this.session = undefined;
    // Capture listeners on the window: they run before the sink's own page-hide listeners
    // (bubbling ones on the window), so the beacon those send carries the `screen_left` too.
    this.listeners = options.listen !== false && typeof addEventListener === 'function' ? {
      pagehide: () => this.pageGone('navigation'),
      visibilitychange: () => {
        if (document.visibilityState === 'hidden') this.pageGone('background');
      },
    } : {};
    for (const [type, listener] of Object.entries(this.listeners)) addEventListener(type, listener, { capture: true });
  }

  /**
   * The page is hidden or unloaded: an open session records `screen_left`, and the sink is told
   * to send it now (`flush(true)`), before the page dies.
   * @param {string} reason
   */
  pageGone(reason) {
    if (!this.sessionOpen) return;
    this.screenLeft(reason);
    try {
      this.sink.flush?.(true);
    } catch (error) {
      this.report(error);
    }
  }

  /** Whether a session is under way: a pull, or a refresh not yet hidden. */
  get sessionOpen() {
    return this.session !== undefined && OPEN_PHASES.has(this.session.phase);
  }

  /** The session the next event joins unless it starts a new one. */
  get currentSessionId() {
    return this.session?.id;
  }

  pullStart() { this.record('pull_start'); }
  /** @param {number} distance finger travel in CSS px @param {number} [offset] the drawn offset */
  pullMove(distance, offset) { this.record('pull_move', { distance, offset }); }
  /** @param {number} distance */
  armed(distance) { this.record('armed', { distance }); }
  /** @param {number} distance */
  disarmed(distance) { this.record('disarmed', { distance }); }
  /** @param {number} distance */
  release(distance) { this.record('release', { distance }); }
  /** @param {string} [reason] */
  cancel(reason) { this.record('cancel', { reason }); }
  /** @param {string} text @param {LabelState} state */
  label(text, state) { this.record('label', { text, state }); }
  /**
   * @param {RefreshTrigger} [trigger]
   * @param {{gestureObserved?: boolean}} [options] `gestureObserved: false` for a pull refresh the
   *   page only heard of through a library's `onRefresh`, with no `pullStart` before it: it
   *   starts a session of its own, as a programmatic refresh does
   */
  refreshStart(trigger = 'pull', options = undefined) {
    this.recordBuilt('refresh_start', () => {
      const observed = options?.gestureObserved;
      // Written only when false: a line without it is an observed refresh.
      return { trigger, gesture_observed: observed === true ? undefined : observed };
    });
  }
  /** @param {IndicatorConfig} [config] */
  indicatorShown(config) {
    this.recordBuilt('indicator_shown', () => ({
      // Members in the Swift recorder's order, whatever order the app wrote them in; anything
      // but an object is left as it is, for the check to refuse.
      indicator: isObject(config)
        ? { kind: config.kind, count: config.count, stagger_ms: config.stagger_ms, cycle_ms: config.cycle_ms }
        : config,
    }));
  }
  indicatorHidden() { this.record('indicator_hidden'); }
  /** @param {boolean} ok @param {string} [error] */
  loadComplete(ok, error) { this.record('load_complete', { ok, error }); }
  /** @param {string} [message] */
  errorShown(message) { this.record('error_shown', { message }); }
  contentCleared() { this.record('content_cleared'); }
  /** @param {number} progress 0–1 @param {number} visible bars shown */
  reveal(progress, visible) { this.record('reveal', { progress, visible }); }
  scrollToTop() { this.record('scroll_to_top'); }
  /** @param {string} key */
  cacheInvalidated(key) { this.record('cache_invalidated', { key }); }
  fetchStart() { this.record('fetch_start'); }
  /**
   * The screen of the session went away: `screen_left` with `reason` (`navigation`,
   * `background`, `closed`, or another token), recorded only while a session is open (a pull,
   * or a refresh not yet hidden), so at most once per session. The session ends there: what
   * else it would have recorded (a load ending, the indicator hidden on a page that lives on)
   * is not written, and the next pull or refresh opens a new one. The recorder calls it itself
   * on `pagehide` (`navigation`) and when the document is hidden (`background`); call it for a
   * screen that goes away while the page stays (a single-page app's route change).
   * @param {string} [reason]
   */
  screenLeft(reason) {
    if (this.sessionOpen) this.record('screen_left', { reason });
  }

  /** Stops listening for the page going away (the recorder is no longer used). */
  close() {
    for (const [type, listener] of Object.entries(this.listeners)) removeEventListener(type, listener, { capture: true });
    this.listeners = {};
  }

  /** Ends the current session without an event (the screen went away): the next event opens one. */
  closeSession() {
    this.session = undefined;
  }

  /** Hands queued lines to the sink's transport now (a batched sink sends them). */
  flush() {
    try {
      this.sink.flush?.(false);
    } catch (error) {
      this.report(error);
    }
  }

  /**
   * Records any event type with its payload fields; the methods above all come here. A type
   * the contract does not know, or a value it forbids, is refused (see `RecorderError`).
   * @param {string} type @param {Record<string, unknown>} [payload]
   */
  record(type, payload = {}) {
    try {
      const refusal = this.refusal(type, payload);
      if (refusal) return this.report(refusal);
      const opens = !this.session || opensSession(type, payload, this.session.phase);
      // The screen of that session went away: nothing more of it is recorded.
      if (!opens && this.session.phase === Phase.left) return;
      if (opens) this.clock.reanchor();
      const ts = this.clock.now();
      if (opens) this.session = { id: this.ids.next(ts), nextSeq: 0, phase: Phase.idle };
      const seq = this.session.nextSeq++;
      this.session.phase = nextPhase(this.session.phase, type, payload, this.arming);
      this.sink.write(this.line(type, payload, ts, seq));
    } catch (error) {
      this.report(error);
    }
  }

  /** Records `type` with what `build` returns: reading the app's arguments may throw too. */
  recordBuilt(type, build) {
    let payload;
    try {
      payload = build();
    } catch (error) {
      return this.report(error);
    }
    this.record(type, payload);
  }

  /** The `RecorderError` for the first field of the line ingest would quarantine, if any. */
  refusal(type, payload) {
    const rules = PAYLOAD_RULES.get(type);
    if (!rules) return new RecorderError('record', 'type', 'an event type of the contract', type);
    for (const [field, test, requirement] of rules) {
      const value = field.split('.').reduce((object, key) => object?.[key], payload);
      if (!test(value)) return new RecorderError(methodName(type), field, requirement, value);
    }
    for (const [field, test, requirement] of STAMPED_RULES) {
      if (!test(this[field])) return new RecorderError(methodName(type), field, requirement, this[field]);
    }
    return undefined;
  }

  /**
   * Hands `error` to `onError`. A handler that throws is ignored: its exception would otherwise
   * reach the app's gesture code, which called the recorder.
   * @param {unknown} error
   */
  report(error) {
    try {
      this.onError(error);
    } catch {
      // Nowhere left to report it without throwing into the app.
    }
  }

  /**
   * The id to stamp as `install_id`: the one given, none for `null`, else the one kept in
   * `storage` under `INSTALL_ID_STORAGE_KEY` (made and kept on first use). A storage that
   * throws (private browsing, storage disabled, a sandboxed frame) costs only the id: `onError`
   * hears it, once, and the recorder records without one.
   */
  installIdFrom(options) {
    const given = options.installId;
    if (given === null) return undefined;
    if (given !== undefined) {
      if (isIdentifier(given)) return given;
      this.report(new RecorderError('PullParityRecorder', 'installId', 'a string of 1–128 characters', given));
      return undefined;
    }
    try {
      // Reading `localStorage` itself throws where storage is denied.
      const storage = options.storage ?? globalThis.localStorage;
      const kept = storage.getItem(INSTALL_ID_STORAGE_KEY);
      if (isIdentifier(kept)) return kept;
      const made = randomUUID(options.random);
      storage.setItem(INSTALL_ID_STORAGE_KEY, made);
      return made;
    } catch (error) {
      this.report(new Error(`PullParity recorder: no install_id, the storage failed: ${describe(String(error))}`,
        { cause: error }));
      return undefined;
    }
  }

  /** The event as one line, fields in the order the Swift recorder writes them. */
  line(type, payload, ts, seq) {
    const event = {
      event_id: this.ids.next(ts), session_id: this.session.id, ts, seq,
      platform: this.platform, app: this.app, type, ...payload,
      profile: this.profile, app_version: this.appVersion, os_version: this.osVersion,
      device: this.device, screen: this.screen, empty: this.empty, install_id: this.installId,
    };
    // JSON.stringify drops undefined fields; null is kept out the same way.
    return JSON.stringify(event, (key, value) => (value === null ? undefined : value));
  }
}

/** The phases of a session under way, which `screen_left` ends. */
const OPEN_PHASES = new Set([Phase.pulling, Phase.armed, Phase.released, Phase.refreshing, Phase.holding]);

/**
 * A refresh that no finger the recorder saw started: another trigger, or a pull only the app's
 * `onRefresh` heard of (`gesture_observed: false`).
 */
function unstarted(payload) {
  return (payload.trigger ?? 'pull') !== 'pull' || payload.gesture_observed === false;
}

/**
 * A pull always starts a session. A refresh or a scroll-to-top starts one when the last session
 * has ended, and a refresh no finger started also when the last pull never released (it was
 * abandoned). Anything else joins, where a refresh during a refresh is the double refresh it is.
 */
function opensSession(type, payload, phase) {
  const ended = phase === Phase.done || phase === Phase.cancelled || phase === Phase.left;
  switch (type) {
    case 'pull_start': return true;
    case 'refresh_start':
      return ended || (unstarted(payload) && (phase === Phase.pulling || phase === Phase.armed));
    case 'scroll_to_top': return ended;
    default: return false;
  }
}

/**
 * The phase after an event, as the Core machine moves it: with the profile's threshold a
 * `pull_move` decides arming, without one the app's `armed`/`disarmed` do; a release short of
 * arming ends the pull; a pull refresh fired while the finger is still down starts refreshing.
 */
function nextPhase(phase, type, payload, arming) {
  const pulling = phase === Phase.pulling || phase === Phase.armed;
  const running = phase === Phase.refreshing || phase === Phase.holding;
  switch (type) {
    case 'pull_start': return phase === Phase.idle ? Phase.pulling : phase;
    case 'pull_move':
      if (!pulling || !arming) return phase;
      // The pipeline's slack, so binary rounding at the threshold splits sessions as it does.
      return payload.distance * (arming.resistance ?? 1) >= arming.threshold - 1e-6 ? Phase.armed : Phase.pulling;
    case 'armed': return pulling && !arming ? Phase.armed : phase;
    case 'disarmed': return pulling && !arming ? Phase.pulling : phase;
    case 'release': return pulling ? (phase === Phase.armed ? Phase.released : Phase.cancelled) : phase;
    case 'cancel': return pulling || phase === Phase.released ? Phase.cancelled : phase;
    case 'refresh_start':
      if (phase === Phase.released || (phase === Phase.idle && unstarted(payload))) return Phase.refreshing;
      // Fired before the finger lifted (early, or on reaching the threshold): the refresh runs,
      // and the rest of the drag belongs to it.
      return pulling && !unstarted(payload) ? Phase.refreshing : phase;
    case 'load_complete': return phase === Phase.refreshing ? Phase.holding : phase;
    case 'indicator_hidden': return running ? Phase.done : phase;
    case 'screen_left': return OPEN_PHASES.has(phase) ? Phase.left : phase;
    default: return phase;
  }
}

/**
 * Records the refreshes of a library that draws its own spinner and shows it before it calls the
 * app back (pulltorefresh.js shows it at the release and calls `onRefresh` 500 ms later): each
 * time `shown()` turns true a refresh begins (`refreshStart('pull', { gestureObserved: false })`
 * and `indicatorShown(indicator)`), and when it turns false again the indicator is hidden
 * (`indicatorHidden()`), as the user sees it, not as the callback hears it. `shown` is asked
 * again after every change under `root` (a MutationObserver on its subtree: elements added or
 * removed, `class`, `style` and `hidden`), so it may look for an element the library has not
 * made yet. The app records the load from its callback as usual (`fetchStart`,
 * `loadComplete`), after calling `sync()`: a library that calls back in the task that showed
 * the spinner would otherwise be heard before the observer reports the change. `shownForMs`
 * says how long the user has already seen the spinner (measured from just after its
 * `indicator_shown`), so that the app can hold it for the profile's minimum visible time.
 * @param {PullParityRecorder} recorder
 * @param {{shown: () => boolean, root?: Node, indicator?: IndicatorConfig,
 *   monotonicNow?: () => number}} options
 * @returns {{readonly shown: boolean, readonly shownForMs: number, sync(): void, disconnect(): void}}
 */
export function watchIndicator(recorder, {
  shown, root = document, indicator = undefined, monotonicNow = () => performance.now(),
}) {
  let up = false;
  let shownAt = 0;
  const check = () => {
    let now;
    try {
      now = Boolean(shown());
    } catch (error) {
      return recorder.report(error);
    }
    if (now === up) return;
    up = now;
    if (now) {
      recorder.refreshStart('pull', { gestureObserved: false });
      recorder.indicatorShown(indicator);
      // After the line's `ts`: a hold of `min − shownForMs` never ends short of the minimum.
      shownAt = monotonicNow();
    } else {
      recorder.indicatorHidden();
    }
  };
  const observer = new MutationObserver(check);
  observer.observe(root, { subtree: true, childList: true, attributes: true, attributeFilter: ['class', 'style', 'hidden'] });
  check();
  return {
    get shown() { return up; },
    get shownForMs() { return up ? monotonicNow() - shownAt : 0; },
    sync() {
      observer.takeRecords();
      check();
    },
    disconnect() { observer.disconnect(); },
  };
}
