package dev.pullparity.recorder

import java.io.IOException
import java.net.HttpURLConnection
import java.net.URL
import java.util.ArrayDeque
import java.util.concurrent.Executors
import java.util.concurrent.ScheduledExecutorService
import java.util.concurrent.ScheduledFuture
import java.util.concurrent.TimeUnit

/**
 * Batches lines and POSTs them to the collector as JSON lines, on a background thread of its own
 * (`java.net.HttpURLConnection`; nothing blocks the caller). The collector only has to append
 * each body to a file for `pullparity ingest`.
 *
 * - **Batches**: every [flushIntervalMs], or at once when [maxBatchLines] are waiting; a body
 *   holds at most [maxBatchBytes] of UTF-8 (a single longer line goes alone).
 * - **At least once, the same lines again**: a line leaves the queue only when a POST carrying
 *   it is answered 2xx. A POST that fails (no connection, a timeout, any other status) is sent
 *   again with the same lines, byte for byte, after [retryDelayMs], doubled after each failure
 *   up to [maxRetryDelayMs] and reset by a success; while a retry waits, writes only queue.
 *   `pullparity ingest` skips a line whose `event_id` and bytes it already stored, so a line
 *   that arrived twice costs nothing.
 * - **Bounded queue**: at most [maxQueueLines] lines wait; beyond that the oldest are dropped,
 *   counted in [dropped], and `onError` hears it once per outage (`QUEUE_FULL`). A failed POST is
 *   reported once per outage too (`HTTP`), and once more when the collector answers again.
 * - [close] sends what is queued one last time and stops the thread; [awaitClosed] waits for it.
 *
 * On Android the collector should be `https://` (cleartext HTTP is refused from API 28 unless
 * the app's network security config allows it), and the app needs the `INTERNET` permission.
 */
