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
  private let condition = NSCondition()
  private var items: [Item] = []
  private var finished = false
  private var cancelled = false
  private let capacity = 8
  private let done = DispatchSemaphore(value: 0)

  init(directory: String) {
    self.directory = directory
  }

  /// Starts the thread.
  func start() {
    let thread = Thread { [self] in
      read()
      locked {
        finished = true
        condition.broadcast()
      }
      done.signal()
    }
    thread.stackSize = 8 << 20
    thread.start()
  }

  /// The next item, or nil once everything was taken.
  func take() -> Item? {
    locked {
      while items.isEmpty, !finished { condition.wait() }
      guard !items.isEmpty else { return nil }
      let item = items.removeFirst()
      condition.broadcast()
      return item
    }
  }

  /// Stops the thread (the loader failed) and waits for it.
  func stop() {
    locked {
      cancelled = true
      items.removeAll()
      condition.broadcast()
    }
    done.wait()
  }

  /// Thrown to leave the files once the loader has stopped taking items.
  private struct Stopped: Error {}

  private func read() {
    do {
      try readEvents()
      put(.sessions(try LoadedSessions.read(directory: directory)))
    } catch is Stopped {
      return
    } catch {
      put(.failure(error))
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
          guard put(.events(rows, locations)) else { throw Stopped() }
          rows.removeAll(keepingCapacity: true)
          locations.removeAll(keepingCapacity: true)
        }
      }
    }
    if !rows.isEmpty { put(.events(rows, locations)) }
  }

  /// Waits for room; false when the loader has stopped taking items.
  @discardableResult
  private func put(_ item: Item) -> Bool {
    locked {
      while items.count >= capacity, !cancelled { condition.wait() }
      guard !cancelled else { return false }
      items.append(item)
      condition.broadcast()
      return true
    }
  }

  private func locked<T>(_ body: () throws -> T) rethrows -> T {
    condition.lock()
    defer { condition.unlock() }
    return try body()
  }
}
