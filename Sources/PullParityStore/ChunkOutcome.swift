/// What a chunk's lines turned out to be when it was written.
public struct ChunkOutcome: Equatable, Sendable {
  /// Lines that were events: stored then, or duplicates of stored ones.
  public var events: Int
  public var conflicts: Int
  public var rejected: Int
  public var blank: Int

  public init(events: Int, conflicts: Int, rejected: Int, blank: Int) {
    self.events = events
    self.conflicts = conflicts
    self.rejected = rejected
    self.blank = blank
  }
}
