internal import PullParityCore

/// One session's events within a chunk, derived on the reading thread from them and the
/// events the chunk before carried. The writer uses that derivation when those are all the
/// session's stored events (the common case) and derives again from the database otherwise.
struct ChunkSession: Sendable {
  var sessionID: String
  /// Indices of the session's events in the chunk's `rows`, in input order.
  var rowIndices: [Int]
  /// Events of the session the chunk before carried over (`CarriedEvents`): `derived` is of
  /// them and the chunk's own.
  var carriedEvents = 0
  /// Set by `ChunkBuilder.finish`.
  var derived: DerivedSession?
  /// What `derived` was finalized from, kept when its judgement is still open (`ChunkWriter`).
  var reduced: ReducedSession?
}
