package dev.pullparity.recorder

import org.junit.Assert.assertEquals
import org.junit.Test

class JsonTextTest {
    /** Each double with its text as Swift's `Double.description` writes it (printed by Swift 6.3). */
    private val swiftSpellings = listOf(
        0.0 to "0.0", -0.0 to "-0.0", 1.0 to "1.0", 12.0 to "12.0", 12.5 to "12.5", 0.1 + 0.2 to "0.30000000000000004",
        1e15 to "1000000000000000.0", 1e16 to "1e+16", 9007199254740992.0 to "9007199254740992.0",
        9007199254740994.0 to "9.007199254740994e+15", 1.5e16 to "1.5e+16", 123456789012345678.0 to "1.2345678901234568e+17",
        0.001 to "0.001", 0.0001 to "0.0001", 0.00001 to "1e-05", 1.5e-5 to "1.5e-05", 9.99e-5 to "9.99e-05",
        0.00010000000000000002 to "0.00010000000000000002", 5e-324 to "5e-324",
        1.7976931348623157e308 to "1.7976931348623157e+308", 2.2250738585072014e-308 to "2.2250738585072014e-308",
        1794812512591.125 to "1794812512591.125", 25.2 to "25.2", 35 * 0.72 to "25.2", 100.0 to "100.0",
        1e22 to "1e+22", 1e23 to "1e+23", 2e23 to "2e+23", 4.35 to "4.35", 0.3 to "0.3", 2.0 / 3.0 to "0.6666666666666666",
        1e7 to "10000000.0", 12345678.9 to "12345678.9", 1e-4 * 3 to "0.00030000000000000003",
        100.0 / 3.0 to "33.333333333333336", 8.41e21 to "8.41e+21", 5e-310 to "5e-310", 123456.0 to "123456.0",
        -12.25 to "-12.25", -1e-7 to "-1e-07", 9007199254740990.0 to "9007199254740990.0", 1.2e-100 to "1.2e-100",
        1e100 to "1e+100", 123e-20 to "1.23e-18")

    @Test fun numbersAreWrittenAsSwiftWritesThem() {
        for ((value, text) in swiftSpellings) assertEquals("the spelling of $value", text, JsonText.number(value))
    }

    @Test fun everyDoubleReadsBackAsItself() {
        val random = java.util.Random(3)
        repeat(20_000) {
            val value = java.lang.Double.longBitsToDouble(random.nextLong())
            if (value.isNaN() || value.isInfinite()) return@repeat
            val text = JsonText.number(value)
            assertEquals(text, value, text.toDouble(), 0.0)
        }
    }

    @Test fun nonFiniteNumbersAreNull() {
        assertEquals("null", JsonText.number(Double.NaN))
        assertEquals("null", JsonText.number(Double.POSITIVE_INFINITY))
    }

    @Test fun stringsEscapeWhatJsonRequiresAndNothingElse() {
        val text = StringBuilder()
        JsonText.appendQuoted("a\"b\\c\nd\re\tf\bg\u000Ch\u0001i\u001Fj\u007Fk Släpp 🎾 \uD800x", text)
        assertEquals("\"a\\\"b\\\\c\\nd\\re\\tf\\bg\\fh\\u0001i\\u001fj\u007Fk Släpp 🎾 \uFFFDx\"", text.toString())
    }
}
