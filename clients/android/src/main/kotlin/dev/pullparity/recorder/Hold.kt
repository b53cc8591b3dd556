package dev.pullparity.recorder

/** Monotonic time for the hold helpers, in nanoseconds from any origin. */
interface MonotonicClock {
    fun nanoTime(): Long
}

/** `System.nanoTime()`. */
object SystemMonotonicClock : MonotonicClock {
    override fun nanoTime(): Long = System.nanoTime()
}

/**
 * The seed specs' hold rule ("minimum 1200ms visible refreshing state, even if network is
 * faster") for code that is called back rather than blocked: start it when the indicator shows,
 * and when the load completes hide the indicator after [remainingMillis] (on Android,
 * `handler.postDelayed(hide, hold.remainingMillis())`, or `delay(hold.remainingMillis())` in a
 * coroutine). A failed load is held the same way, so an error does not flash the indicator.
 */
class MinimumVisibleTime(
    val minimumMs: Double,
    private val clock: MonotonicClock = SystemMonotonicClock
) {
    private val startedAt = clock.nanoTime()
    private val minimumNanos = Math.ceil(Math.max(0.0, minimumMs) * 1_000_000).toLong()

    /** Nanoseconds until the minimum is over; 0 once it is. */
    fun remainingNanos(): Long = Math.max(0L, minimumNanos - (clock.nanoTime() - startedAt))

    /** Whole milliseconds until the minimum is over, rounded up so a wait never ends early. */
    fun remainingMillis(): Long = (remainingNanos() + 999_999) / 1_000_000

    val isOver: Boolean get() = remainingNanos() == 0L
}

/**
 * Runs [work] and returns no earlier than [minimumMs] after it started, measured on [clock]: the
 * blocking form of [MinimumVisibleTime], for a load that runs on a background thread.
 *
 *     val items = holdAtLeast(behaviour.minimumHoldMs) { api.loadFeed() }
 *
 * A failed load is held too, then its exception is rethrown. An interrupt is not held: the
 * refresh is being abandoned, so the wait ends at once and [InterruptedException] is thrown.
 * [sleep] waits a number of nanoseconds (injected by tests that run on virtual time).
 */
fun <T> holdAtLeast(
    minimumMs: Double,
    clock: MonotonicClock = SystemMonotonicClock,
    sleep: (Long) -> Unit = { nanos -> Thread.sleep(nanos / 1_000_000, (nanos % 1_000_000).toInt()) },
    work: () -> T
): T {
    val hold = MinimumVisibleTime(minimumMs, clock)
    val outcome: Any? = try {
        work()
    } catch (interrupted: InterruptedException) {
        throw interrupted
    } catch (failure: Throwable) {
        Failure(failure)
    }
    while (true) {
        val remaining = hold.remainingNanos()
        if (remaining <= 0) break
        sleep(remaining)
    }
    if (outcome is Failure) throw outcome.error
    @Suppress("UNCHECKED_CAST")
    return outcome as T
}

private class Failure(val error: Throwable)
