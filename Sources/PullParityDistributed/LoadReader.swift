import Foundation
internal import PullParityIngest

/// The reading side of `pullparity load`, on a thread of its own: the events part files in
/// batches of rows (read without `JSONDecoder` when a row is in Spark's plain form), then the
/// sessions and violations, while the loading thread stores what came before. Bounded: at most
/// a few batches wait, so a fast reader never holds a run's events in memory.
final class LoadReader: @unchecked Sendable {
  enum Item {
    /// Event rows with the part file and line each came from.
    case events([EventTableRow], [PipeLocation])
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

  private func readEvents() throws {
    let table = TableFiles(directory: directory, table: "events")
    var rows: [EventTableRow] = []
    var locations: [PipeLocation] = []
    rows.reserveCapacity(Self.batchRows)
    locations.reserveCapacity(Self.batchRows)
    let decoder = JSONDecoder()
    for file in try table.files() {
      let reader = LineReader(
        source: try FileByteSource(path: file), name: file, maxLineBytes: IngestOptions.largestMaxLineBytes)
      try reader.forEachLine { line in
        if line.isBlank { return }
        let location = PipeLocation(input: file, line: line.number)
        if let row = EventTableRow(scanning: line.bytes) {
          rows.append(row)
        } else {
          do {
            rows.append(try decoder.decode(EventTableRow.self, from: Data(line.bytes)))
          } catch let error as DecodingError {
            throw location.error("not a row of `events`: \(TableFiles.describe(error))")
          }
        }
        locations.append(location)
        if rows.count == Self.batchRows {
          guard channel.put(.events(rows, locations)) else { throw Stopped() }
          rows.removeAll(keepingCapacity: true)
          locations.removeAll(keepingCapacity: true)
        }
      }
    }
    if !rows.isEmpty { channel.put(.events(rows, locations)) }
  }
}
