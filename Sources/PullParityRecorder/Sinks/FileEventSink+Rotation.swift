extension FileEventSink {
  /// When a ``FileEventSink`` moves on to a new file, and how many full ones it keeps.
  ///
  /// A line that would take the file past `maxFileBytes` goes to a new one; the full file is
  /// renamed beside it with the next number: `events.jsonl` becomes `events.00000001.jsonl`,
  /// then `events.00000002.jsonl`, and so on, so the names sort oldest first and still end in
  /// `.jsonl` (what `pullparity ingest` picks up in a folder). Files are only ever cut between
  /// lines; a line longer than `maxFileBytes` gets a file of its own.
  public struct Rotation: Equatable, Sendable {
    public var maxFileBytes: Int
    /// The rotated files kept besides the one being written: the oldest beyond it is deleted.
    public var keptFiles: Int

    public init(maxFileBytes: Int, keptFiles: Int = 4) {
      precondition(maxFileBytes > 0, "a file must be allowed some bytes")
      precondition(keptFiles > 0, "rotation keeps at least the file it rotates")
      self.maxFileBytes = maxFileBytes
      self.keptFiles = keptFiles
    }
  }
}
