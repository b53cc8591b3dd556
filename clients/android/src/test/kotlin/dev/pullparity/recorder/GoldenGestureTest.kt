package dev.pullparity.recorder

import org.junit.Assert.assertEquals
import org.junit.Assert.assertTrue
import org.junit.Test
import java.io.File

/**
 * The fixed scripted gesture's lines are the committed fixture, byte for byte; the Swift
 * recorder's test `AndroidParityTests` checks its own lines against the same file. To change the
 * gesture on purpose, regenerate it: `clients/android/build.sh golden > clients/fixtures/scripted-gesture.android.jsonl`.
 */
class GoldenGestureTest {
    private val fixture = File(repositoryRoot(), "clients/fixtures/scripted-gesture.android.jsonl")

    @Test fun theScriptedGestureWritesTheCommittedLines() {
        val expected = fixture.readLines()
        val actual = GoldenGesture.lines()
        for (index in 0 until Math.min(expected.size, actual.size)) {
            assertEquals("line ${index + 1} of $fixture", expected[index], actual[index])
        }
        assertEquals(expected.size, actual.size)
    }

    @Test fun theGestureCoversEveryEventTypeAndBothNewFields() {
        val lines = GoldenGesture.lines()
        val types = lines.map { field(it, "type") }.toSet()
        assertEquals(17, types.size)
        assertTrue(lines.all { it.endsWith(",\"install_id\":\"${GoldenGesture.INSTALL_ID}\"}") })
        assertEquals(1, lines.count { it.contains("\"trigger\":\"pull\",\"gesture_observed\":false,") })
        assertTrue(lines.any { field(it, "ts")!!.endsWith(".0") })
    }
}
