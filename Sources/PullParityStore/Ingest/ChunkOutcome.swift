/// What a chunk's lines turned out to be when it was written.
package struct ChunkOutcome: Equatable, Sendable {
  /// Lines that were events: stored then, or duplicates of stored ones.
  package var events: Int
  package var conflicts: Int
  package var rejected: Int
  package var blank: Int
  /// Whether the run that committed the chunk left its work undone (killed, interrupted,
  /// failed): a run reading the chunk again resumes that work instead of counting it again.
  package var resumable: Bool

  package init(events: Int, conflicts: Int, rejected: Int, blank: Int, resumable: Bool = false) {
    self.events = events
    self.conflicts = conflicts
    self.rejected = rejected
    self.blank = blank
    self.resumable = resumable
  }
}
