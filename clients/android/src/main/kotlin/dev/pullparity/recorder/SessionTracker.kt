package dev.pullparity.recorder

/** Where a session is, as far as it decides when the next one starts (the Core machine's phases). */
internal enum class Phase { IDLE, PULLING, ARMED, RELEASED, REFRESHING, HOLDING, DONE, CANCELLED, LEFT }

/** The phases of a session under way: the ones `screen_left` ends. */
internal val OPEN_PHASES = setOf(Phase.PULLING, Phase.ARMED, Phase.RELEASED, Phase.REFRESHING, Phase.HOLDING)

/** An event as far as session splitting needs it. */
internal sealed class Step {
    object PullStart : Step()
    class PullMove(val distance: Double) : Step()
    object Armed : Step()
    object Disarmed : Step()
    object Release : Step()
    object Cancel : Step()
    /** A refresh no finger was seen to start: a tab re-select, a programmatic one, or a pull the
     *  app only heard of through its library's callback (`gesture_observed: false`). */
    class RefreshStart(val unobserved: Boolean) : Step()
    object ScrollToTop : Step()
    object LoadComplete : Step()
    object IndicatorHidden : Step()
    /** `screen_left`: the screen of the session went away; the session is over. */
    object ScreenLeft : Step()
    object Other : Step()
}

/**
 * Which session an event belongs to and its `seq`: the Swift recorder's `SessionTracker` and the
 * web recorder's `opensSession`/`nextPhase`, rule for rule, so that sessions split exactly where
 * the pipeline splits them. With the profile's threshold a `pull_move` decides arming; without
 * one the app's `armed`/`disarmed` do.
 */
internal class SessionTracker(private val behaviour: PullToRefreshBehaviour, private val ids: EventIdSource) {
    private class Open(val id: String) {
        var nextSeq = 0
        var phase = Phase.IDLE
    }

    private var current: Open? = null

    val currentSessionId: String? get() = current?.id

    /** Whether a session is under way: a pull, or a refresh not yet hidden. */
    val sessionOpen: Boolean get() = current?.phase in OPEN_PHASES

    /** Whether [step], which does not open a session, belongs to one whose screen went away. */
    fun joinsLeftSession(step: Step): Boolean = current?.phase == Phase.LEFT && !opensSession(step)

    /** Whether [step] opens a session rather than joining the current one (read before the clock). */
    fun opensSession(step: Step): Boolean {
        val open = current ?: return true
        return opensSession(step, open.phase)
    }

    /** The session and seq of an event at [timestamp]; opens a session when [opens]. */
    fun stamp(step: Step, opens: Boolean, timestamp: Double): Pair<String, Int> {
        val session = current.takeUnless { opens } ?: Open(ids.nextId(timestamp)).also { current = it }
        val seq = session.nextSeq
        session.nextSeq += 1
        session.phase = nextPhase(session.phase, step)
        return Pair(session.id, seq)
    }

    fun close() {
        current = null
    }

    /**
     * A pull always starts a session. A refresh or a tab's scroll-to-top starts one when the last
     * session has ended, and a refresh no finger was seen to start also when the last is a pull
     * that never released: that pull was abandoned. Anything else joins the last session, even
     * an ended one (a late `load_complete` or `error_shown` belongs to it); a refresh during a
     * refresh joins too, where it is the `double_refresh` it is.
     */
    private fun opensSession(step: Step, phase: Phase): Boolean {
        val ended = phase == Phase.DONE || phase == Phase.CANCELLED || phase == Phase.LEFT
        return when (step) {
            is Step.PullStart -> true
            is Step.RefreshStart -> ended || (step.unobserved && (phase == Phase.PULLING || phase == Phase.ARMED))
            is Step.ScrollToTop -> ended
            else -> false
        }
    }

    /** The phase after [step], as the Core machine moves it. */
    private fun nextPhase(phase: Phase, step: Step): Phase {
        val pulling = phase == Phase.PULLING || phase == Phase.ARMED
        val running = phase == Phase.REFRESHING || phase == Phase.HOLDING
        val threshold = behaviour.armThreshold
        return when (step) {
            is Step.PullStart -> if (phase == Phase.IDLE) Phase.PULLING else phase
            is Step.PullMove ->
                if (!pulling || threshold == null) phase
                else if (behaviour.arms(step.distance)) Phase.ARMED
                else Phase.PULLING
            is Step.Armed -> if (pulling && threshold == null) Phase.ARMED else phase
            is Step.Disarmed -> if (pulling && threshold == null) Phase.PULLING else phase
            is Step.Release -> if (!pulling) phase else if (phase == Phase.ARMED) Phase.RELEASED else Phase.CANCELLED
            is Step.Cancel -> if (pulling || phase == Phase.RELEASED) Phase.CANCELLED else phase
            is Step.RefreshStart ->
                if (phase == Phase.RELEASED || (phase == Phase.IDLE && step.unobserved)) Phase.REFRESHING else phase
            is Step.LoadComplete -> if (phase == Phase.REFRESHING) Phase.HOLDING else phase
            is Step.IndicatorHidden -> if (running) Phase.DONE else phase
            is Step.ScreenLeft -> if (phase in OPEN_PHASES) Phase.LEFT else phase
            is Step.ScrollToTop, is Step.Other -> phase
        }
    }
}
