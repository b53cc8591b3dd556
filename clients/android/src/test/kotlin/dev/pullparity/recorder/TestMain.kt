package dev.pullparity.recorder

import org.junit.runner.Description
import org.junit.runner.JUnitCore
import org.junit.runner.notification.Failure
import org.junit.runner.notification.RunListener
import kotlin.system.exitProcess

/**
 * Runs the JUnit classes named on the command line and ends with the plain count line CI reads,
 * `N passed, N failed` (JUnitCore's own summary is not one it knows). Exits 1 on a failure, and
 * on a run that ran no test.
 */
object TestMain {
    @JvmStatic
    fun main(args: Array<String>) {
        val classes = args.map { Class.forName(it) }
        val core = JUnitCore()
        core.addListener(object : RunListener() {
            override fun testFailure(failure: Failure) {
                println("FAIL ${failure.description.displayName}")
                // The message and the frames down to the test method; JUnit's own frames say nothing.
                val frames = failure.trace.lines()
                val end = frames.indexOfFirst { it.contains("jdk.internal.reflect") || it.contains("org.junit.runners") }
                println((if (end > 0) frames.take(end) else frames).joinToString("\n").prependIndent("    "))
            }

            override fun testFinished(description: Description) {
                print(".")
            }
        })
        val result = core.run(*classes.toTypedArray())
        println()
        val ran = result.runCount
        println("JUnit: ${ran - result.failureCount} passed, ${result.failureCount} failed" +
            if (result.ignoreCount > 0) ", ${result.ignoreCount} skipped" else "")
        exitProcess(if (result.failureCount > 0 || ran == 0) 1 else 0)
    }
}
