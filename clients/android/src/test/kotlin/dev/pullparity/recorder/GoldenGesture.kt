package dev.pullparity.recorder

/**
 * One fixed scripted gesture with pinned time and ids, whose lines are committed as
 * `clients/fixtures/scripted-gesture.android.jsonl`. The Swift recorder records the same calls
 * (`Tests/PullParityRecorderTests/AndroidParityTests.swift`) and must write the same lines: keep
 * the two scripts call for call.
 *
 * Time: every reading of the clock is 16.375 ms after the last, from 1794812512591.125 (so `ts`
 * ends in each eighth of a millisecond, once a whole one). Ids: the Swift tests' seeded
 * UUIDv7 generator (SplitMix64, seed 7). Every event type is recorded at least once.
 */
object GoldenGesture {
    const val ORIGIN = 1_794_812_512_591.125
    const val STEP = 16.375
    const val SEED = 7L
    const val INSTALL_ID = "5c8f3e1a-2b4d-4f6a-9e0c-7d1b3a5f8e2c"

    fun recorder(sink: EventSink, onError: (PullParityError) -> Unit = { throw AssertionError(it.message) }) =
        PullParityRecorder(
            app = "padel", appVersion = "3.9.0-android", platform = "android", profile = "padel", screen = "feed",
            osVersion = "14", device = "Pixel 8", sink = sink, installIds = FixedInstallId(INSTALL_ID),
            clock = SteppingClock(ORIGIN, STEP), ids = seededIds(SEED), onError = onError)

    fun lines(): List<String> {
        val lines = Collected<String>()
        record(recorder(lines.sink()))
        return lines.all
    }

    fun record(recorder: PullParityRecorder) {
        val behaviour = recorder.behaviour
        fun label(state: LabelState) = recorder.label(behaviour.label(state), state)
        fun move(distance: Double) = recorder.pullMove(distance, behaviour.indicatorOffset(distance))

        // A pull that arms, released armed: a refresh with the profile's indicator and copy.
        recorder.pullStart()
        label(LabelState.PULLING)
        move(12.0)
        move(25.5)
        move(33.5)
        recorder.armed(33.5)
        label(LabelState.READY)
        move(48.25)
        recorder.release(48.25)
        recorder.refreshStart()
        recorder.indicatorShown(behaviour.indicator)
        label(LabelState.REFRESHING)
        recorder.cacheInvalidated("feed:page-1")
        recorder.fetchStart()
        recorder.loadComplete(true)
        recorder.indicatorHidden()

        // Pulled past the threshold and back, released short: cancelled, on an empty screen.
        recorder.screen = "matches"
        recorder.empty = true
        recorder.pullStart()
        move(40.0)
        recorder.armed(40.0)
        move(20.0)
        recorder.disarmed(20.0)
        recorder.release(20.0)

        // Scrolling took over; a move without an offset.
        recorder.empty = false
        recorder.pullStart()
        recorder.pullMove(5.0)
        recorder.cancel("scroll")

        // A failed load: the error's text needs escaping, the message is not ASCII.
        recorder.pullStart()
        move(60.0)
        recorder.armed(60.0)
        recorder.release(60.0)
        recorder.refreshStart(RefreshTrigger.PULL)
        recorder.indicatorShown(IndicatorConfig(IndicatorKind.BALLS, count = 4, staggerMs = 120.5, cycleMs = 800.0))
        recorder.fetchStart()
        recorder.loadComplete(false, "offline \"wifi\" \\ \n\t\u0001")
        recorder.errorShown("Kunde inte ladda 🎾")
        recorder.contentCleared()
        recorder.indicatorHidden()

        // A callback-only refresh: the library's onRefresh, no finger seen.
        recorder.screen = null
        recorder.refreshStart(RefreshTrigger.PULL, gestureObserved = false)
        recorder.indicatorShown()
        recorder.loadComplete(true)
        recorder.indicatorHidden()

        // Waveform bars revealed while pulling, then cancelled.
        recorder.screen = "feed"
        recorder.pullStart()
        recorder.reveal(0.25, 2)
        move(20.0)
        recorder.reveal(1.0, 5)
        recorder.cancel()

        // A tab's re-select: scroll to top, then a refresh of its own trigger.
        recorder.scrollToTop()
        recorder.refreshStart(RefreshTrigger.TAB_RESELECT)
        recorder.indicatorShown(IndicatorConfig(IndicatorKind.WAVEFORM, count = 5, staggerMs = 100.0, cycleMs = 500.0))
        recorder.loadComplete(true)
        recorder.indicatorHidden()

        // A programmatic refresh hidden before its load; the late load and error join it.
        recorder.refreshStart(RefreshTrigger.PROGRAMMATIC)
        recorder.indicatorShown(IndicatorConfig(IndicatorKind.NATIVE))
        recorder.indicatorHidden()
        recorder.loadComplete(true)
        recorder.errorShown()

        // A pull never released: a programmatic refresh abandons it.
        recorder.pullStart()
        move(30.0)
        recorder.refreshStart(RefreshTrigger.PROGRAMMATIC)
        recorder.indicatorShown()
        recorder.loadComplete(true)
        recorder.indicatorHidden()
    }
}
