package dev.pullparity.recorder

/**
 * Where the recorder reads `ts` from: Unix epoch milliseconds, fraction kept. Injected so that
 * tests (and gesture scripts) decide time; apps use [SystemRecorderClock].
 */
interface RecorderClock {
    fun epochMilliseconds(): Double

    /**
     * The clock to stamp the session that opens now with, and every event that joins it. The
     * recorder calls it when an event opens a session, before it reads that event's `ts`, and
     * never inside a session, so a clock may move to wall time here without corrupting a
     * gesture's durations. By default the clock itself.
     */
    fun reanchored(): RecorderClock = this
}

/**
 * Wall-clock time advanced by a monotonic clock, anchored to wall time again when a session
 * opens: the Swift and web recorders' clock, by the same rule.
 *
 * Inside a session `ts` is the anchor plus monotonic time: sub-millisecond, and never stepping
 * back when the system clock is adjusted mid-gesture. When a session opens, [reanchored] reads
 * both clocks again and adopts the new wall-minus-monotonic offset only if it moved by more than
 * 1,000 ms (a clock set by hand, a device that slept), so sessions land on the right day while
 * back-to-back sessions are never reordered by a few milliseconds of jitter.
 *
 * On Android pass `monotonicMilliseconds = { SystemClock.elapsedRealtimeNanos() / 1e6 }`, which
 * keeps counting in deep sleep as the user's wait does; the default, `System.nanoTime()`, is
 * what the JVM has.
 */
class SystemRecorderClock private constructor(
    private val wallMilliseconds: () -> Double,
    private val monotonicMilliseconds: () -> Double,
    /** Wall time minus monotonic time, read when the clock was last anchored. */
    private val offset: Double
) : RecorderClock {
    constructor(
        wallMilliseconds: () -> Double = { System.currentTimeMillis().toDouble() },
        monotonicMilliseconds: () -> Double = { System.nanoTime() / 1e6 }
    ) : this(wallMilliseconds, monotonicMilliseconds, wallMilliseconds() - monotonicMilliseconds())

    override fun epochMilliseconds(): Double = offset + monotonicMilliseconds()

    override fun reanchored(): RecorderClock {
        val current = wallMilliseconds() - monotonicMilliseconds()
        if (Math.abs(current - offset) <= REANCHOR_THRESHOLD_MS) return this
        return SystemRecorderClock(wallMilliseconds, monotonicMilliseconds, current)
    }

    companion object {
        /** How far wall time must have moved from the anchor for a new session to follow it. */
        const val REANCHOR_THRESHOLD_MS = 1_000.0
    }
}
