package dev.pullparity.recorder

import java.io.File
import java.nio.file.Files

/** The Swift tests' `SplitMix64`: seeded, so a [UUIDv7Generator] hands out the same ids as Swift's. */
class SplitMix64(private var state: Long) : RandomSource {
    override fun nextLong(): Long {
        state += GOLDEN
        var z = state
        z = (z xor (z ushr 30)) * MIX1
        z = (z xor (z ushr 27)) * MIX2
        return z xor (z ushr 31)
    }

    private companion object {
        val GOLDEN = java.lang.Long.parseUnsignedLong("9E3779B97F4A7C15", 16)
        val MIX1 = java.lang.Long.parseUnsignedLong("BF58476D1CE4E5B9", 16)
        val MIX2 = java.lang.Long.parseUnsignedLong("94D049BB133111EB", 16)
    }
}

fun seededIds(seed: Long = 7) = UUIDv7Generator(SplitMix64(seed))

/**
 * Virtual time for scripted gestures, in whole nanoseconds: serves the recorder (`ts` is
 * [origin] plus the time passed) and the hold helpers, whose sleeps move it at once.
 */
class ManualClock(val origin: Double = 1_794_800_000_000.0) : RecorderClock, MonotonicClock {
    private var elapsedNanos = 0L

    @Synchronized fun advance(ms: Double) {
        elapsedNanos += Math.round(ms * 1_000_000)
    }

    @Synchronized fun advanceNanos(nanos: Long) {
        elapsedNanos += nanos
    }

    val elapsedMs: Double @Synchronized get() = elapsedNanos / 1e6

    @Synchronized override fun epochMilliseconds(): Double = origin + elapsedNanos / 1e6

    @Synchronized override fun nanoTime(): Long = elapsedNanos

    /** Sleeps on virtual time, for [holdAtLeast]. */
    val sleeper: (Long) -> Unit = { nanos -> advanceNanos(nanos) }
}

/** Every reading is [step] ms after the one before: a pinned clock that needs no script. */
class SteppingClock(private val origin: Double, private val step: Double) : RecorderClock {
    private var readings = 0

    @Synchronized override fun epochMilliseconds(): Double = origin + (readings++) * step
}

/** What a sink or handler was given, in order, from any thread. */
class Collected<T> {
    private val items = ArrayList<T>()

    @Synchronized fun add(item: T) {
        items += item
    }

    val all: List<T> @Synchronized get() = ArrayList(items)
}

fun Collected<String>.sink() = CallbackEventSink { add(it) }

/** A new empty folder, deleted with what it holds when the test run ends. */
fun temporaryFolder(): File = Files.createTempDirectory("pullparity-android").toFile().also { folder ->
    Runtime.getRuntime().addShutdownHook(Thread { folder.deleteRecursively() })
}

/** The repository's root, given by the build script (`-Dpullparity.repo`). */
fun repositoryRoot(): File = File(System.getProperty("pullparity.repo") ?: error("run with -Dpullparity.repo=<checkout>"))

/** Reads one line's fields in order: enough JSON for the tests' own lines. */
fun fieldNames(line: String): List<String> = Regex("[{,]\"([a-z_]+)\":").findAll(line).map { it.groupValues[1] }
    .filter { it != "kind" && it != "count" && it != "stagger_ms" && it != "cycle_ms" }.toList()

/** One top-level string or number field of a line, as written. */
fun field(line: String, name: String): String? {
    val match = Regex("\"$name\":(\"(?:[^\"\\\\]|\\\\.)*\"|[^,}]+)").find(line) ?: return null
    return match.groupValues[1].removeSurrounding("\"")
}
