package dev.pullparity.recorder

import java.io.File
import java.net.URL
import java.util.Random
import kotlin.system.exitProcess

/**
 * The JVM's gesture driver: feeds the recorder a few hundred scripted gestures, for the ingest
 * and QA tests (`clients/android/tests/test_scripted_app.py`).
 *
 *     ScriptedGestureDriver apps OUT [--gestures N] [--post URL]
 *         one folder per app variant (faithful, then each planted defect) with the app's rotated
 *         log and plan.json, the sessions the script played in order with what ingest must
 *         derive from them; --post also sends the faithful app's lines to a collector
 *     ScriptedGestureDriver callback-only OUT [--gestures N]
 *         an app that only hears its library's onRefresh (gesture_observed false)
 *     ScriptedGestureDriver golden        the fixed gesture's lines (the committed fixture)
 *     ScriptedGestureDriver behaviours    the built-in behaviours as JSON, with the profiles' keys
 */
object ScriptedGestureDriver {
    /** One gesture of the plan: a drag through [distances]; a refresh of [loadMs] if it arms. */
    class Gesture(val distances: List<Double>, val loadMs: Double, val ok: Boolean, val empty: Boolean)

    @JvmStatic
    fun main(args: Array<String>) {
        val options = args.drop(2).chunked(2).associate { it[0] to it.getOrElse(1) { "" } }
        val gestures = options["--gestures"]?.toInt() ?: 300
        when (args.getOrNull(0)) {
            "golden" -> GoldenGesture.lines().forEach(::println)
            "behaviours" -> println(behavioursJson())
            "apps" -> {
                val out = File(args[1])
                for (defect in ScriptedApp.Defect.values()) {
                    val post = if (defect == ScriptedApp.Defect.NONE) options["--post"] else null
                    recordApp(defect, plan(gestures, defect), File(out, defect.wire), post)
                }
            }
            "callback-only" -> recordCallbackOnly(gestures, File(args[1]))
            else -> {
                System.err.println("usage: ScriptedGestureDriver apps|callback-only OUT [--gestures N] [--post URL] | golden | behaviours")
                exitProcess(2)
            }
        }
    }

    /**
     * [count] gestures on Padel's feed, then on its empty state: pulls that stop short of the
     * threshold, pulls past it and back, and refreshes of fast loads (under the 1200 ms hold),
     * slow ones and failed ones. The faithful app also gets pulls just short of the threshold
     * (24–33 dp of finger travel), which an app arming on the raw distance would refresh on
     * (the web reference page's defect plan leaves them out for the same reason).
     */
    fun plan(count: Int, defect: ScriptedApp.Defect, seed: Long = 31): List<Gesture> {
        val random = Random(seed)
        fun between(low: Double, high: Double) = Math.round((low + random.nextDouble() * (high - low)) * 4) / 4.0
        fun drag(to: Double, back: Double? = null): List<Double> {
            val samples = ArrayList<Double>()
            var at = 0.0
            while (at < to) {
                at = Math.min(to, at + between(2.5, 6.0))
                samples += at
            }
            if (back != null) {
                while (at > back) {
                    at = Math.max(back, at - between(2.5, 6.0))
                    samples += at
                }
            }
            return samples
        }
        fun load() = if (random.nextBoolean()) Math.round(between(80.0, 1100.0)).toDouble() else Math.round(between(1300.0, 4000.0)).toDouble()
        val emptyCount = Math.max(35, count / 8)
        val feedCount = count - emptyCount
        val feed = ArrayList<Gesture>()
        repeat(feedCount) { index ->
            feed += when (index % 10) {
                0 -> Gesture(drag(between(4.0, 22.0)), 0.0, true, false)
                1 -> if (defect == ScriptedApp.Defect.NONE) Gesture(drag(between(24.0, 33.0)), 0.0, true, false)
                    else Gesture(drag(between(4.0, 22.0)), 0.0, true, false)
                2 -> Gesture(drag(between(40.0, 90.0), back = between(8.0, 22.0)), 0.0, true, false)
                else -> Gesture(drag(between(34.0, 220.0)), load(), random.nextInt(12) != 0, false)
            }
        }
        java.util.Collections.shuffle(feed, random)
        val empty = (0 until emptyCount).map { index ->
            if (index % 8 == 0) Gesture(drag(between(4.0, 22.0)), 0.0, true, true)
            else Gesture(drag(between(36.0, 180.0)), load(), true, true)
        }
        return feed + empty
    }