class HttpEventSink(
    val url: URL,
    val flushIntervalMs: Long = 2_000,
    val maxBatchLines: Int = 200,
    val maxBatchBytes: Int = 256 * 1024,
    val retryDelayMs: Long = 1_000,
    val maxRetryDelayMs: Long = 30_000,
    val maxQueueLines: Int = 10_000,
    val connectTimeoutMs: Int = 10_000,
    val readTimeoutMs: Int = 10_000,
    private val onError: (PullParityError) -> Unit = printPullParityError
) : EventSink {
    private val lock = Object()
    private val executor: ScheduledExecutorService = Executors.newSingleThreadScheduledExecutor { task ->
        Thread(task, "pullparity-http").apply { isDaemon = true }
    }
    /** Lines not yet acknowledged, oldest first. */
    private val queue = ArrayDeque<String>()
    /** How many of the queue's first lines the POST out carries. */
    private var inFlight = 0
    private var sending = false
    /** The lines a failed POST carried: its retry carries the same (those still queued). */
    private var retryLines = 0
    /** A retry is scheduled: until it runs, writes only queue. */
    private var retrying = false
    private var scheduled: ScheduledFuture<*>? = null
    private var scheduledAtNanos = 0L
    /** Which scheduled send is the current one: a send replaced while it was starting does nothing. */
    private var generation = 0L
    private var nextRetryDelayMs = retryDelayMs
    private var outage: String? = null
    private var failedPosts = 0
    private var overflowReported = false
    private var closed = false
    private var droppedLines = 0L
    private var sentLines = 0L

    /** Lines dropped from the queue's front because it was full. */
    val dropped: Long get() = synchronized(lock) { droppedLines }

    /** Lines acknowledged by the collector. */
    val sent: Long get() = synchronized(lock) { sentLines }

    /** Lines waiting, the ones in flight included. */
    val pending: Int get() = synchronized(lock) { queue.size }

    override fun write(line: String) {
        val reports = ArrayList<PullParityError>()
        synchronized(lock) {
            if (closed) {
                reports += PullParityError(PullParityError.Kind.HTTP, "the HTTP sink is closed; a line written after close() is not sent")
                return@synchronized
            }
            queue.addLast(line)
            if (queue.size > maxQueueLines) dropOldest(queue.size - maxQueueLines)?.let { reports += it }
            // A scheduled retry sends the queue; sending before it would undo the backoff.
            if (retrying) return@synchronized
            schedule(if (queue.size - inFlight >= maxBatchLines) 0 else flushIntervalMs)
        }
        reports.forEach(::report)
    }

    /** Sends what is queued now, unless a retry is scheduled (it will send it). */
    override fun flush() {
        synchronized(lock) {
            if (closed || retrying || sending || queue.isEmpty()) return
            schedule(0)
        }
    }

    /**
     * Sends what is queued one last time (a retry waiting is not waited for), then stops the
     * thread. Lines still queued after a failure are lost. Does not block: see [awaitClosed].
     */
    override fun close() {
        synchronized(lock) {
            if (closed) return
            closed = true
            scheduled?.cancel(false)
            scheduled = null
            generation += 1
            executor.execute { finalSend() }
            executor.shutdown()
        }
    }

    /** Waits up to [timeoutMs] for [close]'s last send to end; whether it did. */
    fun awaitClosed(timeoutMs: Long): Boolean = executor.awaitTermination(timeoutMs, TimeUnit.MILLISECONDS)

    /** Schedules a send in [delayMs], unless one is due sooner. */
    private fun schedule(delayMs: Long) {
        if (closed) return
        val at = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(delayMs)
        val current = scheduled
        if (current != null && !current.isDone) {
            if (at - scheduledAtNanos >= 0) return
            current.cancel(false)
        }
        scheduledAtNanos = at
        generation += 1
        val mine = generation
        scheduled = executor.schedule({ if (synchronized(lock) { mine == generation }) send() }, delayMs, TimeUnit.MILLISECONDS)
    }

    private fun finalSend() {
        synchronized(lock) { retrying = false }
        while (send()) {
            synchronized(lock) { if (queue.isEmpty()) return }
        }
    }

    /** POSTs the next batch; returns whether it was acknowledged. Runs on the sink's thread. */
    private fun send(): Boolean {
        val body: ByteArray
        synchronized(lock) {
            scheduled = null
            retrying = false
            if (sending || queue.isEmpty()) return false
            val lines = batch()
            inFlight = lines.size
            sending = true
            body = (lines.joinToString("\n") + "\n").toByteArray(Charsets.UTF_8)
        }
        var failure: String? = null
        try {
            val status = post(body)
            if (status !in 200..299) failure = "HTTP $status from $url"
        } catch (error: Exception) {
            failure = "cannot POST to $url: ${error.message ?: error}"
        }
        val reports = ArrayList<PullParityError>()
        val acknowledged: Boolean
        synchronized(lock) {
            sending = false
            if (failure == null) {
                acknowledged(reports)
                acknowledged = true
            } else {
                failed(failure, reports)
                acknowledged = false
            }
        }
        reports.forEach(::report)
        return acknowledged
    }

    /** The oldest lines for one POST: the failed POST's lines again, else as many as fit. */
    private fun batch(): List<String> {
        val lines = ArrayList<String>()
        var bytes = 0
        val limit = if (retryLines > 0) Math.min(retryLines, queue.size) else Math.min(maxBatchLines, queue.size)
        for (line in queue) {
            if (lines.size == limit) break
            val size = utf8Length(line) + 1
            if (retryLines == 0 && lines.isNotEmpty() && bytes + size > maxBatchBytes) break
            lines += line
            bytes += size
        }
        return lines
    }

    private fun acknowledged(reports: MutableList<PullParityError>) {
        repeat(inFlight) { queue.removeFirst() }
        sentLines += inFlight
        inFlight = 0
        retryLines = 0
        nextRetryDelayMs = retryDelayMs
        overflowReported = false
        outage?.let {
            val posts = if (failedPosts == 1) "1 failed POST" else "$failedPosts failed POSTs"
            reports += PullParityError(PullParityError.Kind.HTTP, "sending events to $url again after $posts: $it")
        }
        outage = null
        failedPosts = 0
        if (queue.isNotEmpty()) schedule(0)
    }

    private fun failed(failure: String, reports: MutableList<PullParityError>) {
        retryLines = inFlight
        inFlight = 0
        failedPosts += 1
        if (outage == null) {
            outage = failure
            reports += PullParityError(PullParityError.Kind.HTTP, "$failure; the lines stay queued and are sent again")
        }
        if (closed) return
        scheduled?.cancel(false)
        scheduled = null
        // A send scheduled before the failure must not bypass the backoff.
        schedule(nextRetryDelayMs)
        retrying = true
        nextRetryDelayMs = Math.min(nextRetryDelayMs * 2, maxRetryDelayMs)
    }

    private fun dropOldest(count: Int): PullParityError? {
        repeat(count) { queue.removeFirst() }
        droppedLines += count
        inFlight = Math.max(0, inFlight - count)
        retryLines = Math.max(0, retryLines - count)
        if (overflowReported) return null
        // Once per outage, not once per line: the app hears that lines are being lost.
        overflowReported = true
        return PullParityError(PullParityError.Kind.QUEUE_FULL,
            "the HTTP sink's queue holds at most $maxQueueLines lines; dropped the oldest")
    }

    private fun post(body: ByteArray): Int {
        val connection = url.openConnection() as HttpURLConnection
        try {
            connection.requestMethod = "POST"
            connection.doOutput = true
            connection.connectTimeout = connectTimeoutMs
            connection.readTimeout = readTimeoutMs
            connection.setRequestProperty("Content-Type", "application/x-ndjson; charset=utf-8")
            connection.setFixedLengthStreamingMode(body.size)
            connection.outputStream.use { it.write(body) }
            val status = connection.responseCode
            try {
                (if (status < 400) connection.inputStream else connection.errorStream)?.use { it.readBytes() }
            } catch (ignored: IOException) {
                // The status is the answer; a body cut short changes nothing.
            }
            return status
        } finally {
            connection.disconnect()
        }
    }

    private fun report(error: PullParityError) {
        try {
            onError(error)
        } catch (ignored: Exception) {
            // The app's own handler failed: there is no one left to tell.
        }
    }

    private companion object {
        fun utf8Length(text: String): Int {
            var bytes = 0
            var index = 0
            while (index < text.length) {
                val code = text.codePointAt(index)
                bytes += when {
                    code < 0x80 -> 1
                    code < 0x800 -> 2
                    code < 0x10000 -> 3
                    else -> 4
                }
                index += Character.charCount(code)
            }
            return bytes
        }
    }
}
