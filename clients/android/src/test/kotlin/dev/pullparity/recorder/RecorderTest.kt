package dev.pullparity.recorder

import org.junit.Assert.assertEquals
import org.junit.Assert.assertFalse
import org.junit.Assert.assertNotEquals
import org.junit.Assert.assertTrue
import org.junit.Test
import java.io.File
import java.util.concurrent.CountDownLatch

class RecorderTest {
    private val head = listOf("event_id", "session_id", "ts", "seq", "platform", "app", "type")
    private val tail = listOf("profile", "app_version", "os_version", "device", "screen", "empty", "install_id")

    private fun recorder(lines: Collected<String>, clock: RecorderClock = ManualClock(), app: String = "padel",
                         errors: Collected<PullParityError>? = null, installIds: InstallIdStore? = null) =
        PullParityRecorder(app = app, sink = lines.sink(), clock = clock, ids = seededIds(), installIds = installIds,
            onError = { error -> errors?.add(error) ?: throw AssertionError(error.message) })

    /** The web recorder's test of the same name: one line, byte for byte. */
    @Test fun aLineIsWrittenExactlyAsTheSwiftRecorderWritesIt() {
        val lines = Collected<String>()
        val recorder = PullParityRecorder(
            app = "padel", platform = "android", profile = "padel", appVersion = "3.9.0", osVersion = "14",
            device = "Pixel 9", screen = "Matches\\Today\n\t\u0001", sink = lines.sink(),
            installIds = FixedInstallId("install-1"), clock = SteppingClock(1794800000123.125, 0.0),
            ids = UUIDv7Generator(object : RandomSource { override fun nextLong() = 0L }))
        recorder.empty = true
        recorder.pullMove(35.1, 25.272)
        assertEquals(
            "{\"event_id\":\"01a1e26a-9c7b-7001-8000-000000000000\",\"session_id\":\"01a1e26a-9c7b-7000-8000-000000000000\"," +
                "\"ts\":1794800000123.125,\"seq\":0,\"platform\":\"android\",\"app\":\"padel\",\"type\":\"pull_move\"," +
                "\"distance\":35.1,\"offset\":25.272,\"profile\":\"padel\",\"app_version\":\"3.9.0\",\"os_version\":\"14\"," +
                "\"device\":\"Pixel 9\",\"screen\":\"Matches\\\\Today\\n\\t\\u0001\",\"empty\":true,\"install_id\":\"install-1\"}",
            lines.all.single())
    }

    @Test fun fieldsComeInTheSwiftOrderAndOptionalOnesAreLeftOut() {
        val lines = Collected<String>()
        val recorder = recorder(lines)
        recorder.pullStart()
        recorder.pullMove(3.0)
        recorder.cancel()
        recorder.refreshStart(RefreshTrigger.PROGRAMMATIC)
        recorder.refreshStart(RefreshTrigger.PULL, gestureObserved = false)
        recorder.indicatorShown()
        recorder.loadComplete(false)
        recorder.errorShown()
        recorder.label("Släpp", LabelState.READY)
        recorder.reveal(0.5, 3)
        recorder.cacheInvalidated("k")
        recorder.indicatorShown(IndicatorConfig(cycleMs = 800.0, staggerMs = 120.0, count = 4, kind = IndicatorKind.BALLS))
        val keys = lines.all.map(::fieldNames)
        assertEquals(listOf(head, head + "distance", head, head + "trigger", head + listOf("trigger", "gesture_observed"),
            head, head + "ok", head, head + listOf("text", "state"), head + listOf("progress", "visible"), head + "key",
            head + "indicator"), keys)
        assertEquals("android", field(lines.all[0], "platform"))
        assertTrue(lines.all[4], lines.all[4].endsWith("\"type\":\"refresh_start\",\"trigger\":\"pull\",\"gesture_observed\":false}"))
        assertTrue(lines.all[11].contains("\"indicator\":{\"kind\":\"balls\",\"count\":4,\"stagger_ms\":120.0,\"cycle_ms\":800.0}"))
    }

