package dev.pullparity.recorder

/** The copy a profile requires for each label state. */
data class LabelCopy(val pulling: String, val ready: String, val refreshing: String) {
    fun text(state: LabelState): String = when (state) {
        LabelState.PULLING -> pulling
        LabelState.READY -> ready
        LabelState.REFRESHING -> refreshing
    }
}

/** Waveform bars revealed while pulling: bar `i` (from 0) may show from progress `i × progressStep`. */
data class RevealRule(val bars: Int, val progressStep: Double, val fullPullDistance: Double) {
    /** Bars allowed at [progress], compared on a 10⁻⁹ grid as the pipeline does (0.6 allows 4). */
    fun barsAllowed(progress: Double): Int {
        val scaledProgress = Math.round(progress * 1_000_000_000)
        val scaledStep = Math.round(progressStep * 1_000_000_000)
        if (scaledProgress < 0 || scaledStep <= 0) return if (scaledProgress >= 0) bars else 0
        return Math.min(bars.toLong(), scaledProgress / scaledStep + 1).toInt()
    }
}

/**
 * A profile's numbers as the constants an app's pull-to-refresh is built with: the values
 * `pullparity` judges the app's logs by (docs/events.md §3; `pullparity profiles` prints them),
 * so the app and the check cannot drift apart. Distances are the profile's unit, dp on Android.
 *
 * The built-in profiles are [PADEL], [FFCI] and [PHLOCK]; [named] finds one, and an unknown name
 * gets [unconstrained], as ingest does. A team with its own profile file builds one with the
 * constructor, from the same numbers.
 */
data class PullToRefreshBehaviour(
    val name: String,
    /** The arming point on `distance × resistance`; `null` when the platform's control decides. */
    val armThreshold: Double?,
    val resistance: Double = 1.0,
    /** How long the refreshing indicator must stay visible ([MinimumVisibleTime], [holdAtLeast]). */
    val minimumHoldMs: Double = 0.0,
    val hideSlackMs: Double = 250.0,
    val indicator: IndicatorConfig? = null,
    val labels: LabelCopy? = null,
    val reveal: RevealRule? = null
) {
    /** Where to draw the indicator for a finger travel of [distance]. */
    fun indicatorOffset(distance: Double): Double = distance * resistance

    /** Whether a release at [distance] refreshes: the pipeline's rule, with its rounding slack. */
    fun arms(distance: Double): Boolean {
        val threshold = armThreshold ?: return false
        return distance * resistance >= threshold - COMPARISON_SLACK
    }

    /** The copy to show for [state]; `null` when the app shows no labels. */
    fun label(state: LabelState): String? = labels?.text(state)

    /** The reveal progress (0–1) of a pull of [distance]; `null` without a waveform reveal. */
    fun revealProgress(distance: Double): Double? {
        val rule = reveal ?: return null
        if (rule.fullPullDistance <= 0) return null
        return Math.min(1.0, Math.max(0.0, distance / rule.fullPullDistance))
    }

    /** How many waveform bars may show at [progress]; `null` without a waveform reveal. */
    fun barsRevealed(progress: Double): Int? = reveal?.barsAllowed(progress)

    companion object {
        /** The pipeline's hair of slack: 100 × 0.29 = 28.999999999999996 still reaches 29. */
        const val COMPARISON_SLACK = 1e-6

        /** The Padel PWA ↔ native parity spec: 24 on distance × 0.72, 1200 ms held, Swedish copy. */
        @JvmField
        val PADEL = PullToRefreshBehaviour(
            name = "padel", armThreshold = 24.0, resistance = 0.72, minimumHoldMs = 1200.0, hideSlackMs = 250.0,
            indicator = IndicatorConfig(IndicatorKind.BALLS, count = 4, staggerMs = 120.0, cycleMs = 800.0),
            labels = LabelCopy(
                pulling = "Dra för att ladda senaste padelnytt...",
                ready = "Släpp för att uppdatera",
                refreshing = "Padelbollarna studsar medan vi laddar..."))

        /** The FFCI ticket: the platform's control decides arming; no hold; native indicator. */
        @JvmField
        val FFCI = PullToRefreshBehaviour(
            name = "ffci", armThreshold = null, resistance = 1.0, minimumHoldMs = 0.0, hideSlackMs = 250.0,
            indicator = IndicatorConfig(IndicatorKind.NATIVE))

        /** The Phlock waveform: 80 to arm, 1300 ms held, five bars revealed while pulling. */
        @JvmField
        val PHLOCK = PullToRefreshBehaviour(
            name = "phlock", armThreshold = 80.0, resistance = 1.0, minimumHoldMs = 1300.0, hideSlackMs = 350.0,
            indicator = IndicatorConfig(IndicatorKind.WAVEFORM, count = 5, staggerMs = 100.0, cycleMs = 500.0),
            reveal = RevealRule(bars = 5, progressStep = 0.2, fullPullDistance = 80.0))

        @JvmField
        val BUILT_IN: List<PullToRefreshBehaviour> = listOf(PADEL, FFCI, PHLOCK)

        /** What an app without a profile is judged by: the client decides arming, nothing held. */
        fun unconstrained(name: String) = PullToRefreshBehaviour(name = name, armThreshold = null)

        /** The built-in profile [name], else [unconstrained]. */
        fun named(name: String): PullToRefreshBehaviour = BUILT_IN.firstOrNull { it.name == name } ?: unconstrained(name)
    }
}
