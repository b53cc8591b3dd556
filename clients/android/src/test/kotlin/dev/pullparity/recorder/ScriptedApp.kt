package dev.pullparity.recorder

/**
 * A pull-to-refresh screen driven by a script instead of a finger: what an Android app's gesture
 * code does with the recorder and its behaviour constants (the glue in docs/instrumenting.md), without Android.
 * Time is the manual clock's, so a 3 s load takes no real time and every timestamp is known.
 */
class ScriptedApp(val recorder: PullParityRecorder, val clock: ManualClock, val defect: Defect = Defect.NONE) {
    /** The planted defects, each the web reference page's, and the QA item it must fail. */
    enum class Defect(val wire: String, val failingItems: List<String>) {
        NONE("faithful", emptyList()),
        /** Hides the indicator as soon as the load ends: fast loads flash. */
        NO_HOLD("no_hold", listOf("no_flash")),
        /** Arms on the finger's travel, forgetting the resistance. */
        ARMS_ON_RAW_DISTANCE("arms_on_raw_distance", listOf("arm_parity")),
        /** Other ready copy, shown on every screen: the empty state's copy is wrong too. */
        LABEL_TYPO("label_typo", listOf("empty_state", "label_copy")),
        /** The empty state refreshes without showing the indicator. */
        EMPTY_HIDES_INDICATOR("empty_hides_indicator", listOf("empty_state")),
        /** Three balls instead of the profile's four. */
        THREE_BALLS("three_balls", listOf("indicator_config")),
    }

    val behaviour get() = recorder.behaviour

    /**
     * Drags through [distances] (dp), one sample every [intervalMs], then lifts the finger. Arms
     * where the behaviour says (or on the raw distance, planted), shows the labels; returns
     * whether the client was armed at the release (the release refreshes).
     */
    fun pull(distances: List<Double>, intervalMs: Double = 16.0): Boolean {
        recorder.pullStart()
        showLabel(LabelState.PULLING)
        var armed = false
        for (distance in distances) {
            clock.advance(intervalMs)
            recorder.pullMove(distance, behaviour.indicatorOffset(distance))
            val arms = if (defect == Defect.ARMS_ON_RAW_DISTANCE) distance >= behaviour.armThreshold!! else behaviour.arms(distance)
            if (arms == armed) continue
            armed = arms
            if (arms) recorder.armed(distance) else recorder.disarmed(distance)
            showLabel(if (arms) LabelState.READY else LabelState.PULLING)
        }
        clock.advance(intervalMs)
        recorder.release(distances.last())
        return armed
    }

    /**
     * Refreshes: shows the indicator, loads for [loadMs], and hides it, held for the minimum
     * unless the app is [Defect.NO_HOLD]. A failed load shows an error after the hide.
     */
    fun refresh(loadMs: Double, ok: Boolean, trigger: RefreshTrigger = RefreshTrigger.PULL, gestureObserved: Boolean = true) {
        recorder.refreshStart(trigger, gestureObserved)
        val empty = recorder.empty == true
        if (!(empty && defect == Defect.EMPTY_HIDES_INDICATOR)) {
            val indicator = behaviour.indicator
            recorder.indicatorShown(if (defect == Defect.THREE_BALLS) indicator?.copy(count = 3) else indicator)
        }
        showLabel(LabelState.REFRESHING)
        val load = {
            recorder.fetchStart()
            clock.advance(loadMs)
            recorder.loadComplete(ok, if (ok) null else "offline")
        }
        if (defect == Defect.NO_HOLD) load() else holdAtLeast(behaviour.minimumHoldMs, clock, clock.sleeper, load)
        clock.advance(16.0) // the frame that hides it
        recorder.indicatorHidden()
        if (!ok) recorder.errorShown("Kunde inte ladda")
    }

    private fun showLabel(state: LabelState) {
        val text = if (defect == Defect.LABEL_TYPO && state == LabelState.READY) "Släpp för att uppdatera!" else behaviour.label(state)
        text?.let { recorder.label(it, state) }
    }
}
