package dev.pullparity.recorder

import org.junit.Assert.assertEquals
import org.junit.Assert.assertNull
import org.junit.Assert.assertTrue
import org.junit.Test
import java.io.File
import java.io.IOException
import java.nio.ByteBuffer
import java.nio.MappedByteBuffer
import java.nio.channels.FileChannel
import java.nio.channels.FileLock
import java.nio.channels.ReadableByteChannel
import java.nio.channels.WritableByteChannel
import java.nio.file.StandardOpenOption

class FileEventSinkTest {
    private fun line(index: Int) = "{\"n\":$index,\"pad\":\"${"x".repeat(40)}\"}"

    @Test fun linesAreAppendedToAFileItCreates() {
        val file = File(temporaryFolder(), "events.jsonl")
        file.writeText("{\"before\":1}\n")
        val sink = FileEventSink(file, onError = { throw AssertionError(it.message) })
        sink.write("{\"a\":\"Släpp 🎾\"}")
        sink.write("{\"b\":2}")
        sink.sync()
        assertEquals("{\"before\":1}\n{\"a\":\"Släpp 🎾\"}\n{\"b\":2}\n", file.readText())
    }

    @Test fun aFullFileIsRotatedToTheNextNumberAndTheOldestBeyondThoseKeptIsDeleted() {
        val folder = temporaryFolder()
        val file = File(folder, "events.jsonl")
        // Someone else's files and an earlier launch's rotation: numbering goes on from 41.
        File(folder, "events.7.jsonl").writeText("x\n")
        File(folder, "events.00000040.jsonl").writeText("{\"old\":40}\n")
        val sink = FileEventSink(file, FileEventSink.Rotation(maxFileBytes = 200, keptFiles = 3), onError = { throw AssertionError(it.message) })
        val lines = (0 until 20).map(::line)
        lines.forEach(sink::write)
        sink.close()
        val names = folder.list()!!.sorted()
        assertEquals(listOf("events.00000044.jsonl", "events.00000045.jsonl", "events.00000046.jsonl", "events.7.jsonl", "events.jsonl"), names)
        // Every file holds whole lines within the bound, and the kept ones are the newest lines, in order.
        val kept = names.filter { it.startsWith("events.000") } + "events.jsonl"
        val text = kept.map { File(folder, it).readText() }
        assertTrue(text.all { it.length <= 200 && it.endsWith("\n") })
        val written = text.joinToString("").lines().filter { it.isNotEmpty() }
        assertEquals(lines.takeLast(written.size), written)
        assertEquals((9 until 20).map(::line), written)
    }

    @Test fun aLineLongerThanTheBoundGetsAFileOfItsOwn() {
        val folder = temporaryFolder()
        val file = File(folder, "events.jsonl")
        val sink = FileEventSink(file, FileEventSink.Rotation(maxFileBytes = 30), onError = { throw AssertionError(it.message) })
        sink.write("{\"short\":1}")
        sink.write("{\"long\":\"${"y".repeat(50)}\"}")
        sink.write("{\"short\":2}")
        assertEquals(listOf("{\"short\":1}\n", "{\"long\":\"${"y".repeat(50)}\"}\n", "{\"short\":2}\n"),
            listOf("events.00000001.jsonl", "events.00000002.jsonl", "events.jsonl").map { File(folder, it).readText() })
    }

    @Test fun twoSinksSharingAFileRotateItOnceBetweenThem() {
        val folder = temporaryFolder()
        val file = File(folder, "events.jsonl")
        val rotation = FileEventSink.Rotation(maxFileBytes = 400, keptFiles = 100)
        val sinks = listOf(FileEventSink(file, rotation), FileEventSink(file, rotation))
        val threads = sinks.mapIndexed { which, sink ->
            Thread { repeat(200) { sink.write("{\"sink\":$which,\"n\":$it}") } }.apply { start() }
        }
        threads.forEach { it.join() }
        sinks.forEach { it.close() }
        val lines = folder.listFiles()!!.sortedBy { it.name }.flatMap { it.readLines() }
        assertEquals(400, lines.size)
        assertEquals(400, lines.toSet().size)
        assertTrue(lines.all { Regex("\\{\"sink\":[01],\"n\":\\d+\\}").matches(it) })
        for (which in 0..1) {
            assertEquals((0 until 200).toList(), lines.filter { it.startsWith("{\"sink\":$which") }.map { it.substringAfter("\"n\":").dropLast(1).toInt() })
        }
    }