    @Test fun theIdentityScreenEmptyAndInstallIdEndEveryLine() {
        val lines = Collected<String>()
        val recorder = PullParityRecorder(app = "padel", appVersion = "1", profile = "padel", osVersion = "14", device = "d",
            screen = "feed", sink = lines.sink(), installIds = FixedInstallId("abc"), clock = ManualClock(), ids = seededIds())
        recorder.pullStart()
        recorder.empty = false
        recorder.screen = "matches"
        recorder.pullMove(1.0)
        recorder.screen = null
        recorder.empty = null
        recorder.cancel()
        assertEquals(listOf(head + tail.filter { it != "empty" }, head + "distance" + tail, head + tail.filter { it != "screen" && it != "empty" }),
            lines.all.map(::fieldNames))
        assertEquals(listOf("feed", "matches", null), lines.all.map { field(it, "screen") })
        assertTrue(lines.all.all { it.endsWith(",\"install_id\":\"abc\"}") })
    }

    @Test fun idsAreTimeOrderedUuidV7sAndTsFollowsTheClock() {
        val lines = Collected<String>()
        val clock = ManualClock()
        val recorder = recorder(lines, clock)
        for (session in 0 until 20) {
            recorder.pullStart()
            clock.advance(0.25)
            recorder.pullMove(10.0)
            recorder.cancel()
            clock.advance(if (session % 2 == 0) 0.0 else 7.5)
        }
        val made = ArrayList<String>()
        for (line in lines.all) {
            val session = field(line, "session_id")!!
            if (session !in made) made += session
            made += field(line, "event_id")!!
        }
        assertEquals(made.sorted(), made)
        assertEquals(made.size, made.toSet().size)
        assertTrue(made.all { UUIDv7GeneratorTest.isUUIDv7(it) })
        val ts = lines.all.map { field(it, "ts")!!.toDouble() }
        assertEquals(ts.sorted(), ts)
        assertEquals(1_794_800_000_000.0, ts[0], 0.0)
        assertEquals(1_794_800_000_000.25, ts[1], 0.0)
    }

    /** The system clock is wall time, sub-millisecond, and never steps back. */
    @Test fun theSystemClockIsWallTimeThatOnlyMovesForward() {
        val before = System.currentTimeMillis().toDouble()
        val clock = SystemRecorderClock()
        val readings = (0 until 1_000).map { clock.epochMilliseconds() }
        val after = System.currentTimeMillis().toDouble()
        assertEquals(readings.sorted(), readings)
        assertTrue("$before ${readings[0]} $after", before - 1 <= readings[0] && readings[999] <= after + 1)
        assertTrue("a fraction of a millisecond", readings.any { it != Math.floor(it) })
    }

    private class Clocks {
        val wall = ManualClock()
        val monotonic = ManualClock(origin = 0.0)
        val clock = SystemRecorderClock({ wall.epochMilliseconds() }, { monotonic.elapsedMs })

        fun pass(ms: Double) {
            wall.advance(ms)
            monotonic.advance(ms)
        }
    }

    /** The clock re-anchors when a session opens, and only when wall time moved more than 1,000 ms. */
    @Test fun theNextSessionFollowsWallTimeOnceItMovedMoreThanASecond() {
        for ((jump, followed) in listOf(3_600_000.0 to true, -3_600_000.0 to true, 1_001.0 to true, -1_001.0 to true,
            1_000.0 to false, -1_000.0 to false, 999.0 to false, 0.0 to false)) {
            val clocks = Clocks()
            val lines = Collected<String>()
            val recorder = recorder(lines, clocks.clock)
            recorder.pullStart()
            clocks.pass(100.0)
            recorder.cancel()
            clocks.wall.advance(jump)
            clocks.pass(2_000.0)
            recorder.pullStart()
            clocks.pass(50.0)
            recorder.cancel()
            val start = clocks.wall.origin
            val moved = if (followed) jump else 0.0
            assertEquals("jump $jump", listOf(start, start + 100, start + 2_100 + moved, start + 2_150 + moved),
                lines.all.map { field(it, "ts")!!.toDouble() })
        }
    }

