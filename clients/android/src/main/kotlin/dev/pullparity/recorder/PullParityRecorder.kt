package dev.pullparity.recorder

/**
 * Records an Android app's pull-to-refresh as the event log `pullparity` ingests
 * (docs/events.md), one method per moment of the gesture, with the web and Swift recorders' API
 * and guarantees:
 *
 * | call | event |
 * |---|---|
 * | [pullStart] | `pull_start` (opens a session) |
 * | [pullMove] (distance, offset) | `pull_move` |
 * | [armed], [disarmed], [release] (distance) | `armed`, `disarmed`, `release` |
 * | [cancel] | `cancel` |
 * | [label] | `label` |
 * | [refreshStart] (trigger, gestureObserved) | `refresh_start` (opens a session when the last has ended, or when no finger was seen to start it and the last pull never released) |
 * | [indicatorShown], [indicatorHidden] | `indicator_shown`, `indicator_hidden` |
 * | [fetchStart], [loadComplete] | `fetch_start`, `load_complete` |
 * | [errorShown], [contentCleared] | `error_shown`, `content_cleared` |
 * | [reveal], [scrollToTop], [cacheInvalidated] | `reveal`, `scroll_to_top`, `cache_invalidated` |
 * | [screenLeft] (reason) | `screen_left`, only while a session is open; the session ends there |
 * | [closeSession] | no event: the next event opens a session |
 *
 * Each event is stamped with a time-ordered `event_id` (UUIDv7, [EventIdSource]), the
 * `session_id`, `ts` (epoch ms with fraction from [RecorderClock], re-anchored to wall time only
 * when a session opens), a `seq` from 0 within the session, `platform` (`android` unless given),
 * the app's identity, `screen` and `empty` as set, and `install_id` from [InstallIdStore], and
 * written as one JSON line to the [EventSink], field for field as the Swift recorder writes it.
 * Distances are in dp.
 *
 * Nothing here throws into the app: a value the format forbids (a negative or non-finite
 * distance or offset, reveal progress outside 0–1, a negative `visible`, a missing label state,
 * trigger or key from Java) is refused, no line is written, and `onError` hears why; so does a
 * sink that throws. Thread-safe: every call takes one lock, so the main thread and a loader may
 * record at once, and each session's `seq`s are contiguous in the order of the calls. The sink
 * runs under the lock; `onError` runs after it.
 *
 * [behaviour] gives the app the profile's numbers (threshold, resistance, minimum hold, label
 * copy), and the recorder splits sessions with the same threshold the pipeline uses.
 */
