package dev.pullparity.recorder

import java.math.BigDecimal
import java.math.MathContext
import java.math.RoundingMode

/**
 * One JSON object as text, fields in the order they are added, written byte for byte as the
 * Swift recorder's `JSONObjectWriter` writes them: the same event is the same line on every
 * platform, which is what ingest's duplicate check compares.
 */
internal class JsonObjectWriter {
    private val text = StringBuilder("{")

    fun string(key: String, value: String?): JsonObjectWriter {
        if (value == null) return this
        key(key)
        JsonText.appendQuoted(value, text)
        return this
    }

    fun number(key: String, value: Double?): JsonObjectWriter {
        if (value == null) return this
        key(key)
        text.append(JsonText.number(value))
        return this
    }

    fun integer(key: String, value: Int?): JsonObjectWriter {
        if (value == null) return this
        key(key)
        text.append(value)
        return this
    }

    fun bool(key: String, value: Boolean?): JsonObjectWriter {
        if (value == null) return this
        key(key)
        text.append(if (value) "true" else "false")
        return this
    }

    fun obj(key: String, value: JsonObjectWriter): JsonObjectWriter {
        key(key)
        text.append(value.finished())
        return this
    }

    fun finished(): String = "$text}"

    private fun key(key: String) {
        if (text.length > 1) text.append(',')
        JsonText.appendQuoted(key, text)
        text.append(':')
    }
}

/** How numbers and strings are spelled in a line. */
internal object JsonText {
    private const val LARGEST_DECIMAL = 9007199254740992.0 // 2^53

    /**
     * Swift's `Double.description`: the shortest digits that read back as the same double (the
     * closest such when several are as short), in decimal from 1e-4 up to 2^53 (`12.0`, `12.5`,
     * `1794812512591.125`, `0.0001`) and in exponent form outside it (`1e-05`, `1e+16`,
     * `1.5e+16`). Java's `Double.toString` differs (`1.794812512591125E12`, and before JDK 19
     * not always the shortest digits). A non-finite number has no JSON spelling: `null`, as in
     * Swift (the recorder refuses such values before they get here).
     */
    fun number(value: Double): String {
        if (value.isNaN() || value.isInfinite()) return "null"
        if (value == 0.0) return if (1.0 / value < 0) "-0.0" else "0.0"
        val sign = if (value < 0) "-" else ""
        val shortest = shortestDigits(Math.abs(value))
        val digits = shortest.first
        val exponent = shortest.second // value = d.ddd × 10^exponent
        val text = if (exponent < -4 || Math.abs(value) > LARGEST_DECIMAL) {
            exponentForm(digits, exponent)
        } else {
            decimalForm(digits, exponent)
        }
        return sign + text
    }

    /** The digits (no trailing zeros) and the decimal exponent of the first of them. */
    private fun shortestDigits(value: Double): Pair<String, Int> {
        val exact = BigDecimal(value)
        for (precision in 1..17) {
            var best: BigDecimal? = null
            // The nearest candidate first; at a power of two the interval below the value is
            // half the one above, so a shorter candidate may lie on the far side.
            for (mode in arrayOf(RoundingMode.HALF_EVEN, RoundingMode.FLOOR, RoundingMode.CEILING)) {
                val candidate = exact.round(MathContext(precision, mode))
                if (candidate.toDouble() != value) continue
                val current = best
                if (current == null || candidate.subtract(exact).abs() < current.subtract(exact).abs()) {
                    best = candidate
                }
            }
            val found = best ?: continue
            val stripped = found.stripTrailingZeros()
            val digits = stripped.unscaledValue().toString()
            return Pair(digits, digits.length - 1 - stripped.scale())
        }
        throw IllegalStateException("no round-trip digits for $value")
    }

    private fun decimalForm(digits: String, exponent: Int): String {
        if (exponent < 0) return "0." + "0".repeat(-exponent - 1) + digits
        val whole = exponent + 1
        if (digits.length <= whole) return digits + "0".repeat(whole - digits.length) + ".0"
        return digits.substring(0, whole) + "." + digits.substring(whole)
    }

    private fun exponentForm(digits: String, exponent: Int): String {
        val mantissa = if (digits.length == 1) digits else digits[0] + "." + digits.substring(1)
        val magnitude = Math.abs(exponent).toString().padStart(2, '0')
        return mantissa + "e" + (if (exponent < 0) "-" else "+") + magnitude
    }

    /**
     * Escapes what JSON requires (quote, backslash, control characters) and nothing else, as the
     * Swift recorder does: Swedish copy and emoji stay readable UTF-8. A lone surrogate, which
     * no UTF-8 can carry, becomes U+FFFD.
     */
    fun appendQuoted(value: String, text: StringBuilder) {
        text.append('"')
        var index = 0
        while (index < value.length) {
            val char = value[index]
            when {
                char == '"' -> text.append("\\\"")
                char == '\\' -> text.append("\\\\")
                char == '\n' -> text.append("\\n")
                char == '\r' -> text.append("\\r")
                char == '\t' -> text.append("\\t")
                char == '\b' -> text.append("\\b")
                char == '\u000C' -> text.append("\\f")
                char < ' ' -> text.append("\\u").append(Integer.toHexString(char.toInt()).padStart(4, '0'))
                Character.isHighSurrogate(char) && index + 1 < value.length &&
                    Character.isLowSurrogate(value[index + 1]) -> {
                    text.append(char).append(value[index + 1])
                    index += 1
                }
                Character.isSurrogate(char) -> text.append('\uFFFD')
                else -> text.append(char)
            }
            index += 1
        }
        text.append('"')
    }
}
