import Foundation
import PullParityRecorder

/// Whatever a sink or a handler was given, in order, from any thread.
final class Collected<Element: Sendable>: @unchecked Sendable {
  private let lock = NSLock()
  private var storage: [Element] = []

  func append(_ element: Element) { lock.withLock { storage.append(element) } }
  var all: [Element] { lock.withLock { storage } }
}

extension Collected where Element == String {
  /// A sink that collects the lines it is given.
  var sink: ClosureEventSink { ClosureEventSink { self.append($0) } }
}
