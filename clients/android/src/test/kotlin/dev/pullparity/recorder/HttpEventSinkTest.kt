package dev.pullparity.recorder

import com.sun.net.httpserver.HttpServer
import org.junit.After
import org.junit.Assert.assertEquals
import org.junit.Assert.assertTrue
import org.junit.Test
import java.net.InetSocketAddress
import java.net.URL
import java.util.concurrent.LinkedBlockingQueue
import java.util.concurrent.TimeUnit
import java.util.concurrent.atomic.AtomicInteger

/** The HTTP sink against a real collector on 127.0.0.1 (the JDK's own HTTP server). */
class HttpEventSinkTest {
    /** Answers each POST with the next of [statuses] (then 200), and keeps what it received. */
    private class Collector(vararg statuses: Int) {
        private val planned = LinkedBlockingQueue(statuses.toList())
        val bodies = LinkedBlockingQueue<Pair<Int, String>>()
        val contentTypes = LinkedBlockingQueue<String>()
        val posts = AtomicInteger()
        val server: HttpServer = HttpServer.create(InetSocketAddress("127.0.0.1", 0), 0).apply {
            createContext("/events") { exchange ->
                val body = exchange.requestBody.readBytes().toString(Charsets.UTF_8)
                val status = planned.poll() ?: 200
                posts.incrementAndGet()
                contentTypes += exchange.requestHeaders.getFirst("Content-Type")
                bodies += status to body
                exchange.sendResponseHeaders(status, -1)
                exchange.close()
            }
            start()
        }
        val url = URL("http://127.0.0.1:${server.address.port}/events")

        /** The next body received within a few seconds. */
        fun next(): Pair<Int, String> = bodies.poll(10, TimeUnit.SECONDS) ?: throw AssertionError("no POST arrived")

        fun accepted(): List<String> = bodies.toList().filter { it.first == 200 }.flatMap { it.second.lines().filter(String::isNotEmpty) }

        fun stop() = server.stop(0)
    }

    private val collectors = ArrayList<Collector>()

    private fun collector(vararg statuses: Int) = Collector(*statuses).also { collectors += it }

    @After fun stopCollectors() = collectors.forEach { it.stop() }

    /** Waits up to ten seconds for [condition]. */
    private fun eventually(condition: () -> Boolean) {
        val deadline = System.nanoTime() + 10_000_000_000
        while (!condition()) {
            if (System.nanoTime() > deadline) throw AssertionError("timed out waiting")
            Thread.sleep(5)
        }
    }

    @Test fun linesArriveInBatchesAsJsonLines() {
        val collector = collector()
        val errors = Collected<PullParityError>()
        val sink = HttpEventSink(collector.url, flushIntervalMs = 60_000, maxBatchLines = 3, onError = { errors.add(it) })
        (0 until 7).forEach { sink.write("{\"n\":$it,\"t\":\"Släpp\"}") }
        // Two full batches go at once; the seventh line waits for the interval or a flush.
        assertEquals(200 to (0 until 3).joinToString("") { "{\"n\":$it,\"t\":\"Släpp\"}\n" }, collector.next())
        assertEquals(200 to (3 until 6).joinToString("") { "{\"n\":$it,\"t\":\"Släpp\"}\n" }, collector.next())
        sink.flush()
        assertEquals(200 to "{\"n\":6,\"t\":\"Släpp\"}\n", collector.next())
        assertTrue(collector.contentTypes.all { it == "application/x-ndjson; charset=utf-8" })
        sink.close()
        assertTrue(sink.awaitClosed(5_000))
        assertEquals(7L, sink.sent)
        assertEquals(0, sink.pending)
        assertEquals(emptyList<PullParityError>(), errors.all)
    }

    @Test fun aBatchIsSentWithinTheFlushInterval() {
        val collector = collector()
        val errors = Collected<PullParityError>()
        val sink = HttpEventSink(collector.url, flushIntervalMs = 50, onError = { errors.add(it) })
        sink.write("{\"a\":1}")
        assertEquals(200 to "{\"a\":1}\n", collector.next())
        sink.close()
        assertTrue(sink.awaitClosed(5_000))
        assertEquals(1L, sink.sent)
        assertEquals(emptyList<PullParityError>(), errors.all)
    }