    /** A wall clock set mid-gesture changes nothing in that session; the next session follows. */
    @Test fun aJumpInsideASessionWaitsForTheNextSession() {
        val clocks = Clocks()
        val lines = Collected<String>()
        val recorder = recorder(lines, clocks.clock)
        recorder.refreshStart(RefreshTrigger.PROGRAMMATIC)
        clocks.pass(100.0)
        recorder.indicatorShown()
        clocks.wall.advance(3_600_000.0)
        clocks.pass(1_500.0)
        recorder.loadComplete(false)
        recorder.indicatorHidden()
        clocks.wall.advance(-7_200_000.0)
        clocks.pass(100.0)
        recorder.errorShown("offline")
        clocks.pass(100.0)
        recorder.refreshStart(RefreshTrigger.PROGRAMMATIC)
        val start = clocks.wall.origin
        assertEquals(listOf(start, start + 100, start + 1_600, start + 1_600, start + 1_700, start - 3_598_200),
            lines.all.map { field(it, "ts")!!.toDouble() })
        assertEquals(listOf(0, 1, 2, 3, 4, 0), lines.all.map { field(it, "seq")!!.toInt() })
    }

    /** Wall time drifting a little every session is caught up with once the drift since the anchor passes 1,000 ms. */
    @Test fun smallDriftsAddUpUntilTheyPassTheThreshold() {
        val clocks = Clocks()
        val lines = Collected<String>()
        val recorder = recorder(lines, clocks.clock)
        repeat(4) {
            recorder.pullStart()
            clocks.wall.advance(600.0)
            clocks.pass(10_000.0)
        }
        val start = clocks.wall.origin
        assertEquals(listOf(start, start + 10_000, start + 21_200, start + 31_200), lines.all.map { field(it, "ts")!!.toDouble() })
    }

    /** Each value the format forbids: refused through onError, no line, no session opened or seq spent. */
    @Test fun forbiddenValuesAreRefusedThroughOnErrorWithoutALine() {
        val refusals: List<Pair<String, (PullParityRecorder) -> Unit>> = listOf(
            "negative distance" to { r -> r.pullMove(-1.0) },
            "NaN distance" to { r -> r.pullMove(Double.NaN) },
            "infinite distance" to { r -> r.pullMove(Double.POSITIVE_INFINITY) },
            "negative armed distance" to { r -> r.armed(-3.0) },
            "NaN disarmed distance" to { r -> r.disarmed(Double.NaN) },
            "infinite release distance" to { r -> r.release(Double.POSITIVE_INFINITY) },
            "reveal progress over 1" to { r -> r.reveal(1.01, 5) },
            "reveal progress under 0" to { r -> r.reveal(-0.1, 0) },
            "reveal progress NaN" to { r -> r.reveal(Double.NaN, 1) },
            "negative visible" to { r -> r.reveal(0.5, -1) },
            "missing label state (from Java)" to { r -> r.label("Släpp", null) },
            "missing label text (from Java)" to { r -> r.label(null, LabelState.READY) },
            "missing trigger (from Java)" to { r -> r.refreshStart(null) },
            "missing cache key (from Java)" to { r -> r.cacheInvalidated(null) })
        for ((name, call) in refusals) {
            val lines = Collected<String>()
            val errors = Collected<PullParityError>()
            val recorder = recorder(lines, errors = errors)
            recorder.pullStart()
            call(recorder)
            recorder.pullMove(2.0)
            assertEquals(name, listOf(PullParityError.Kind.REFUSED_VALUE), errors.all.map { it.kind })
            assertEquals(name, listOf("pull_start", "pull_move"), lines.all.map { field(it, "type") })
            assertEquals(name, listOf("0", "1"), lines.all.map { field(it, "seq") })
        }
    }

