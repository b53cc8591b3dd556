package dev.pullparity.recorder

import org.junit.Assert.assertEquals
import org.junit.Assert.assertFalse
import org.junit.Assert.assertNull
import org.junit.Assert.assertTrue
import org.junit.Assert.fail
import org.junit.Test

class HoldAndBehaviourTest {
    @Test fun aFastLoadIsHeldForTheMinimum() {
        val clock = ManualClock()
        val value = holdAtLeast(1_200.0, clock, clock.sleeper) {
            clock.advance(150.0)
            "items"
        }
        assertEquals("items", value)
        assertEquals(1_200.0, clock.elapsedMs, 0.0)
    }

    @Test fun aSlowLoadIsNotHeldLonger() {
        val clock = ManualClock()
        holdAtLeast(1_200.0, clock, clock.sleeper) { clock.advance(3_000.25) }
        assertEquals(3_000.25, clock.elapsedMs, 0.0)
    }

    @Test fun aFailedLoadIsHeldThenRethrown() {
        val clock = ManualClock()
        try {
            holdAtLeast<Unit>(1_200.0, clock, clock.sleeper) {
                clock.advance(10.0)
                throw java.io.IOException("offline")
            }
            fail("the failure was swallowed")
        } catch (error: java.io.IOException) {
            assertEquals("offline", error.message)
        }
        assertEquals(1_200.0, clock.elapsedMs, 0.0)
    }

    @Test fun anInterruptIsNotHeld() {
        val clock = ManualClock()
        try {
            holdAtLeast<Unit>(1_200.0, clock, clock.sleeper) { throw InterruptedException() }
            fail("the interrupt was swallowed")
        } catch (expected: InterruptedException) {
        }
        assertEquals(0.0, clock.elapsedMs, 0.0)
    }

    /** On real time: the default sleeper waits out the minimum (a short one, to keep the suite fast). */
    @Test fun theSystemClockHoldsForReal() {
        val started = System.nanoTime()
        holdAtLeast(30.0) { }
        assertTrue((System.nanoTime() - started) >= 30_000_000)
    }

    @Test fun theMinimumVisibleTimeSaysHowLongIsLeftRoundedUp() {
        val clock = ManualClock()
        val hold = MinimumVisibleTime(1_200.0, clock)
        assertEquals(1_200L, hold.remainingMillis())
        clock.advance(450.5)
        assertEquals(750L, hold.remainingMillis())
        assertEquals(749_500_000L, hold.remainingNanos())
        assertFalse(hold.isOver)
        clock.advance(749.5)
        assertEquals(0L, hold.remainingMillis())
        assertTrue(hold.isOver)
        clock.advance(100.0)
        assertEquals(0L, hold.remainingNanos())
    }

    @Test fun theBehaviourIsTheProfilesNumbers() {
        val padel = PullParityRecorder(app = "padel", sink = CallbackEventSink { }).behaviour
        assertEquals(PullToRefreshBehaviour.PADEL, padel)
        assertEquals(24.0, padel.armThreshold!!, 0.0)
        assertEquals(0.72, padel.resistance, 0.0)
        assertEquals(1_200.0, padel.minimumHoldMs, 0.0)
        assertEquals(IndicatorConfig(IndicatorKind.BALLS, 4, 120.0, 800.0), padel.indicator)
        assertEquals("Släpp för att uppdatera", padel.label(LabelState.READY))
        assertEquals(24.0 * 0.72, padel.indicatorOffset(24.0), 0.0)
        // 24 on distance × 0.72: 33.33… dp of finger travel, with the pipeline's slack.
        assertFalse(padel.arms(33.3))
        assertTrue(padel.arms(100.0 / 3.0))
        assertTrue(padel.arms(33.34))
        assertNull(padel.revealProgress(40.0))

        val phlock = PullToRefreshBehaviour.named("phlock")
        assertEquals(0.5, phlock.revealProgress(40.0)!!, 0.0)
        assertEquals(1.0, phlock.revealProgress(120.0)!!, 0.0)
        assertEquals(4, phlock.barsRevealed(0.6))
        assertEquals(1, phlock.barsRevealed(0.0))
        assertEquals(5, phlock.barsRevealed(1.0))
        // A profile given by name through `profile`, and an unknown app trusting its client.
        assertEquals(phlock, PullParityRecorder(app = "waves", profile = "phlock", sink = CallbackEventSink { }).behaviour)
        val unknown = PullToRefreshBehaviour.named("unknown")
        assertNull(unknown.armThreshold)
        assertFalse(unknown.arms(1_000.0))
        assertEquals(0.0, unknown.minimumHoldMs, 0.0)
    }
}