    /**
     * The collector refuses twice: the same body is sent again byte for byte, after a delay that
     * doubles; lines written meanwhile wait for the retry and go in a batch of their own after it.
     * The outage is reported once, and once more when it ends.
     */
    @Test fun aFailedBatchIsSentAgainWithTheSameLines() {
        val collector = collector(503, 500)
        val errors = Collected<PullParityError>()
        val sink = HttpEventSink(collector.url, flushIntervalMs = 60_000, maxBatchLines = 2, retryDelayMs = 150,
            maxRetryDelayMs = 1_000, onError = { errors.add(it) })
        val started = System.nanoTime()
        sink.write("{\"a\":1}")
        sink.write("{\"b\":\"é\"}")
        val first = collector.next()
        sink.write("{\"c\":3}")
        sink.write("{\"d\":4}")
        val second = collector.next()
        val third = collector.next()
        val elapsedMs = (System.nanoTime() - started) / 1e6
        assertEquals(503 to "{\"a\":1}\n{\"b\":\"é\"}\n", first)
        assertEquals(500 to first.second, second)
        assertEquals(200 to first.second, third)
        // 150 ms, then 300 ms: the retries waited for their delays.
        assertTrue("$elapsedMs ms", elapsedMs >= 450)
        assertEquals(200 to "{\"c\":3}\n{\"d\":4}\n", collector.next())
        assertEquals(listOf(PullParityError.Kind.HTTP, PullParityError.Kind.HTTP), errors.all.map { it.kind })
        assertTrue(errors.all[0].message!!, errors.all[0].message!!.contains("HTTP 503"))
        assertTrue(errors.all[1].message!!, errors.all[1].message!!.contains("again after 2 failed POSTs"))
        sink.close()
    }

    @Test fun aCollectorThatIsNotThereIsRetriedUntilItIs() {
        val down = Collector()
        val url = down.url
        down.stop()
        val errors = Collected<PullParityError>()
        val sink = HttpEventSink(url, flushIntervalMs = 10, retryDelayMs = 100, maxRetryDelayMs = 100, connectTimeoutMs = 1_000,
            onError = { errors.add(it) })
        sink.write("{\"a\":1}")
        eventually { errors.all.isNotEmpty() }
        assertTrue(errors.all.single().message!!.contains("cannot POST"))
        // The collector comes back on the same port.
        val back = HttpServer.create(InetSocketAddress("127.0.0.1", url.port), 0)
        val received = LinkedBlockingQueue<String>()
        back.createContext("/events") { exchange ->
            received += exchange.requestBody.readBytes().toString(Charsets.UTF_8)
            exchange.sendResponseHeaders(204, -1)
            exchange.close()
        }
        back.start()
        try {
            assertEquals("{\"a\":1}\n", received.poll(10, TimeUnit.SECONDS))
        } finally {
            sink.close()
            back.stop(0)
        }
    }

    /** While the collector refuses, at most maxQueueLines wait: the oldest go, counted, reported once. */
    @Test fun theQueueIsBoundedAndKeepsTheNewestLines() {
        val collector = collector(503)
        val errors = Collected<PullParityError>()
        val sink = HttpEventSink(collector.url, flushIntervalMs = 60_000, maxBatchLines = 3, maxQueueLines = 5,
            retryDelayMs = 300, onError = { errors.add(it) })
        (0 until 3).forEach { sink.write("{\"n\":$it}") }
        assertEquals(503, collector.next().first)
        eventually { errors.all.isNotEmpty() }
        (3 until 12).forEach { sink.write("{\"n\":$it}") }
        assertEquals(7L, sink.dropped)
        assertEquals(5, sink.pending)
        // The retry carries what is left of the failed batch's lines: none; the queue then goes in batches.
        sink.flush()
        eventually { sink.pending == 0 }
        assertEquals((7 until 12).map { "{\"n\":$it}" }, collector.accepted())
        assertEquals(listOf(PullParityError.Kind.HTTP, PullParityError.Kind.QUEUE_FULL, PullParityError.Kind.HTTP),
            errors.all.map { it.kind })
        sink.close()
    }

    @Test fun closeSendsWhatIsQueuedAndLaterLinesAreRefused() {
        val collector = collector()
        val errors = Collected<PullParityError>()
        val sink = HttpEventSink(collector.url, flushIntervalMs = 60_000, maxBatchLines = 2, onError = { errors.add(it) })
        sink.write("{\"a\":1}")
        sink.close()
        assertTrue(sink.awaitClosed(5_000))
        sink.write("{\"b\":2}")
        assertEquals(listOf("{\"a\":1}"), collector.accepted())
        assertEquals(listOf(PullParityError.Kind.HTTP), errors.all.map { it.kind })
    }

    @Test fun aBodyStaysWithinItsByteBudgetAndALongLineGoesAlone() {
        val collector = collector()
        val sink = HttpEventSink(collector.url, flushIntervalMs = 60_000, maxBatchLines = 100, maxBatchBytes = 40)
        val long = "{\"long\":\"${"z".repeat(60)}\"}"
        listOf("{\"a\":\"${"x".repeat(15)}\"}", "{\"b\":\"${"x".repeat(15)}\"}", long, "{\"c\":1}").forEach(sink::write)
        sink.close()
        assertTrue(sink.awaitClosed(5_000))
        val bodies = collector.bodies.toList().map { it.second }
        assertEquals(listOf("{\"a\":\"${"x".repeat(15)}\"}\n", "{\"b\":\"${"x".repeat(15)}\"}\n", "$long\n", "{\"c\":1}\n"), bodies)
    }
}
