import Foundation
internal import GRDB
import GRDBSQLite

/// Copies an ingest's committed transactions from the write-ahead log into the database file on
/// a thread of its own, while the writer goes on with the next transaction.
///
/// SQLite's automatic checkpoint runs inside the commit that fills the log, so the writer waits
/// for the copy and for the two `fsync`s that bracket it: over ten days of events in one run that
/// was half the writer's time, because the disk, not the CPU, sets the pace of a long run. Here
/// a second connection runs a PASSIVE checkpoint after every commit, which never blocks the
/// writer. The log restarts from its beginning only when a transaction begins after a complete
/// checkpoint, so once the log holds `restartFrames` more than at the last wait, the writer waits
/// for the checkpoint in flight before it begins: the log stays bounded, and most copies still
/// overlap the writer's work.
///
/// The writer learns the log's length from SQLite's WAL hook, which its connection calls after
/// every commit with the frames the log then holds, and whether the log restarted from the
/// checkpoint sequence in the log's header. A length reported by the checkpoint thread would be
/// stale whenever that thread falls behind, which is exactly when the log grows.
package final class WALCheckpointer: @unchecked Sendable {
  /// 256 MiB of 32 KiB pages. A million benchmark lines write about 1 GB of log, so the
  /// writer waits about four times per million lines.
  package static let defaultRestartFrames = 8192

  private let connection: DatabaseQueue
  private let path: String
  private let lockTimeout: Double
  private let restartFrames: Int
  private let condition = NSCondition()
  // Guarded by `condition`.
  private var requested = false
  private var running = false
  private var finished = false
  /// The log's length after the writer's last commit, from the WAL hook.
  private var logFrames = 0
  /// The log's length when the writer last waited; 0 since the log last restarted.
  private var framesAtWait = 0
  /// The log header's checkpoint sequence after the last commit: SQLite adds one each time
  /// the log restarts, which the length alone does not show (a restarted log may be longer).
  private var logSequence: UInt32?
  private var failure: StoreError?
  private let done = DispatchSemaphore(value: 0)

  init(path: String, lockTimeout: Double, restartFrames: Int) throws {
    var configuration = Configuration()
    configuration.busyMode = .timeout(lockTimeout)
    configuration.label = "pullparity checkpoints"
    connection = try DatabaseQueue(path: path, configuration: configuration)
    self.path = path
    self.lockTimeout = lockTimeout
    self.restartFrames = restartFrames
    let thread = Thread { [self] in
      loop()
      done.signal()
    }
    thread.start()
  }

  /// Makes every commit of `writer` request a checkpoint, with the log's length after it. The
  /// hook takes the slot of SQLite's automatic checkpoint; `uninstall` must run before `self` goes.
  func install(on writer: Database) {
    let context = Unmanaged.passUnretained(self).toOpaque()
    sqlite3_wal_hook(
      writer.sqliteConnection,
      { context, _, _, frames in
        Unmanaged<WALCheckpointer>.fromOpaque(context!).takeUnretainedValue().committed(logFrames: Int(frames))
        return SQLITE_OK
      }, context)
  }

  /// Gives the hook's slot back to SQLite's automatic checkpoint, every `autocheckpointFrames`.
  /// Goes through the C API rather than the pragma because it cannot fail: a hook left behind
  /// would call into a freed checkpointer.
  func uninstall(from writer: Database, autocheckpointFrames: Int) {
    sqlite3_wal_autocheckpoint(writer.sqliteConnection, Int32(autocheckpointFrames))
  }

  /// Called by the WAL hook after each commit: the checkpoint thread copies what was committed.
  private func committed(logFrames frames: Int) {
    let sequence = Self.checkpointSequence(ofLogAt: path + "-wal")
    condition.withLock {
      if sequence == nil || sequence != logSequence { framesAtWait = 0 }
      logSequence = sequence
      logFrames = frames
      requested = true
      condition.signal()
    }
  }

  /// Call before a transaction begins: when the log has grown by `restartFrames` since the last
  /// wait, waits until everything committed is copied, so that this transaction writes the log
  /// from its beginning again. Throws what a checkpoint met (a full disk, say): the log would
  /// otherwise grow for the rest of the run.
  package func waitIfLogIsLong() throws {
    try condition.withLock {
      if logFrames - framesAtWait >= restartFrames {
        while (requested || running) && failure == nil { condition.wait() }
        // A reader holding an old snapshot keeps the log from restarting: the next wait comes
        // after another `restartFrames`, not before every transaction.
        framesAtWait = logFrames
      }
      if let failure { throw failure }
    }
  }

  /// Stops the thread after the last requested checkpoint and closes its connection; throws the
  /// first error a checkpoint met (what was committed stays in the log, so nothing is lost).
  package func finish() throws {
    condition.withLock {
      finished = true
      condition.signal()
    }
    done.wait()
    try connection.close()
    if let failure = condition.withLock({ failure }) { throw failure }
  }

  /// Bytes 12–15 of the log's header, big-endian; nil when the log cannot be read. Then a
  /// restart is assumed: the writer may wait more often, never less, so the bound holds.
  private static func checkpointSequence(ofLogAt path: String) -> UInt32? {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    var bytes: (UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 0)
    guard withUnsafeMutableBytes(of: &bytes, { pread(descriptor, $0.baseAddress, 4, 12) }) == 4 else { return nil }
    return UInt32(bytes.0) << 24 | UInt32(bytes.1) << 16 | UInt32(bytes.2) << 8 | UInt32(bytes.3)
  }

  private func loop() {
    while takeRequest() {
      do {
        _ = try connection.writeWithoutTransaction { try $0.checkpoint(.passive) }
        report()
      } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY {
        // Another process is checkpointing this file: it copies the same frames.
        report()
      } catch let error as DatabaseError {
        let context = "checkpointing \(path)"
        report(failure: PullParityDatabase.storeError(error, context: context, lockTimeout: lockTimeout))
      } catch {
        report(failure: StoreError(context: "checkpointing \(path)", message: "\(error)"))
      }
    }
  }

  /// Waits for a request; false once finished with none pending, or after a failure.
  private func takeRequest() -> Bool {
    condition.withLock {
      while !requested && !finished { condition.wait() }
      guard requested, failure == nil else { return false }
      requested = false
      running = true
      return true
    }
  }

  private func report(failure error: StoreError? = nil) {
    condition.withLock {
      running = false
      if failure == nil { failure = error }
      condition.broadcast()
    }
  }
}
