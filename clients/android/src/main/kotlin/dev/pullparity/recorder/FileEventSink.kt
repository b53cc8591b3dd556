package dev.pullparity.recorder

import java.io.File
import java.io.IOException
import java.nio.ByteBuffer
import java.nio.channels.FileChannel
import java.nio.file.Files
import java.nio.file.NoSuchFileException
import java.nio.file.StandardCopyOption
import java.nio.file.StandardOpenOption
import java.nio.file.attribute.BasicFileAttributes
import java.util.concurrent.ConcurrentHashMap

/**
 * Appends each line, with `\n`, to a file it creates when missing: a `.jsonl` that
 * `pullparity ingest` reads as it is. The Swift recorder's `FileEventSink`, on `java.nio`.
 *
 * - **Append-only, one write a line.** The file is opened with `APPEND`, and each line goes to
 *   the system in one `write` (looping only if the system takes less), so nothing waits in a
 *   buffer when the app is killed, and two processes appending to one file cannot split each
 *   other's lines.
 * - **No line glued to a cut one.** A line cut short (a full disk, or a crash that left a partial
 *   last line in the file before this sink opened it) is ended with `\n` before the next line,
 *   so ingest quarantines only the cut line, never the good one after it.
 * - **Rotation** ([Rotation]): a line that would take the file past `maxFileBytes` goes to a new
 *   file; the full one is renamed `events.00000001.jsonl`, `events.00000002.jsonl`, … (the oldest
 *   beyond `keptFiles` deleted), numbered on from the highest in the folder, so the names sort
 *   oldest first and `pullparity ingest logs/` reads the folder in order. Files are cut only
 *   between lines. A rotation holds the file's lock and renames the file only if the path still
 *   names it, so processes sharing the file rotate it once between them.
 * - **Durability.** A written line survives the app being killed. [sync] (`FileChannel.force`)
 *   makes the lines so far survive the system going down too; it blocks for the disk, so call it
 *   off the main thread (when the app goes to the background). `syncEveryLines` syncs after
 *   that many lines, and before leaving a rotated file.
 * - **Errors, once per outage.** `onError` hears the first failure of an outage ([PullParityError]
 *   of kind `FILE_WRITE`, `FILE_SYNC` or `FILE_ROTATE`, with the path); when a line is written
 *   again, the write outage is reported once more with `linesLost`. Nothing is thrown.
 */
