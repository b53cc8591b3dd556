import Logging
import ServiceLifecycle

/// Closes the open spool file once it is `rotateSeconds` old, even when no body arrives to
/// notice; size rotation happens on append.
struct AgeRotation: Service {
  let spool: Spool
  let logger: Logger

  func run() async throws {
    let seconds = spool.limits.rotateSeconds
    await repeating(every: min(1, seconds / 4)) {
      do { try await spool.rotate(onlyWhenOld: true) } catch { logger.error("spool rotation: \(error)") }
    }
  }
}