    /** What ingest stores is written, as the web and Swift recorders write it: a negative offset
     *  or indicator count; an offset, stagger or cycle JSON cannot hold is left out of the line. */
    @Test fun valuesIngestStoresAreWrittenAndUnwritableOptionalNumbersLeftOut() {
        val lines = Collected<String>()
        val errors = Collected<PullParityError>()
        val recorder = recorder(lines, errors = errors)
        recorder.pullStart()
        recorder.pullMove(1.0, -0.5)
        recorder.pullMove(2.0, Double.NaN)
        recorder.indicatorShown(IndicatorConfig(count = -1, cycleMs = Double.POSITIVE_INFINITY))
        assertEquals(emptyList<PullParityError>(), errors.all)
        assertEquals(listOf("-0.5", null), lines.all.slice(1..2).map { field(it, "offset") })
        assertTrue(lines.all[3], lines.all[3].contains("\"indicator\":{\"count\":-1}"))
    }

    @Test fun edgesOfTheAllowedValuesAreWritten() {
        val lines = Collected<String>()
        val recorder = recorder(lines)
        recorder.pullStart()
        recorder.pullMove(0.0, 0.0)
        recorder.reveal(0.0, 0)
        recorder.reveal(1.0, 5)
        recorder.label("", LabelState.PULLING)
        assertEquals(5, lines.all.size)
    }

    @Test fun anEmptyAppOrABadPlatformWritesNothingAndSaysSoOnce() {
        for ((app, platform) in listOf("" to "android", "padel" to "", "padel" to "Android", "padel" to "an droid")) {
            val lines = Collected<String>()
            val errors = Collected<PullParityError>()
            val recorder = PullParityRecorder(app = app, platform = platform, sink = lines.sink(), clock = ManualClock(),
                onError = { errors.add(it) })
            recorder.pullStart()
            recorder.pullMove(3.0)
            assertEquals("$app/$platform", listOf(PullParityError.Kind.INVALID_IDENTITY), errors.all.map { it.kind })
            assertEquals(emptyList<String>(), lines.all)
        }
    }

    @Test fun aClockOutsideTheFormatsYearsIsRefused() {
        val lines = Collected<String>()
        val errors = Collected<PullParityError>()
        val recorder = recorder(lines, ManualClock(origin = 0.0), errors = errors, installIds = FixedInstallId(""))
        recorder.pullStart()
        // Both are heard, the install id's failure too though no line was written.
        assertEquals(listOf(PullParityError.Kind.INSTALL_ID, PullParityError.Kind.REFUSED_VALUE), errors.all.map { it.kind })
        assertEquals(0, lines.all.size)
    }

    @Test fun nothingASinkOrTheAppsHandlerThrowsReachesTheApp() {
        val errors = Collected<PullParityError>()
        val recorder = PullParityRecorder(app = "padel", clock = ManualClock(), onError = { errors.add(it) },
            sink = object : EventSink {
                override fun write(line: String) = throw IllegalStateException("disk on fire")
                override fun flush() = throw IllegalStateException("flush on fire")
            })
        recorder.pullStart()
        recorder.flush()
        assertEquals(listOf(PullParityError.Kind.SINK, PullParityError.Kind.SINK), errors.all.map { it.kind })
        assertTrue(errors.all[0].message!!.contains("disk on fire"))
        val throwing = PullParityRecorder(app = "padel", clock = ManualClock(), sink = Collected<String>().sink(),
            onError = { throw IllegalStateException("the app's handler") })
        throwing.pullMove(-1.0)
    }

