/// How far an ingest has got, reported after every chunk written: inside its transaction,
/// before that commits (a transaction holds several chunks).
package struct IngestProgress: Sendable {
  package var linesRead: Int
  package var eventsStored: Int
  /// Input bytes consumed so far (compressed bytes for `.gz` files) and in all, when known.
  package var bytesRead: Int
  package var totalBytes: Int?
  package var elapsedSeconds: Double
}