class FileEventSink(
    val file: File,
    val rotation: Rotation? = null,
    val syncEveryLines: Int? = null,
    private val onError: (PullParityError) -> Unit = printPullParityError
) : EventSink {
    /** When the sink moves on to a new file, and how many full ones it keeps besides. */
    data class Rotation(val maxFileBytes: Long, val keptFiles: Int = 4) {
        init {
            require(maxFileBytes > 0) { "a file must be allowed some bytes" }
            require(keptFiles > 0) { "rotation keeps at least the file it rotates" }
        }
    }

    private class Open(val channel: FileChannel, val key: Any?)

    private val path = file.toPath()

    /** Opens the file for appending; tests put a failing channel here. */
    internal var openChannel: (java.nio.file.Path) -> FileChannel = { path ->
        FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.APPEND)
    }
    private val rotator = rotation?.let { LogRotator(file, it) }
    private var open: Open? = null
    private var endsInCutLine = false
    private var linesSinceSync = 0
    private val failing = HashMap<PullParityError.Kind, PullParityError>()
    private var linesLost = 0
    private var closed = false

    init {
        require(syncEveryLines == null || syncEveryLines > 0) { "sync after at least one line" }
    }

    override fun write(line: String) {
        val reports = ArrayList<PullParityError>()
        synchronized(this) {
            if (closed) {
                reports += PullParityError(PullParityError.Kind.FILE_WRITE,
                    "cannot write events to $file: the sink is closed", path = file.path)
                return@synchronized
            }
            val bytes = (line + "\n").toByteArray(Charsets.UTF_8)
            var buffer: ByteBuffer? = null
            try {
                val channel = channelForLine(bytes.size.toLong() + (if (endsInCutLine) 1 else 0), reports)
                // Read after choosing the file: a file found to end in a cut line asks for it.
                val written = if (endsInCutLine) byteArrayOf('\n'.toByte()) + bytes else bytes
                val pending = ByteBuffer.wrap(written)
                buffer = pending
                while (pending.hasRemaining()) channel.write(pending)
                endsInCutLine = false
                succeeded(PullParityError.Kind.FILE_WRITE)?.let { reports += it }
                linesSinceSync += 1
                if (syncEveryLines != null && linesSinceSync >= syncEveryLines) syncNow(reports)
            } catch (error: Exception) {
                closeFile()
                // Bytes of the line reached the file: the next line starts on a line of its own.
                if (buffer != null && buffer.position() > 0) endsInCutLine = true
                failed(PullParityError.Kind.FILE_WRITE, "cannot write events to $file", error)?.let { reports += it }
            }
        }
        reports.forEach(::report)
    }

    /** Makes the lines written so far survive the system going down; a failure goes to `onError`. */
    fun sync() {
        val reports = ArrayList<PullParityError>()
        synchronized(this) { syncNow(reports) }
        reports.forEach(::report)
    }

    override fun flush() = sync()

    /** Syncs and closes the file; lines written after it are reported and not written. */
    override fun close() {
        val reports = ArrayList<PullParityError>()
        synchronized(this) {
            if (closed) return@synchronized
            if (linesSinceSync > 0) syncNow(reports)
            closeFile()
            closed = true
        }
        reports.forEach(::report)
    }

    private fun syncNow(reports: MutableList<PullParityError>) {
        linesSinceSync = 0
        val channel = open?.channel ?: return
        try {
            channel.force(false)
            succeeded(PullParityError.Kind.FILE_SYNC)
        } catch (error: Exception) {
            failed(PullParityError.Kind.FILE_SYNC, "cannot sync events to $file", error)?.let { reports += it }
        }
    }

    /**
     * The channel the next line of [count] bytes goes to: the open file, unless the path names
     * another file now or the line rotates it. A rotation that fails leaves the line to the full
     * file.
     */
    private fun channelForLine(count: Long, reports: MutableList<PullParityError>): FileChannel {
        var current = openFile()
        val rotator = rotator ?: return current.channel
        if (!isAtPath(current)) {
            leaveFile(reports)
            current = openFile()
        }
        try {
            if (!rotator.rotateIfFull(current.channel, current.channel.size(), count) { isAtPath(current) }) {
                return current.channel
            }
            succeeded(PullParityError.Kind.FILE_ROTATE)
        } catch (error: Exception) {
            failed(PullParityError.Kind.FILE_ROTATE, "cannot rotate $file, lines go on to it", error)?.let { reports += it }
            if (isAtPath(current)) return current.channel
        }
        leaveFile(reports)
        return openFile().channel
    }

    private fun openFile(): Open {
        open?.let { return it }
        var attempts = 0
        while (true) {
            val channel = openChannel(path)
            try {
                // A file that does not end in a line end holds a cut line (the process or the
                // system died in the middle of it): end it before the first line of ours.
                val cut = lastByteIsNotLineEnd(channel.size())
                val opened = Open(channel, fileKey())
                if (!endsInCutLine) endsInCutLine = cut
                open = opened
                return opened
            } catch (rotated: NoSuchFileException) {
                // A sink sharing the file rotated it between the open and the read of its last
                // byte: the path names no file now. Open again (the path's next file is created);
                // failing here instead lost the line.
                channel.close()
                attempts += 1
                if (attempts == MAX_OPEN_ATTEMPTS) throw rotated
            } catch (error: IOException) {
                channel.close()
                throw error
            }
        }
    }

    private fun lastByteIsNotLineEnd(size: Long): Boolean {
        if (size == 0L) return false
        FileChannel.open(path, StandardOpenOption.READ).use { reader ->
            val last = ByteBuffer.allocate(1)
            if (reader.read(last, size - 1) != 1) return false
            return last.get(0) != '\n'.toByte()
        }
    }

    /** Closes a file the path no longer names (synced first if the sink syncs on its own). */
    private fun leaveFile(reports: MutableList<PullParityError>) {
        if (syncEveryLines != null && linesSinceSync > 0) syncNow(reports)
        closeFile()
        // A line it ends in was cut in that file: the new file needs no line end first.
        endsInCutLine = false
    }

    private fun closeFile() {
        try {
            open?.channel?.close()
        } catch (ignored: IOException) {
            // Closing only releases the descriptor; a line already written stays written.
        }
        open = null
    }

    private fun fileKey(): Any? = try {
        Files.readAttributes(path, BasicFileAttributes::class.java).fileKey()
    } catch (missing: IOException) {
        null
    }

    /** Whether the path still names the open file: not once it was rotated, moved or deleted. */
    private fun isAtPath(current: Open): Boolean {
        val key = fileKey() ?: return false
        return current.key == null || key == current.key
    }

    private fun failed(kind: PullParityError.Kind, message: String, error: Exception): PullParityError? {
        if (kind == PullParityError.Kind.FILE_WRITE) linesLost += 1
        if (failing.containsKey(kind)) return null
        val reason = (error as? NoSuchFileException)?.let { "no such file or folder: ${it.file}" } ?: (error.message ?: error.toString())
        val report = PullParityError(kind, "$message: $reason", error, path = file.path)
        failing[kind] = report
        return report
    }

    /** The report to send now that [kind] succeeded: a write that ends an outage, with its lines lost. */
    private fun succeeded(kind: PullParityError.Kind): PullParityError? {
        val first = failing.remove(kind) ?: return null
        if (kind != PullParityError.Kind.FILE_WRITE) return null
        val lost = linesLost
        linesLost = 0
        val lines = if (lost == 1) "1 line" else "$lost lines"
        return PullParityError(kind, "writing events to $file again; $lines lost while it failed: ${first.message}",
            first.cause, path = file.path, linesLost = lost)
    }

    private companion object {
        /** Opens tried while other sinks keep rotating the file away from under this one. */
        const val MAX_OPEN_ATTEMPTS = 8
    }

    private fun report(error: PullParityError) {
        try {
            onError(error)
        } catch (ignored: Exception) {
            // The app's own handler failed: there is no one left to tell.
        }
    }
}