    @Test fun theInstallIdIsReadOnceAndAFailureLeavesItOut() {
        var reads = 0
        val lines = Collected<String>()
        val recorder = recorder(lines, installIds = object : InstallIdStore {
            override fun installId(): String {
                reads += 1
                return "id-$reads"
            }
        })
        repeat(3) { recorder.pullStart() }
        assertEquals(1, reads)
        assertTrue(lines.all.all { field(it, "install_id") == "id-1" })

        for (store in listOf(FixedInstallId(""), FixedInstallId("x".repeat(129)), object : InstallIdStore {
            override fun installId(): String = throw java.io.IOException("no storage")
        })) {
            val failed = Collected<String>()
            val errors = Collected<PullParityError>()
            val other = recorder(failed, errors = errors, installIds = store)
            other.pullStart()
            other.cancel()
            assertEquals(listOf(PullParityError.Kind.INSTALL_ID), errors.all.map { it.kind })
            assertEquals(2, failed.all.size)
            assertTrue(failed.all.none { it.contains("install_id") })
        }
        val longest = Collected<String>()
        recorder(longest, installIds = FixedInstallId("é".repeat(128))).pullStart()
        assertEquals("é".repeat(128), field(longest.all.single(), "install_id"))
    }

    @Test fun theFileInstallIdIsMadeOnceAndReusedAfter() {
        val folder = temporaryFolder()
        val file = File(folder, "nested/install-id")
        val first = FileInstallIdStore(file).installId()
        assertTrue(first, Regex("[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}").matches(first))
        assertEquals(first, FileInstallIdStore(file).installId())
        assertEquals(first + "\n", file.readText())
        assertEquals(listOf("install-id"), file.parentFile.list()!!.toList())
        // A file that holds no id (emptied, cut short) is replaced by a new one.
        file.writeText("   \n")
        val second = FileInstallIdStore(file, newId = { "second" }).installId()
        assertEquals("second", second)
        assertEquals("second", FileInstallIdStore(file, newId = { "third" }).installId())
        // Two stores racing for a new file agree on one id.
        val raced = File(folder, "raced")
        val start = CountDownLatch(1)
        val ids = Collected<String>()
        val threads = (0 until 8).map { index ->
            Thread { start.await(); ids.add(FileInstallIdStore(raced, newId = { "id-$index" }).installId()) }.apply { start() }
        }
        start.countDown()
        threads.forEach { it.join() }
        assertEquals(1, ids.all.toSet().size)
        assertEquals(ids.all[0] + "\n", raced.readText())
    }

    /** Calls from many threads: every line written, each session's seqs contiguous in ts order. */
    @Test fun concurrentCallsKeepEveryLineAndContiguousSeqs() {
        val lines = Collected<String>()
        val clock = ManualClock()
        val recorder = recorder(lines, clock)
        val start = CountDownLatch(1)
        val threads = (0 until 8).map {
            Thread {
                start.await()
                repeat(200) {
                    clock.advance(0.5)
                    recorder.pullMove(1.0)
                }
            }.apply { start() }
        }
        recorder.pullStart()
        start.countDown()
        threads.forEach { it.join() }
        assertEquals(1_601, lines.all.size)
        assertEquals((0 until 1_601).map { it.toString() }, lines.all.map { field(it, "seq") })
        val ts = lines.all.map { field(it, "ts")!!.toDouble() }
        assertEquals(ts.sorted(), ts)
        assertEquals(1, lines.all.map { field(it, "session_id") }.toSet().size)
    }

    @Test fun closeSessionStartsAFreshSession() {
        val lines = Collected<String>()
        val recorder = recorder(lines)
        recorder.pullStart()
        val first = recorder.currentSessionId
        recorder.closeSession()
        assertEquals(null, recorder.currentSessionId)
        recorder.loadComplete(true)
        assertNotEquals(first, recorder.currentSessionId)
        assertFalse(recorder.currentSessionId == null)
    }
}
