/// How far an ingest has got, reported after every committed batch.
public struct IngestProgress: Sendable {
  public var linesRead: Int
  public var eventsStored: Int
  /// Input bytes consumed so far (compressed bytes for `.gz` files) and in all, when known.
  public var bytesRead: Int
  public var totalBytes: Int?
  public var elapsedSeconds: Double
}
