package dev.pullparity.recorder

import java.security.SecureRandom

/** Hands out `event_id`s and `session_id`s. The recorder calls it under its lock. */
interface EventIdSource {
    /** A new identifier for something that happened at [timestamp] (epoch ms). */
    fun nextId(timestamp: Double): String
}

/** 64 random bits at a time, for [UUIDv7Generator]; tests inject a seeded one. */
interface RandomSource {
    fun nextLong(): Long
}

/** The system's cryptographic random numbers. */
class SecureRandomSource(private val random: SecureRandom = SecureRandom()) : RandomSource {
    override fun nextLong(): Long = random.nextLong()
}

/**
 * Time-ordered UUIDs (RFC 9562 version 7): 48 bits of epoch milliseconds, a 12-bit counter in
 * `rand_a` (the RFC's method 1) and 62 random bits, made exactly as the Swift recorder's
 * `UUIDv7Generator` makes them (the same random source gives the same ids).
 *
 * Ids from one generator sort, as strings, in the order they were made, even within one
 * millisecond or when the clock steps back: the store then only ever appends. Not thread-safe
 * on its own: the recorder calls it under its lock.
 */
class UUIDv7Generator(private val random: RandomSource = SecureRandomSource()) : EventIdSource {
    private var lastMilliseconds = 0L
    private var counter = 0L

    override fun nextId(timestamp: Double): String {
        // Clamped to the 48-bit field: a clock far out of range gives the last millisecond the
        // field holds instead of overflowing it.
        val milliseconds = if (timestamp.isNaN() || timestamp.isInfinite()) 0L
        else Math.min(Math.max(0.0, Math.floor(timestamp)), LARGEST_MILLISECONDS.toDouble()).toLong()
        if (milliseconds > lastMilliseconds) {
            lastMilliseconds = milliseconds
            // Start low in the counter's range so that many ids in one millisecond still fit.
            counter = random.nextLong() and 0x7FF
        } else if (counter < COUNTER_LIMIT) {
            counter += 1
        } else {
            // 4096 ids in one millisecond: borrow the next one rather than lose the order.
            lastMilliseconds += 1
            counter = random.nextLong() and 0x7FF
        }
        val high = (lastMilliseconds shl 16) or 0x7000L or counter
        val low = Long.MIN_VALUE or (random.nextLong() ushr 2)
        return format(high, low)
    }

    companion object {
        private const val COUNTER_LIMIT = 0xFFFL
        private const val LARGEST_MILLISECONDS = 0xFFFF_FFFF_FFFFL

        internal fun format(high: Long, low: Long): String {
            val hex = hex16(high) + hex16(low)
            return hex.substring(0, 8) + "-" + hex.substring(8, 12) + "-" + hex.substring(12, 16) + "-" +
                hex.substring(16, 20) + "-" + hex.substring(20)
        }

        private fun hex16(value: Long): String = java.lang.Long.toHexString(value).padStart(16, '0')
    }
}
