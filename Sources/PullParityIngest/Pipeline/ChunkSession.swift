internal import PullParityCore

/// One session's events within a chunk, derived on the reading thread as if the session were
/// new. The writer uses that derivation when it is (the common case) and derives again from
/// the database when the session had events stored before.
struct ChunkSession: Sendable {
  var sessionID: String
  /// Indices of the session's events in the chunk's `rows`, in input order.
  var rowIndices: [Int]
  /// Set by `ChunkBuilder.finish`.
  var derived: DerivedSession?
  /// What `derived` was finalized from, kept when its judgement is still open (`ChunkWriter`).
  var reduced: ReducedSession?
}
