import Foundation

/// A value behind a lock: the recorder's and the file sink's shared state.
///
/// `NSLock` rather than `Synchronization.Mutex`: `Mutex` needs iOS 18 / macOS 15, and the apps
/// this is for still ship to iOS 17. No actor either: the recorder is called synchronously from
/// gesture callbacks on the main actor and from load tasks, and an actor would make every call
/// `await` and let events reach the log out of the order they happened in.
final class Locked<State>: @unchecked Sendable {
  private let lock = NSLock()
  private var state: State

  init(_ state: State) {
    self.state = state
  }

  func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
    lock.lock()
    defer { lock.unlock() }
    return try body(&state)
  }
}
