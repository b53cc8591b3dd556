package dev.pullparity.recorder

import org.junit.Assert.assertEquals
import org.junit.Test
import org.junit.runner.RunWith
import org.junit.runners.Parameterized

/**
 * Where sessions split, case by case: each call with the session (numbered in order of
 * appearance) it must land in, and the seq it gets. The first case is the Swift recorder's test
 * `sessionsSplitWhereTheContractSplitsThem` and the web recorder's SPLIT_SCRIPT, call for call.
 */
@RunWith(Parameterized::class)
class SessionSplittingTest(private val name: String, private val behaviour: PullToRefreshBehaviour,
                           private val script: List<Pair<(PullParityRecorder) -> Unit, Int>>,
                           private val seqs: List<Int>?) {
    companion object {
        private val phlock = PullToRefreshBehaviour.PHLOCK
        private val padel = PullToRefreshBehaviour.PADEL
        private val trusting = PullToRefreshBehaviour.FFCI

        private fun call(session: Int, body: (PullParityRecorder) -> Unit) = Pair(body, session)

        @JvmStatic
        @Parameterized.Parameters(name = "{0}")
        fun cases(): List<Array<out Any?>> = listOf(
            arrayOf("the Swift and web recorders' script", phlock, listOf(
                call(0) { it.pullStart() }, call(0) { it.pullMove(20.0) }, call(0) { it.release(20.0) },
                call(1) { it.refreshStart(RefreshTrigger.PROGRAMMATIC) }, call(1) { it.indicatorShown() },
                call(1) { it.indicatorHidden() }, call(1) { it.loadComplete(false) }, call(1) { it.errorShown("offline") },
                call(2) { it.scrollToTop() }, call(2) { it.refreshStart(RefreshTrigger.TAB_RESELECT) },
                call(2) { it.loadComplete(true) }, call(2) { it.indicatorHidden() },
                call(3) { it.pullStart() }, call(3) { it.pullMove(90.0) }, call(3) { it.release(90.0) },
                call(3) { it.refreshStart(RefreshTrigger.PULL) }, call(3) { it.refreshStart(RefreshTrigger.TAB_RESELECT) },
                // A pull during a refresh is a new interaction; the refresh it interrupts stays incomplete.
                call(4) { it.pullStart() }, call(4) { it.pullMove(30.0) },
                // The pull was never released: a programmatic refresh is an interaction of its own.
                call(5) { it.refreshStart(RefreshTrigger.PROGRAMMATIC) }, call(5) { it.indicatorShown() }),
                listOf(0, 1, 2, 0, 1, 2, 3, 4, 0, 1, 2, 3, 0, 1, 2, 3, 4, 0, 1, 0, 1)),
            // Without a threshold the app's own `armed` decides: released armed, the refresh joins.
            arrayOf("trusting the app's armed", trusting, listOf(
                call(0) { it.pullStart() }, call(0) { it.armed(40.0) }, call(0) { it.release(40.0) },
                call(0) { it.refreshStart() }), null),
            arrayOf("trusting the app, never armed", trusting, listOf(
                call(0) { it.pullStart() }, call(0) { it.pullMove(90.0) }, call(0) { it.release(90.0) },
                call(1) { it.refreshStart(RefreshTrigger.PROGRAMMATIC) }), null),
            // With the threshold the move decides, whatever the app says.
            arrayOf("the threshold arms", padel, listOf(
                call(0) { it.pullStart() }, call(0) { it.pullMove(40.0) }, call(0) { it.release(40.0) },
                call(0) { it.refreshStart() }), null),
            arrayOf("the app's armed short of the threshold", padel, listOf(
                call(0) { it.pullStart() }, call(0) { it.pullMove(30.0) }, call(0) { it.armed(30.0) },
                call(0) { it.release(30.0) }, call(1) { it.refreshStart(RefreshTrigger.TAB_RESELECT) }), null),
            arrayOf("pulled past the threshold and back", padel, listOf(
                call(0) { it.pullStart() }, call(0) { it.pullMove(40.0) }, call(0) { it.pullMove(20.0) },
                call(0) { it.release(20.0) }, call(1) { it.pullStart() }), null),
            // The threshold's slack: 33.333333333333336 × 0.72 is a hair under 24, and arms.
            arrayOf("the threshold's rounding slack", padel, listOf(
                call(0) { it.pullStart() }, call(0) { it.pullMove(100.0 / 3.0) }, call(0) { it.release(100.0 / 3.0) },
                call(0) { it.refreshStart() }, call(0) { it.indicatorHidden() }, call(1) { it.scrollToTop() }), null),
            // A late load_complete and error join the session that hid its indicator.
            arrayOf("late events join the ended session", padel, listOf(
                call(0) { it.refreshStart(RefreshTrigger.PROGRAMMATIC) }, call(0) { it.indicatorHidden() },
                call(0) { it.loadComplete(false) }, call(0) { it.errorShown() }, call(0) { it.contentCleared() },
                call(1) { it.refreshStart(RefreshTrigger.PROGRAMMATIC) }), listOf(0, 1, 2, 3, 4, 0)),
            // Callback-only: each onRefresh is a session of its own.
            arrayOf("callback-only refreshes", padel, listOf(
                call(0) { it.refreshStart(RefreshTrigger.PULL, gestureObserved = false) }, call(0) { it.indicatorShown() },
                call(0) { it.loadComplete(true) }, call(0) { it.indicatorHidden() },
                call(1) { it.refreshStart(RefreshTrigger.PULL, gestureObserved = false) }, call(1) { it.indicatorShown() },
                call(1) { it.loadComplete(true) }, call(1) { it.indicatorHidden() }), listOf(0, 1, 2, 3, 0, 1, 2, 3)),
            // A callback-only refresh while a pull it never saw is still unreleased abandons that pull,
            // as a tab re-select does; an observed one joins it (the double refresh it is).
            arrayOf("callback-only refresh after an unreleased pull", padel, listOf(
                call(0) { it.pullStart() }, call(0) { it.pullMove(40.0) },
                call(1) { it.refreshStart(RefreshTrigger.PULL, gestureObserved = false) }, call(1) { it.indicatorShown() },
                call(2) { it.pullStart() }, call(2) { it.pullMove(40.0) }, call(2) { it.refreshStart(RefreshTrigger.PULL) }), null),
            arrayOf("callback-only refresh during a refresh", padel, listOf(
                call(0) { it.refreshStart(RefreshTrigger.PULL, gestureObserved = false) },
                call(0) { it.refreshStart(RefreshTrigger.PULL, gestureObserved = false) }, call(0) { it.indicatorHidden() },
                call(1) { it.refreshStart(RefreshTrigger.PULL, gestureObserved = false) }), null),
            // An observed refresh from idle starts nothing in the machine, so the session never ends.
            arrayOf("an observed refresh with no pull", padel, listOf(
                call(0) { it.refreshStart() }, call(0) { it.indicatorHidden() }, call(0) { it.refreshStart() },
                call(1) { it.pullStart() }), null),
            // closeSession: the next event opens one, whatever it is.
            arrayOf("closeSession", padel, listOf(
                call(0) { it.pullStart() }, call(0) { it.pullMove(10.0) }, call(0) { it.closeSession() },
                call(1) { it.loadComplete(true) }), null))
    }

    @Test fun eachCallLandsInItsSession() {
        val lines = Collected<String>()
        val recorder = PullParityRecorder(app = behaviour.name, sink = lines.sink(), clock = ManualClock(),
            ids = seededIds(), onError = { throw AssertionError(it.message) })
        val recorded = ArrayList<Int>()
        for ((body, session) in script) {
            val before = lines.all.size
            body(recorder)
            if (lines.all.size > before) recorded += session
        }
        val sessions = lines.all.map { field(it, "session_id")!! }
        val order = sessions.distinct()
        assertEquals(name, recorded, sessions.map { order.indexOf(it) })
        val seq = lines.all.map { field(it, "seq")!!.toInt() }
        if (seqs != null) assertEquals(name, seqs, seq)
        // Whatever the case, seq counts from 0 within each session.
        for (id in order) {
            assertEquals(name, (0 until sessions.count { it == id }).toList(), seq.filterIndexed { i, _ -> sessions[i] == id })
        }
    }
}
