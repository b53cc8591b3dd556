package dev.pullparity.recorder

import java.io.File
import java.io.IOException
import java.nio.charset.StandardCharsets
import java.nio.file.FileAlreadyExistsException
import java.nio.file.Files
import java.nio.file.StandardCopyOption
import java.util.UUID

/**
 * Keeps the app install's random id, written as `install_id` (1–128 characters) on every event.
 * It is made once per install and identifies no person: a new install gets a new one.
 *
 * On Android keep it in `SharedPreferences` (the glue in docs/instrumenting.md); on the JVM [FileInstallIdStore]
 * keeps it in a small file. [installId] may throw: the recorder reports the failure to `onError`
 * and writes its lines without the field.
 */
interface InstallIdStore {
    fun installId(): String
}

/** An install id given as it is (tests, or an id the app already keeps). */
class FixedInstallId(private val id: String) : InstallIdStore {
    override fun installId(): String = id
}

/**
 * The install id in a file of its own: read if the file holds one, else a random UUID (version
 * 4) is written to it once and read from then on. The file is created whole or not at all (a
 * temporary file linked into place), so two processes starting at once agree on one id and a
 * crash never leaves half an id behind; a file that holds no valid id is replaced.
 */
class FileInstallIdStore(
    val file: File,
    private val newId: () -> String = { UUID.randomUUID().toString() }
) : InstallIdStore {
    @Volatile private var cached: String? = null

    @Synchronized
    override fun installId(): String {
        cached?.let { return it }
        val id = read() ?: create()
        cached = id
        return id
    }

    private fun read(): String? {
        if (!file.exists()) return null
        val text = String(Files.readAllBytes(file.toPath()), StandardCharsets.UTF_8).trim()
        return if (isValidInstallId(text)) text else null
    }

    private fun create(): String {
        val folder = file.absoluteFile.parentFile
        if (!folder.isDirectory && !folder.mkdirs() && !folder.isDirectory) {
            throw IOException("cannot create the folder of $file")
        }
        val id = newId()
        val temporary = File.createTempFile(file.name, ".tmp", folder)
        try {
            Files.write(temporary.toPath(), (id + "\n").toByteArray(StandardCharsets.UTF_8))
            try {
                Files.createLink(file.toPath(), temporary.toPath())
                return id
            } catch (exists: FileAlreadyExistsException) {
                // Another process made it first, or the file holds no valid id: read it, or
                // replace what is not an id.
                read()?.let { return it }
                Files.move(temporary.toPath(), file.toPath(), StandardCopyOption.REPLACE_EXISTING,
                    StandardCopyOption.ATOMIC_MOVE)
                return id
            } catch (unsupported: UnsupportedOperationException) {
                Files.move(temporary.toPath(), file.toPath(), StandardCopyOption.ATOMIC_MOVE)
                return id
            }
        } finally {
            temporary.delete()
        }
    }
}

/** 1–128 characters (code points), as the format allows. */
internal fun isValidInstallId(id: String): Boolean {
    val length = id.codePointCount(0, id.length)
    return length in 1..128
}
