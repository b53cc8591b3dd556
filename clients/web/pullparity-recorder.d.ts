// Types of pullparity-recorder.js (the JSDoc there is the source of truth).

export type LabelState = 'pulling' | 'ready' | 'refreshing';
export type RefreshTrigger = 'pull' | 'tab_reselect' | 'programmatic';

export interface IndicatorConfig {
  kind?: 'balls' | 'waveform' | 'native';
  count?: number;
  stagger_ms?: number;
  cycle_ms?: number;
}

/** Where the recorder writes each event, as one JSON line without the line end. */
export interface EventSink {
  write(line: string): void;
  /** Sends what is queued; `final` when the page is going away. */
  flush?(final: boolean): void;
}

/** The profile's arm threshold, on `distance × resistance` (default 1). */
export interface Arming {
  threshold: number;
  resistance?: number;
}

export interface RecorderOptions {
  app: string;
  appVersion?: string;
  /** `pwa` unless given. */
  platform?: string;
  /** The profile's name when it is not `app`'s. */
  profile?: string;
  screen?: string;
  empty?: boolean;
  osVersion?: string;
  device?: string;
  /** With it, `pullMove` decides arming as the pipeline does; without it `armed`/`disarmed` do. */
  arming?: Arming;
  /**
   * Stamped as `install_id` on every line (1–128 characters; identifies an install, not a
   * person). `null`: none. Left out: a random UUID kept in `storage` under
   * `INSTALL_ID_STORAGE_KEY`, made on first use; if the storage throws, none (`onError` hears it
   * once).
   */
  installId?: string | null;
  /** Where the default install id is kept (`localStorage` unless given). */
  storage?: Pick<Storage, 'getItem' | 'setItem'>;
  /** A sink, or a callback that gets every line. */
  sink: EventSink | ((line: string) => void);
  /**
   * Hears what went wrong (a `RecorderError` for a refused value); nothing is ever thrown into
   * the app, not even what this handler throws.
   */
  onError?: (error: unknown) => void;
  /** Epoch ms, used as it is (never re-anchored); given, `wallNow` and `monotonicNow` are unused. */
  now?: () => number;
  /**
   * Epoch ms (`Date.now()` unless given): `ts` is anchored to it when the recorder is made, and
   * again when a session opens if it moved more than 1000 ms from `monotonicNow` + the anchor.
   */
  wallNow?: () => number;
  /** Ms from any origin, never stepping back (`performance.now()` unless given): `ts` within a session. */
  monotonicNow?: () => number;
  /** Fills the array with random bytes; `crypto.getRandomValues` unless given. */
  random?: (bytes: Uint8Array) => Uint8Array;
  /**
   * Record `screen_left` when the page goes away (default true): `navigation` on `pagehide`,
   * `background` when the document is hidden, each only while a session is open, then
   * `flush(true)` on the sink so that the line leaves with the page's last beacon.
   */
  listen?: boolean;
}

/** The `localStorage` key of the default install id: `pullparity.install_id`. */
export declare const INSTALL_ID_STORAGE_KEY: string;

/**
 * A value the event format forbids, refused with no line written. The message names both:
 * `pullMove: distance must be a finite number ≥ 0, got -3`.
 */
export declare class RecorderError extends Error {
  /** The recorder method called (`pullMove`), `record` for an unknown type, `PullParityRecorder` for options. */
  readonly method: string;
  /** The event's field (`distance`, `indicator.count`, `screen`), or the option (`installId`). */
  readonly field: string;
  readonly requirement: string;
  readonly value: unknown;
}

export declare class UUIDv7Generator {
  constructor(random?: (bytes: Uint8Array) => Uint8Array);
  next(timestamp: number): string;
}

