import Foundation

/// A bounded hand-over of items from a reading thread to the thread that stores them. Bounded
/// so that a fast reader cannot run ahead of the database with the whole input in memory. Used
/// by ingest (chunks) and `load` (batches of a run's rows).
package final class BoundedChannel<Item>: @unchecked Sendable {
  private let condition = NSCondition()
  private var items: [Item] = []
  private var finished = false
  private var cancelled = false
  private let capacity: Int

  package init(capacity: Int) {
    self.capacity = capacity
  }

  /// Waits for room; returns false when the taker has stopped taking items.
  @discardableResult
  package func put(_ item: Item) -> Bool {
    locked {
      while items.count >= capacity, !cancelled { condition.wait() }
      guard !cancelled else { return false }
      items.append(item)
      condition.broadcast()
      return true
    }
  }

  /// No more items will come.
  package func finish() {
    locked {
      finished = true
      condition.broadcast()
    }
  }

  /// The next item, or nil once the reader has finished and everything was taken.
  package func take() -> Item? {
    locked {
      while items.isEmpty, !finished { condition.wait() }
      guard !items.isEmpty else { return nil }
      let item = items.removeFirst()
      condition.broadcast()
      return item
    }
  }

  /// The taker stops: the reader's next `put` returns false and pending items are dropped.
  package func cancel() {
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