/**
 * Renames a full log file to the next number beside it and deletes the oldest numbered files
 * beyond those kept: the Swift recorder's `LogRotator`.
 */
internal class LogRotator(private val file: File, private val rotation: FileEventSink.Rotation) {
    private val folder: File = file.absoluteFile.parentFile
    private val prefix: String
    private val suffix: String

    init {
        val name = file.name
        val dot = name.lastIndexOf('.')
        if (dot > 0) {
            prefix = name.substring(0, dot + 1)
            suffix = name.substring(dot)
        } else {
            prefix = "$name."
            suffix = ""
        }
    }

    /** The name of rotated file [number]: eight digits, so that name order is age order. */
    fun rotatedFile(number: Long): File = File(folder, prefix + number.toString().padStart(8, '0') + suffix)

    /**
     * Rotates the file open as [channel], [size] bytes long, if [count] more bytes would take it
     * past the bound (an empty file is never rotated: the line is too long for any file).
     * Returns whether the path may no longer name it: rotated here, or meanwhile elsewhere.
     */
    fun rotateIfFull(channel: FileChannel, size: Long, count: Long, isAtPath: () -> Boolean): Boolean {
        if (size <= 0 || size <= rotation.maxFileBytes - count) return false
        // Two sinks of this process take turns on a JVM lock (a FileLock is the process's);
        // processes take turns on the file's lock.
        synchronized(processLock(file)) {
            val fileLock = channel.lock()
            try {
                if (!isAtPath()) return true
                val numbers = rotatedNumbers()
                // A fold, not max(): its meaning changed between Kotlin 1.3 and 1.7.
                val next = numbers.fold(0L) { highest, number -> Math.max(highest, number) } + 1
                Files.move(file.toPath(), rotatedFile(next).toPath(), StandardCopyOption.ATOMIC_MOVE)
                for (old in (numbers + next).sorted().dropLast(rotation.keptFiles)) {
                    Files.deleteIfExists(rotatedFile(old).toPath())
                }
                return true
            } finally {
                fileLock.release()
            }
        }
    }

    /** The numbers of the rotated files there are now. */
    private fun rotatedNumbers(): List<Long> {
        val names = folder.list() ?: throw IOException("cannot list $folder")
        return names.mapNotNull(::rotatedNumber)
    }

    /** The number in a rotated file's name (`events.00000042.jsonl`); null for any other name. */
    private fun rotatedNumber(name: String): Long? {
        if (name.length <= prefix.length + suffix.length || !name.startsWith(prefix) || !name.endsWith(suffix)) return null
        val digits = name.substring(prefix.length, name.length - suffix.length)
        // Eight digits or more: the sink's names. `events.7.jsonl` is someone else's file.
        if (digits.length !in 8..18 || !digits.all { it in '0'..'9' }) return null
        return digits.toLong()
    }

    private companion object {
        val locks = ConcurrentHashMap<String, Any>()

        fun processLock(file: File): Any = locks.getOrPut(file.absoluteFile.normalize().path) { Any() }
    }
}
