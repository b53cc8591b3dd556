package dev.pullparity.recorder

/** Which label an app shows (docs/events.md §2, `label`): the wire value is [wire]. */
enum class LabelState(val wire: String) {
    PULLING("pulling"),
    READY("ready"),
    REFRESHING("refreshing"),
}

/** What started a refresh (`refresh_start`'s `trigger`). */
enum class RefreshTrigger(val wire: String) {
    PULL("pull"),
    TAB_RESELECT("tab_reselect"),
    PROGRAMMATIC("programmatic"),
}

/** The refreshing indicator's kind (`indicator_shown`'s `indicator.kind`). */
enum class IndicatorKind(val wire: String) {
    BALLS("balls"),
    WAVEFORM("waveform"),
    NATIVE("native"),
}

/**
 * The indicator as drawn, for `indicatorShown`: a field left `null` is not written (and not
 * checked by the pipeline). Times in milliseconds.
 */
data class IndicatorConfig(
    val kind: IndicatorKind? = null,
    val count: Int? = null,
    val staggerMs: Double? = null,
    val cycleMs: Double? = null
)
