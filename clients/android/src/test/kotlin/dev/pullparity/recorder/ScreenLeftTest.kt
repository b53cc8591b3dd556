package dev.pullparity.recorder

import org.junit.Assert.assertEquals
import org.junit.Test

/**
 * `screen_left` (contract v1.2), as the web and Swift recorders record it: only while a session
 * is open, so once per session, and nothing more of that session afterwards.
 */
class ScreenLeftTest {
    private fun recorder(lines: Collected<String>) =
        PullParityRecorder(app = "phlock", sink = lines.sink(), clock = ManualClock(), ids = seededIds(),
            onError = { error -> throw AssertionError(error.message) })

    /** Each line as (session number in order of appearance, type, reason). */
    private fun summary(lines: Collected<String>): List<Triple<Int, String?, String?>> {
        val sessions = lines.all.map { field(it, "session_id") }.distinct()
        return lines.all.map { Triple(sessions.indexOf(field(it, "session_id")), field(it, "type"), field(it, "reason")) }
    }

    @Test fun screenLeftIsRecordedOnceAndOnlyWhileASessionIsOpen() {
        val lines = Collected<String>()
        val recorder = recorder(lines)
        recorder.screenLeft("navigation") // nothing open: no line
        recorder.pullStart(); recorder.pullMove(90.0); recorder.release(90.0)
        recorder.refreshStart(); recorder.indicatorShown()
        recorder.screenLeft("background")
        recorder.screenLeft("navigation") // already left: no second line
        recorder.loadComplete(true); recorder.indicatorHidden() // the left session's: not written
        recorder.pullStart(); recorder.pullMove(10.0); recorder.screenLeft("closed")
        recorder.release(10.0) // after leaving: not written
        recorder.refreshStart(RefreshTrigger.PROGRAMMATIC); recorder.indicatorHidden()
        recorder.screenLeft() // done: no line
        assertEquals(listOf(
            Triple(0, "pull_start", null), Triple(0, "pull_move", null), Triple(0, "release", null),
            Triple(0, "refresh_start", null), Triple(0, "indicator_shown", null), Triple(0, "screen_left", "background"),
            Triple(1, "pull_start", null), Triple(1, "pull_move", null), Triple(1, "screen_left", "closed"),
            Triple(2, "refresh_start", null), Triple(2, "indicator_hidden", null)), summary(lines))
    }

    @Test fun aRefreshAfterTheScreenCameBackOpensASessionOfItsOwn() {
        val lines = Collected<String>()
        val recorder = recorder(lines)
        recorder.refreshStart(RefreshTrigger.PULL, gestureObserved = false)
        recorder.screenLeft("background")
        recorder.refreshStart(RefreshTrigger.PULL, gestureObserved = false)
        recorder.screenLeft()
        assertEquals(listOf(
            Triple(0, "refresh_start", null), Triple(0, "screen_left", "background"),
            Triple(1, "refresh_start", null), Triple(1, "screen_left", null)), summary(lines))
        // A `screen_left` line carries what every line carries, then its reason.
        assertEquals(listOf("event_id", "session_id", "ts", "seq", "platform", "app", "type", "reason"),
            fieldNames(lines.all[1]))
    }
}
