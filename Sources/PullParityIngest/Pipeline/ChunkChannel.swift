import Foundation

/// A bounded hand-over of parsed chunks from the reading thread to the writer. Bounded so
/// that a fast reader cannot run ahead of the database with the whole input in memory.
final class ChunkChannel: @unchecked Sendable {
  enum Item {
    case chunk(IngestChunk)
    case failure(any Error)
    /// One input could not be read to its end; the run goes on with the others.
    case inputFailed(IngestError)
  }

  private let condition = NSCondition()
  private var items: [Item] = []
  private var finished = false
  private var cancelled = false
  private let capacity: Int

  init(capacity: Int) {
    self.capacity = capacity
  }

  /// Waits for room; returns false when the writer has stopped taking chunks.
  @discardableResult
  func put(_ item: Item) -> Bool {
    locked {
      while items.count >= capacity, !cancelled { condition.wait() }
      guard !cancelled else { return false }
      items.append(item)
      condition.broadcast()
      return true
    }
  }

  /// No more items will come.
  func finish() {
    locked {
      finished = true
      condition.broadcast()
    }
  }

  /// The next item, or nil once the producer has finished and everything was taken.
  func take() -> Item? {
    locked {
      while items.isEmpty, !finished { condition.wait() }
      guard !items.isEmpty else { return nil }
      let item = items.removeFirst()
      condition.broadcast()
      return item
    }
  }

  /// The writer stops: the producer's next `put` returns false and pending chunks are dropped.
  func cancel() {
    locked {
      cancelled = true
      items.removeAll()
      condition.broadcast()
    }
  }

  private func locked<T>(_ body: () -> T) -> T {
    condition.lock()
    defer { condition.unlock() }
    return body()
  }
}
