package dev.pullparity.recorder

/**
 * Where the recorder delivers its JSON lines (without the line end). The recorder calls [write]
 * under its lock, so lines reach a sink in the order their `seq`s were given: a sink must be
 * quick and must not call back into the recorder. A sink reports its failures to its own error
 * handler; anything it throws anyway is caught by the recorder and handed to `onError`.
 */
interface EventSink {
    fun write(line: String)

    /** Hands what is buffered to the transport now. */
    fun flush() {}

    /** Flushes and releases what the sink holds; lines written after it are not delivered. */
    fun close() {}
}

/** Hands each line to a callback: to batch and upload, print, or collect in a test. */
class CallbackEventSink(private val callback: (String) -> Unit) : EventSink {
    override fun write(line: String) = callback(line)
}

/** Writes every line to each of [sinks] in turn (a file on the device and the collector). */
class TeeEventSink(private vararg val sinks: EventSink) : EventSink {
    override fun write(line: String) = sinks.forEach { it.write(line) }
    override fun flush() = sinks.forEach { it.flush() }
    override fun close() = sinks.forEach { it.close() }
}
