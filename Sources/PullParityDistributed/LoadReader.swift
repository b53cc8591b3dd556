import Foundation
internal import PullParityIngest

/// The reading side of `pullparity load`, on a thread of its own: the events part files in
/// batches of rows (`EventBatch`, read without `JSONDecoder` when a row is in Spark's plain
/// form), then the sessions and violations, while the loading thread stores what came before.
/// Bounded: at most a few batches wait, so a fast reader never holds a run's events in memory.
final class LoadReader: @unchecked Sendable {
  enum Item {
    case events(EventBatch)
    case sessions(LoadedSessions)
    case failure(any Error)
  }

  static let batchRows = 4096

  private let directory: String
  private let channel = BoundedChannel<Item>(capacity: 8)
  private let done = DispatchSemaphore(value: 0)

  init(directory: String) {
    self.directory = directory
  }

  /// Starts the thread.
  func start() {
    let thread = Thread { [self] in
      read()
      channel.finish()
      done.signal()
    }
    thread.stackSize = 8 << 20
    thread.start()
  }

  /// The next item, or nil once everything was taken.
  func take() -> Item? { channel.take() }

  /// Stops the thread (the loader failed) and waits for it.
  func stop() {
    channel.cancel()
    done.wait()
  }

  /// Thrown to leave the files once the loader has stopped taking items.
  private struct Stopped: Error {}

  private func read() {
    do {
      try readEvents()
      channel.put(.sessions(try LoadedSessions.read(directory: directory)))
    } catch is Stopped {
      return
    } catch {
      channel.put(.failure(error))
    }
  }

  /// The events part files' rows in batches, each batch handed over as it fills.
  private func readEvents() throws {
    for file in try TableFiles(directory: directory, table: "events").files() {
      try EventPartFile.forEachBatch(file, rows: Self.batchRows) { batch in
        guard channel.put(.events(batch)) else { throw Stopped() }
      }
    }
  }
}

/// The rows of one `events` part file in batches (`EventBatch`), read without `JSONDecoder`
/// when a row is in Spark's plain form: for `load`'s reading thread, and for the commands that
/// read back the events a run directory holds (`RunDirectoryEvents`), so that both read a row
/// the same way.
enum EventPartFile {
  /// Calls `body` with each batch of at most `rows` rows; a batch holds rows of one file, so it
  /// knows where each is.
  static func forEachBatch(_ file: String, rows: Int, _ body: (EventBatch) throws -> Void) throws {
    let decoder = JSONDecoder()
    var batch = EventBatch(file: file, expectedRows: rows)
    let reader = LineReader(
      source: try FileByteSource(path: file), name: file, maxLineBytes: IngestOptions.largestMaxLineBytes)
    try reader.forEachLine { line in
      if line.isBlank { return }
      if !batch.append(scanning: line.bytes, fileLine: line.number) {
        do {
          batch.append(try decoder.decode(EventTableRow.self, from: Data(line.bytes)), fileLine: line.number)
        } catch let error as DecodingError {
          throw PipeLocation(input: file, line: line.number).error(
            "not a row of `events`: \(TableFiles.describe(error))")
        }
      }
      if batch.rows.count == rows {
        try body(batch)
        batch = EventBatch(file: file, expectedRows: rows)
      }
    }
    if !batch.rows.isEmpty { try body(batch) }
  }
}