class PullParityRecorder(
    val app: String,
    val appVersion: String? = null,
    val platform: String = "android",
    /** The profile's name when it is not [app]'s; picks [behaviour] unless one is given. */
    val profile: String? = null,
    screen: String? = null,
    val osVersion: String? = null,
    val device: String? = null,
    private val sink: EventSink,
    /** Where the install's random id is kept; `null` writes no `install_id`. */
    private val installIds: InstallIdStore? = null,
    clock: RecorderClock = SystemRecorderClock(),
    private val ids: EventIdSource = UUIDv7Generator(),
    /** The profile's numbers; the built-in profile named [profile] (or [app]) unless given. */
    behaviour: PullToRefreshBehaviour? = null,
    private val onError: (PullParityError) -> Unit = printPullParityError
) {
    val behaviour: PullToRefreshBehaviour = behaviour ?: PullToRefreshBehaviour.named(profile ?: app)

    private val lock = Any()
    private var clock: RecorderClock = clock
    private val tracker = SessionTracker(this.behaviour, ids)
    private var screenValue: String? = screen
    private var emptyValue: Boolean? = null
    private var installIdRead = false
    private var installId: String? = null
    private val identityError: String? = when {
        app.length == 0 -> "app is empty"
        !PLATFORM.matches(platform) -> "platform \"$platform\" is not a lowercase token (a-z, 0-9, _ and -)"
        else -> null
    }

    init {
        identityError?.let {
            report(PullParityError(PullParityError.Kind.INVALID_IDENTITY, "$it: this recorder writes no line"))
        }
    }

    /** The screen stamped on the next events (`FeedFragment`, `feed`). */
    var screen: String?
        get() = synchronized(lock) { screenValue }
        set(value) = synchronized(lock) { screenValue = value }

    /** Whether the screen has no content, stamped on the next events; `null` leaves it out. */
    var empty: Boolean?
        get() = synchronized(lock) { emptyValue }
        set(value) = synchronized(lock) { emptyValue = value }

    /** The session the next event joins unless it starts a new one; `null` before the first. */
    val currentSessionId: String? get() = synchronized(lock) { tracker.currentSessionId }

    fun pullStart() = record("pull_start", Step.PullStart)

    /** The finger has travelled [distance] dp since [pullStart]; [offset] is where the indicator is drawn. */
    fun pullMove(distance: Double, offset: Double? = null) =
        record("pull_move", Step.PullMove(distance), refuseDistance("distance", distance)) {
            // Refused only where ingest would quarantine the line, as the web and Swift recorders
            // do: an offset may be negative, and one JSON cannot hold is left out.
            it.number("distance", distance).number("offset", finiteOrNull(offset))
        }

    fun armed(distance: Double) = recordDistance("armed", Step.Armed, distance)
    fun disarmed(distance: Double) = recordDistance("disarmed", Step.Disarmed, distance)
    fun release(distance: Double) = recordDistance("release", Step.Release, distance)

    fun cancel(reason: String? = null) = record("cancel", Step.Cancel) { it.string("reason", reason) }

    fun label(text: String?, state: LabelState?) =
        record("label", Step.Other, refuseMissing("label text", text) ?: refuseMissing("label state", state)) {
            it.string("text", text).string("state", state?.wire)
        }

    /**
     * The refresh began. [gestureObserved] is false when the app only heard of the pull through
     * its library's `onRefresh` callback and never saw the finger (`SwipeRefreshLayout`,
     * Compose's `pullRefresh` without its state): such a refresh opens a session of its own, as
     * a tab re-select or programmatic refresh does, and the line says `"gesture_observed":false`.
     */
    fun refreshStart(trigger: RefreshTrigger? = RefreshTrigger.PULL, gestureObserved: Boolean = true) {
        val unobserved = trigger != RefreshTrigger.PULL || !gestureObserved
        record("refresh_start", Step.RefreshStart(unobserved), refuseMissing("refresh trigger", trigger)) {
            it.string("trigger", trigger?.wire).bool("gesture_observed", if (gestureObserved) null else false)
        }
    }

    fun indicatorShown(config: IndicatorConfig? = null) =
        record("indicator_shown", Step.Other) { json ->
            if (config != null) {
                json.obj("indicator", JsonObjectWriter()
                    .string("kind", config.kind?.wire)
                    .integer("count", config.count)
                    .number("stagger_ms", finiteOrNull(config.staggerMs))
                    .number("cycle_ms", finiteOrNull(config.cycleMs)))
            }
        }

    fun indicatorHidden() = record("indicator_hidden", Step.IndicatorHidden)

    fun loadComplete(ok: Boolean, error: String? = null) =
        record("load_complete", Step.LoadComplete) { it.bool("ok", ok).string("error", error) }

    fun errorShown(message: String? = null) = record("error_shown", Step.Other) { it.string("message", message) }

    fun contentCleared() = record("content_cleared", Step.Other)

    /** Waveform bars revealed while pulling: [visible] bars at [progress] (0–1). */
    fun reveal(progress: Double, visible: Int) {
        val refusal = when {
            !progress.isFinite() || progress < 0 || progress > 1 -> "reveal progress $progress is not within 0–1"
            visible < 0 -> "reveal visible $visible is negative"
            else -> null
        }
        record("reveal", Step.Other, refusal) { it.number("progress", progress).integer("visible", visible) }
    }

    fun scrollToTop() = record("scroll_to_top", Step.ScrollToTop)

    fun cacheInvalidated(key: String?) =
        record("cache_invalidated", Step.Other, refuseMissing("cache key", key)) { it.string("key", key) }

    fun fetchStart() = record("fetch_start", Step.Other)

    /**
     * The screen of the session went away (contract v1.2): `screen_left` with [reason]
     * (`navigation`, `background`, `closed`, or another token), recorded only while a session
     * is open (a pull, or a refresh not yet hidden), so at most once per session. The session
     * ends there: what else it would record (a load that ends, the indicator hidden later) is
     * not written, and the next pull or refresh opens a new session. Call it from the
     * screen's `onPause` or `onStop` (docs/instrumenting.md, "Android").
     */
    fun screenLeft(reason: String? = null) =
        record("screen_left", Step.ScreenLeft) { it.string("reason", reason) }

    /** Ends the current session without an event (the screen went away): the next event opens one. */
    fun closeSession() = synchronized(lock) { tracker.close() }

    /** Hands buffered lines to the sink's transport now (the HTTP sink sends them). */
    fun flush() = guarded { sink.flush() }

    /** Flushes and closes the sink. */
    fun close() = guarded { sink.close() }

    private fun recordDistance(type: String, step: Step, distance: Double) =
        record(type, step, refuseDistance("distance", distance)) { it.number("distance", distance) }

    private fun record(type: String, step: Step, refusal: String? = null, payload: (JsonObjectWriter) -> Unit = {}) {
        if (identityError != null) return
        if (refusal != null) {
            report(PullParityError(PullParityError.Kind.REFUSED_VALUE, "$type refused: $refusal; no line written"))
            return
        }
        val failures = ArrayList<PullParityError>()
        try {
            synchronized(lock) { recordLocked(type, step, payload, failures) }
        } catch (error: Exception) {
            failures += PullParityError(PullParityError.Kind.SINK, "$type: ${error.message ?: error.toString()}", error)
        }
        failures.forEach(::report)
    }

    /** Stamps and writes one event; adds what went wrong to [failures] instead of throwing it. */
    private fun recordLocked(
        type: String, step: Step, payload: (JsonObjectWriter) -> Unit, failures: MutableList<PullParityError>
    ) {
        readInstallId()?.let { failures += it }
        // Nothing open to leave; nothing more of a session whose screen went away.
        if (step is Step.ScreenLeft && !tracker.sessionOpen) return
        if (tracker.joinsLeftSession(step)) return
        // The clock is read under the lock so that `ts` and `seq` agree on the order.
        val opens = tracker.opensSession(step)
        if (opens) clock = clock.reanchored()
        val timestamp = clock.epochMilliseconds()
        if (!(timestamp >= EARLIEST_TS && timestamp < LATEST_TS)) {
            failures += PullParityError(PullParityError.Kind.REFUSED_VALUE,
                "$type refused: the clock gave ts $timestamp, outside 2000–2100; no line written")
            return
        }
        val (sessionId, seq) = tracker.stamp(step, opens, timestamp)
        val eventId = ids.nextId(timestamp)
        for (id in listOf(eventId, sessionId)) {
            if (id.length == 0 || id.codePointCount(0, id.length) > 128) {
                failures += PullParityError(PullParityError.Kind.REFUSED_VALUE,
                    "$type refused: the id source gave \"$id\", not 1–128 characters; no line written")
                return
            }
        }
        val json = JsonObjectWriter()
            .string("event_id", eventId)
            .string("session_id", sessionId)
            .number("ts", timestamp)
            .integer("seq", seq)
            .string("platform", platform)
            .string("app", app)
            .string("type", type)
        payload(json)
        json.string("profile", profile)
            .string("app_version", appVersion)
            .string("os_version", osVersion)
            .string("device", device)
            .string("screen", screenValue)
            .bool("empty", emptyValue)
            .string("install_id", installId)
        sink.write(json.finished())
    }

    /** Reads the install id once, at the first event; a failure is reported once. */
    private fun readInstallId(): PullParityError? {
        if (installIdRead) return null
        installIdRead = true
        val store = installIds ?: return null
        return try {
            val id = store.installId()
            if (isValidInstallId(id)) {
                installId = id
                null
            } else {
                PullParityError(PullParityError.Kind.INSTALL_ID,
                    "install id \"$id\" is not 1–128 characters; lines are written without it")
            }
        } catch (error: Exception) {
            PullParityError(PullParityError.Kind.INSTALL_ID,
                "cannot read the install id (${error.message ?: error}); lines are written without it", error)
        }
    }

    private fun guarded(body: () -> Unit) {
        try {
            body()
        } catch (error: Exception) {
            report(PullParityError(PullParityError.Kind.SINK, error.message ?: error.toString(), error))
        }
    }

    private fun report(error: PullParityError) {
        try {
            onError(error)
        } catch (ignored: Exception) {
            // The app's own handler failed: there is no one left to tell.
        }
    }

    private companion object {
        val PLATFORM = Regex("^[a-z0-9_-]+$")
        const val EARLIEST_TS = 946684800000.0 // 2000-01-01
        const val LATEST_TS = 4102444800000.0 // 2100-01-01

        fun refuseDistance(name: String, value: Double?): String? = when {
            value == null -> null
            !value.isFinite() -> "$name $value is not a finite number"
            value < 0 -> "$name $value is negative"
            else -> null
        }

        fun refuseMissing(name: String, value: Any?): String? = if (value == null) "$name is missing" else null

        /** A number JSON can hold, else none: the recorders leave such an optional field out. */
        fun finiteOrNull(value: Double?): Double? = value?.takeIf { it.isFinite() }
    }
}
