package dev.pullparity.recorder

/**
 * What the recorder or a sink could not do, handed to `onError`: nothing here is ever thrown
 * into the app. [kind] says which step; [path] and [linesLost] are set by the file sink (see
 * [FileEventSink]).
 */
class PullParityError(
    val kind: Kind,
    message: String,
    cause: Throwable? = null,
    val path: String? = null,
    val linesLost: Int? = null
) : Exception(message, cause) {
    enum class Kind {
        /** A value the event format forbids (a negative distance, progress past 1, …): no line. */
        REFUSED_VALUE,
        /** The recorder's identity is not one the format allows (an empty app): no line at all. */
        INVALID_IDENTITY,
        /** The install id could not be read or made: lines go on without `install_id`. */
        INSTALL_ID,
        /** A sink threw from `write`, `flush` or `close`. */
        SINK,
        /** The file sink could not open or append: the line is lost. */
        FILE_WRITE,
        /** The file sink's `force` failed: written lines are not yet on the disk. */
        FILE_SYNC,
        /** The file sink could not rotate: lines go on to the full file. */
        FILE_ROTATE,
        /** A POST failed (network, non-2xx): its lines stay queued and are sent again. */
        HTTP,
        /** The HTTP sink's queue was full: the oldest lines were dropped. */
        QUEUE_FULL,
    }

    override fun toString(): String = "PullParityError($kind): $message"
}

/** Where errors go when the app gives no `onError`: standard error (logcat on Android). */
val printPullParityError: (PullParityError) -> Unit = { error -> System.err.println("PullParity: ${error.message}") }
