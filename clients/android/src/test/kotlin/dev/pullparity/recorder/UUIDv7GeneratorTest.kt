package dev.pullparity.recorder

import org.junit.Assert.assertEquals
import org.junit.Assert.assertNotEquals
import org.junit.Assert.assertTrue
import org.junit.Test

class UUIDv7GeneratorTest {
    companion object {
        private val shape = Regex("[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}")

        /** Lowercase hex 8-4-4-4-12, version 7, RFC variant. */
        fun isUUIDv7(id: String) = shape.matches(id)

        /** The 48-bit millisecond field, read back from the text. */
        fun milliseconds(id: String): Long = id.replace("-", "").substring(0, 12).toLong(16)
    }

    @Test fun idsAreVersion7WithTheTimestampInTheirFirst48Bits() {
        val ids = UUIDv7Generator()
        for (timestamp in listOf(0.0, 1_794_800_000_123.9, 281_474_976_710_655.0)) {
            val id = ids.nextId(timestamp)
            assertTrue(id, isUUIDv7(id))
            assertEquals(id, Math.floor(timestamp).toLong(), milliseconds(id))
        }
    }

    @Test fun aClockOutOfRangeIsClamped() {
        for ((timestamp, expected) in listOf(-5.0 to 0L, 1e20 to 0xFFFF_FFFF_FFFFL, Double.POSITIVE_INFINITY to 0L,
            Double.NEGATIVE_INFINITY to 0L, Double.NaN to 0L)) {
            val id = UUIDv7Generator().nextId(timestamp)
            assertTrue(id, isUUIDv7(id))
            assertEquals("$timestamp", expected, milliseconds(id))
        }
    }

    /** Same millisecond, a clock that steps back, more ids in a millisecond than the counter holds. */
    @Test fun idsSortInTheOrderTheyWereMade() {
        val ids = seededIds()
        val timestamps = List(5_000) { 1_794_800_000_000.5 } + 1_794_799_999_000.0 + (0 until 50).map { 1_794_800_000_010 + it / 10.0 }
        val made = timestamps.map { ids.nextId(it) }
        assertEquals(made.sorted(), made)
        assertEquals(made.size, made.toSet().size)
        assertTrue(made.all(::isUUIDv7))
        assertEquals(1_794_800_000_000, milliseconds(made[0]))
        assertTrue(milliseconds(made[4_999]) > 1_794_800_000_000)
        assertTrue(milliseconds(made[5_000]) >= milliseconds(made[4_999]))
    }

    @Test fun aSeededGeneratorRepeatsItselfAsSwiftsDoes() {
        val a = seededIds(42).let { ids -> (0 until 10).map { ids.nextId(1_794_800_000_000.0 + it) } }
        val b = seededIds(42).let { ids -> (0 until 10).map { ids.nextId(1_794_800_000_000.0 + it) } }
        val c = seededIds(43).let { ids -> (0 until 10).map { ids.nextId(1_794_800_000_000.0 + it) } }
        assertEquals(a, b)
        assertTrue(a.intersect(c).isEmpty())
        assertNotEquals(a[0], a[1])
        // SplitMix64's first output for seed 7, from the reference algorithm (Python's integers).
        assertEquals(java.lang.Long.parseUnsignedLong("63cbe1e459320dd7", 16), SplitMix64(7).nextLong())
    }
}
