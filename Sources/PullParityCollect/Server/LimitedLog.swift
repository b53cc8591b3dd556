import Foundation
import Logging
import NIOConcurrencyHelpers

/// An error logged at most once per `interval`, with a count of the ones left out since: a full
/// disk refuses every body, and logging each (46,830 lines in 8 s) buried everything else.
final class LimitedLog: Sendable {
  let logger: Logger
  let interval: TimeInterval
  private let state = NIOLockedValueBox((last: Date.distantPast, suppressed: 0))

  init(_ logger: Logger, interval: TimeInterval = 1) {
    self.logger = logger
    self.interval = interval
  }

  func error(_ message: @autoclosure () -> String, now: Date = Date()) {
    let suppressed: Int? = state.withLockedValue { state in
      guard now.timeIntervalSince(state.last) >= interval else {
        state.suppressed += 1
        return nil
      }
      defer { state = (now, 0) }
      return state.suppressed
    }
    guard let suppressed else { return }
    let note = suppressed > 0 ? " (\(suppressed) more since the last one logged, left out)" : ""
    logger.error("\(message())\(note)")
  }
}