    /**
     * Another sink rotates the shared file right after this one opens it, before it reads the
     * file's last byte: the line goes to the path's new file, and nothing is reported or lost
     * (it was lost once in a run of the test above).
     */
    @Test fun aFileRotatedAwayWhileItIsOpenedIsOpenedAgain() {
        val folder = temporaryFolder()
        val file = File(folder, "events.jsonl")
        file.writeText("{\"before\":1}\n")
        val sink = FileEventSink(file, FileEventSink.Rotation(maxFileBytes = 400), onError = { throw AssertionError(it.message) })
        var rotateAway = true
        sink.openChannel = { path ->
            val channel = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.APPEND)
            if (rotateAway) {
                rotateAway = false
                java.nio.file.Files.move(path, File(folder, "events.00000001.jsonl").toPath())
            }
            channel
        }
        sink.write("{\"next\":2}")
        assertEquals("{\"before\":1}\n", File(folder, "events.00000001.jsonl").readText())
        assertEquals("{\"next\":2}\n", file.readText())
    }

    /** A crash left a partial last line: the first line of ours starts on a line of its own. */
    @Test fun aPartialLastLineLeftByACrashIsEndedBeforeTheNextLine() {
        val file = File(temporaryFolder(), "events.jsonl")
        file.writeText("{\"whole\":1}\n{\"cut\":")
        val sink = FileEventSink(file, onError = { throw AssertionError(it.message) })
        sink.write("{\"next\":2}")
        sink.write("{\"next\":3}")
        assertEquals("{\"whole\":1}\n{\"cut\":\n{\"next\":2}\n{\"next\":3}\n", file.readText())
    }

    /**
     * A write cut short (a full disk): the outage is reported once, the lines it lost counted
     * when writing works again, and the cut line is ended before the next one. The file never
     * holds a line glued to a cut one.
     */
    @Test fun aWriteCutShortIsEndedAndTheOutageReportedOnce() {
        val file = File(temporaryFolder(), "events.jsonl")
        val errors = Collected<PullParityError>()
        val sink = FileEventSink(file, onError = { errors.add(it) })
        var failing = 1
        sink.openChannel = { path ->
            val real = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.APPEND)
            if (failing-- > 0) CutShortChannel(real, acceptBytes = 5) else real
        }
        sink.write("{\"first\":1}")
        sink.write("{\"second\":2}")
        sink.write("{\"third\":3}")
        assertEquals("{\"fir\n{\"second\":2}\n{\"third\":3}\n", file.readText())
        assertEquals(listOf(null, 1), errors.all.map { it.linesLost })
        assertEquals(listOf(PullParityError.Kind.FILE_WRITE, PullParityError.Kind.FILE_WRITE), errors.all.map { it.kind })
        assertTrue(errors.all[1].message!!, errors.all[1].message!!.contains("again; 1 line lost"))
        assertEquals(file.path, errors.all[0].path)
    }

    @Test fun aMissingFolderIsOneOutageUntilItComesBack() {
        val folder = File(temporaryFolder(), "later")
        val errors = Collected<PullParityError>()
        val sink = FileEventSink(File(folder, "events.jsonl"), onError = { errors.add(it) })
        repeat(3) { sink.write("{\"lost\":$it}") }
        assertEquals(1, errors.all.size)
        assertNull(errors.all[0].linesLost)
        folder.mkdirs()
        sink.write("{\"kept\":1}")
        assertEquals(listOf(null, 3), errors.all.map { it.linesLost })
        assertEquals("{\"kept\":1}\n", File(folder, "events.jsonl").readText())
    }

    @Test fun syncEveryLinesForcesTheFileAndAFailedSyncIsReportedOnce() {
        val file = File(temporaryFolder(), "events.jsonl")
        val errors = Collected<PullParityError>()
        val sink = FileEventSink(file, syncEveryLines = 2, onError = { errors.add(it) })
        val forces = ArrayList<Boolean>()
        sink.openChannel = { path ->
            CountingChannel(FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.APPEND), forces)
        }
        repeat(5) { sink.write("{\"n\":$it}") }
        assertEquals(2, forces.size)
        CountingChannel.failForce = true
        repeat(4) { sink.write("{\"n\":$it}") }
        CountingChannel.failForce = false
        assertEquals(listOf(PullParityError.Kind.FILE_SYNC), errors.all.map { it.kind })
        assertEquals(9, file.readLines().size)
    }

    @Test fun aClosedSinkWritesNothingAndSaysSo() {
        val file = File(temporaryFolder(), "events.jsonl")
        val errors = Collected<PullParityError>()
        val sink = FileEventSink(file, onError = { errors.add(it) })
        sink.write("{\"a\":1}")
        sink.close()
        sink.write("{\"b\":2}")
        assertEquals("{\"a\":1}\n", file.readText())
        assertEquals(listOf(PullParityError.Kind.FILE_WRITE), errors.all.map { it.kind })
    }
}