export interface HttpSinkOptions {
  /** How long a line waits for company before it is sent (default 2000 ms). */
  flushIntervalMs?: number;
  /** Lines per POST (default 200). */
  maxBatchLines?: number;
  /**
   * UTF-8 bytes per POST body and per beacon (default 60000, at most 65536, the keepalive
   * quota). A single longer line is POSTed alone without `keepalive`, and never beaconed.
   */
  maxBatchBytes?: number;
  /** Wait before a failed batch is sent again (default 1000 ms), doubled after each failure. */
  retryDelayMs?: number;
  /** The longest wait between retries (default 30000 ms); a success resets it. */
  maxRetryDelayMs?: number;
  /** Lines kept unacknowledged (default 10000); beyond, the oldest are dropped and `onError` hears it. */
  maxQueueLines?: number;
  /** How long a POST may go unanswered (default 15000 ms): then it is aborted and retried as a failure. */
  requestTimeoutMs?: number;
  fetch?: typeof fetch;
  sendBeacon?: (url: string, body: Blob) => boolean;
  onError?: (error: unknown) => void;
  /** Beacon on `pagehide` and `visibilitychange`, retry at once on `online` (default true). */
  listen?: boolean;
}

export declare class HttpEventSink implements EventSink {
  constructor(url: string, options?: HttpSinkOptions);
  /** Lines not yet acknowledged, oldest first. */
  readonly queue: readonly string[];
  /** How many of the queue's first lines are in flight. */
  readonly inFlight: number;
  /** Lines dropped because the queue was full. */
  readonly dropped: number;
  write(line: string): void;
  /** Sends what is queued now, unless a retry is scheduled; `final` beacons the oldest lines. */
  flush(final?: boolean): void;
  /** One last beacon, then no listener, no timer and no further POST; later writes are refused. */
  close(): void;
}

export declare class PullParityRecorder {
  constructor(options: RecorderOptions);
  screen: string | undefined;
  empty: boolean | undefined;
  readonly currentSessionId: string | undefined;
  /** The `install_id` stamped on every line, if any. */
  readonly installId: string | undefined;

  pullStart(): void;
  pullMove(distance: number, offset?: number): void;
  armed(distance: number): void;
  disarmed(distance: number): void;
  release(distance: number): void;
  cancel(reason?: string): void;
  label(text: string, state: LabelState): void;
  /**
   * `gestureObserved: false`: a pull refresh the page only heard of through a library's
   * `onRefresh` (no `pullStart` before it); it opens a session as a programmatic refresh does.
   */
  refreshStart(trigger?: RefreshTrigger, options?: { gestureObserved?: boolean }): void;
  indicatorShown(config?: IndicatorConfig): void;
  indicatorHidden(): void;
  loadComplete(ok: boolean, error?: string): void;
  errorShown(message?: string): void;
  contentCleared(): void;
  reveal(progress: number, visible: number): void;
  scrollToTop(): void;
  cacheInvalidated(key: string): void;
  fetchStart(): void;
  /**
   * `screen_left` (v1.2): the screen of the session went away (`navigation`, `background`,
   * `closed` or another token). Recorded only while a session is open, so at most once per
   * session; the session ends, and nothing more of it is written.
   */
  screenLeft(reason?: string): void;
  /** Stops listening for the page going away. */
  close(): void;
  closeSession(): void;
  flush(): void;
  record(type: string, payload?: Record<string, unknown>): void;
}

/** What `watchIndicator` is watching. */
export interface IndicatorWatch {
  /** Whether the library's indicator is up, as last seen. */
  readonly shown: boolean;
  /** How long the indicator has been up (ms, from just after its `indicator_shown`); 0 when down. */
  readonly shownForMs: number;
  /** Records a change not yet reported by the observer: call it first in the library's callback. */
  sync(): void;
  disconnect(): void;
}

/**
 * Records the refreshes of a library that shows its own spinner before it calls the app back
 * (pulltorefresh.js): `shown()` turning true records `refreshStart('pull', { gestureObserved:
 * false })` and `indicatorShown(indicator)`, turning false `indicatorHidden()`. `shown` is asked
 * again after every change under `root` (default `document`): nodes added or removed, `class`,
 * `style`, `hidden`.
 */
export declare function watchIndicator(
  recorder: PullParityRecorder,
  options: {
    shown: () => boolean;
    root?: Node;
    indicator?: IndicatorConfig;
    /** Ms from any origin, for `shownForMs` (`performance.now()` unless given). */
    monotonicNow?: () => number;
  },
): IndicatorWatch;
