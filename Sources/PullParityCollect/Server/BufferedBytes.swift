import NIOConcurrencyHelpers

/// The bytes of request bodies the collector holds in memory at once, across all requests: a
/// body reserves its declared length (or the body limit when it declares none) before it is
/// read, and gives it back once it is on disk or refused. Without it 500 connections each
/// holding a 1 MB body two bytes short of its length took the collector from 33 to 652 MB.
final class BufferedBytes: Sendable {
  let limit: Int
  private let reserved = NIOLockedValueBox(0)

  /// Bytes reserved now (`/metrics`).
  var held: Int { reserved.withLockedValue { $0 } }

  init(limit: Int) {
    self.limit = limit
  }

  /// Reserves `bytes`; false when that would go over the limit (nothing is reserved then).
  func reserve(_ bytes: Int) -> Bool {
    reserved.withLockedValue { held in
      guard held + bytes <= limit else { return false }
      held += bytes
      return true
    }
  }

  func release(_ bytes: Int) {
    reserved.withLockedValue { $0 -= bytes }
  }
}