/** A file channel that delegates everything to [real]. */
open class DelegatingChannel(protected val real: FileChannel) : FileChannel() {
    override fun read(dst: ByteBuffer) = real.read(dst)
    override fun read(dsts: Array<out ByteBuffer>, offset: Int, length: Int) = real.read(dsts, offset, length)
    override fun write(src: ByteBuffer) = real.write(src)
    override fun write(srcs: Array<out ByteBuffer>, offset: Int, length: Int) = real.write(srcs, offset, length)
    override fun position() = real.position()
    override fun position(newPosition: Long): FileChannel = real.position(newPosition)
    override fun size() = real.size()
    override fun truncate(size: Long): FileChannel = real.truncate(size)
    override fun force(metaData: Boolean) = real.force(metaData)
    override fun transferTo(position: Long, count: Long, target: WritableByteChannel) = real.transferTo(position, count, target)
    override fun transferFrom(src: ReadableByteChannel, position: Long, count: Long) = real.transferFrom(src, position, count)
    override fun read(dst: ByteBuffer, position: Long) = real.read(dst, position)
    override fun write(src: ByteBuffer, position: Long) = real.write(src, position)
    override fun map(mode: MapMode, position: Long, size: Long): MappedByteBuffer = real.map(mode, position, size)
    override fun lock(position: Long, size: Long, shared: Boolean): FileLock = real.lock(position, size, shared)
    override fun tryLock(position: Long, size: Long, shared: Boolean): FileLock? = real.tryLock(position, size, shared)
    override fun implCloseChannel() = real.close()
}

/** Takes [acceptBytes] of the first write, then fails as a full disk does. */
class CutShortChannel(real: FileChannel, private val acceptBytes: Int) : DelegatingChannel(real) {
    override fun write(src: ByteBuffer): Int {
        if (src.remaining() <= acceptBytes) return real.write(src)
        val part = src.duplicate()
        part.limit(part.position() + acceptBytes)
        val written = real.write(part)
        src.position(src.position() + written)
        throw IOException("No space left on device")
    }
}

/** Counts `force` calls; fails them while [failForce]. */
class CountingChannel(real: FileChannel, private val forces: MutableList<Boolean>) : DelegatingChannel(real) {
    override fun force(metaData: Boolean) {
        if (failForce) throw IOException("Input/output error")
        forces += metaData
        real.force(metaData)
    }

    companion object {
        @Volatile var failForce = false
    }
}