    /** Plays [plan] on an app with [defect], into [folder]: its rotated log and plan.json. */
    fun recordApp(defect: ScriptedApp.Defect, plan: List<Gesture>, folder: File, post: String?) {
        folder.mkdirs()
        val errors = Collected<PullParityError>()
        // Small files, all kept, so that ingest reads a rotated folder.
        val file = FileEventSink(File(folder, "events.jsonl"), FileEventSink.Rotation(maxFileBytes = 512 * 1024, keptFiles = 1000),
            onError = { errors.add(it) })
        val http = post?.let {
            HttpEventSink(URL(it), flushIntervalMs = 20, retryDelayMs = 100, maxRetryDelayMs = 400, maxQueueLines = 1_000_000,
                onError = { error -> if (error.kind != PullParityError.Kind.HTTP) errors.add(error) })
        }
        val clock = ManualClock()
        val recorder = PullParityRecorder(
            app = "padel", appVersion = "3.9.0-android", screen = "feed", osVersion = "14", device = "Pixel 8",
            sink = if (http != null) TeeEventSink(file, http) else file,
            installIds = FileInstallIdStore(File(folder, "install-id")), clock = clock, ids = seededIds(11),
            onError = { errors.add(it) })
        val app = ScriptedApp(recorder, clock, defect)
        val sessions = StringBuilder()
        plan.forEachIndexed { index, gesture ->
            recorder.empty = gesture.empty
            val started = clock.elapsedMs
            val armAt = gesture.distances.indexOfFirst { app.behaviour.arms(it) }
            val refreshes = app.pull(gesture.distances)
            val json = JsonObjectWriter()
                .string("outcome", if (refreshes) "completed" else "cancelled")
                .bool("empty", gesture.empty)
                .number("started_ms", started)
                .number("arm_distance", if (armAt >= 0) gesture.distances[armAt] else null)
                .number("time_to_arm_ms", if (armAt >= 0) (armAt + 1) * 16.0 else null)
                .number("release_distance", gesture.distances.last())
            if (refreshes) {
                app.refresh(gesture.loadMs, gesture.ok)
                val held = if (defect == ScriptedApp.Defect.NO_HOLD) gesture.loadMs else Math.max(gesture.loadMs, app.behaviour.minimumHoldMs)
                json.bool("load_ok", gesture.ok).number("load_ms", gesture.loadMs)
                if (!(gesture.empty && defect == ScriptedApp.Defect.EMPTY_HIDES_INDICATOR)) json.number("visible_ms", held + 16)
            }
            sessions.append(if (sessions.length == 0) "[\n" else ",\n").append(json.finished())
            clock.advance(1_000.0 + (index % 7) * 500.0)
        }
        recorder.close()
        if (http != null && (!http.awaitClosed(30_000) || http.pending > 0)) {
            System.err.println("${defect.wire}: ${http.pending} lines were not delivered")
            exitProcess(3)
        }
        File(folder, "plan.json").writeText("$sessions\n]\n")
        if (errors.all.isNotEmpty()) {
            System.err.println("${defect.wire}: the recorder reported ${errors.all}")
            exitProcess(3)
        }
    }

    /**
     * An app whose pull-to-refresh library only calls it back (`SwipeRefreshLayout`'s
     * `onRefresh`): every refresh is `refreshStart(PULL, gestureObserved = false)`, the
     * indicator, the held load and the hide, a session each.
     */
    fun recordCallbackOnly(count: Int, folder: File) {
        folder.mkdirs()
        val clock = ManualClock()
        val errors = Collected<PullParityError>()
        val recorder = PullParityRecorder(
            app = "padel", appVersion = "3.9.0-android", screen = "feed",
            sink = FileEventSink(File(folder, "events.jsonl"), onError = { errors.add(it) }),
            clock = clock, ids = seededIds(13), onError = { errors.add(it) })
        val app = ScriptedApp(recorder, clock)
        val random = Random(5)
        repeat(count) {
            app.refresh(Math.round(100 + random.nextDouble() * 3_000).toDouble(), ok = true, gestureObserved = false)
            clock.advance(2_000.0)
        }
        recorder.close()
        if (errors.all.isNotEmpty()) {
            System.err.println("callback-only: the recorder reported ${errors.all}")
            exitProcess(3)
        }
    }

    /** The built-in behaviours with the keys of `pullparity profiles --format json`. */
    fun behavioursJson(): String = PullToRefreshBehaviour.BUILT_IN.joinToString(",\n", "[\n", "\n]") { behaviour ->
        val json = JsonObjectWriter()
            .string("name", behaviour.name)
            .number("arm_threshold", behaviour.armThreshold)
            .number("resistance", behaviour.resistance)
            .number("min_hold_ms", behaviour.minimumHoldMs)
            .number("hide_slack_ms", behaviour.hideSlackMs)
        behaviour.indicator?.let {
            json.obj("indicator", JsonObjectWriter().string("kind", it.kind?.wire).integer("count", it.count)
                .number("stagger_ms", it.staggerMs).number("cycle_ms", it.cycleMs))
        }
        behaviour.labels?.let {
            json.obj("labels", JsonObjectWriter().string("pulling", it.pulling).string("ready", it.ready)
                .string("refreshing", it.refreshing))
        }
        behaviour.reveal?.let {
            json.obj("reveal", JsonObjectWriter().integer("bars", it.bars).number("progress_step", it.progressStep)
                .number("full_pull_distance", it.fullPullDistance))
        }
        json.finished()
    }
}
