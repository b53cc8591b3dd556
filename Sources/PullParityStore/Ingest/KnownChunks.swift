internal import GRDB

/// The chunks of input committed to a file, as an ingest's reading thread sees them on a
/// read-only connection of its own: the reader tells a chunk sent before from a new one once
/// it has read it, and hands it over unparsed, while the writer holds the write connection.
package final class KnownChunks: Sendable {
  private let queue: DatabaseQueue

  /// Nil when the file cannot be read this way (then the reader parses every chunk: slower on
  /// a file sent again, the same result).
  init?(location: String, lockTimeout: Double) {
    var configuration = Configuration()
    configuration.readonly = true
    configuration.busyMode = .timeout(lockTimeout)
    configuration.label = "pullparity known chunks"
    guard let queue = try? DatabaseQueue(path: location, configuration: configuration) else { return nil }
    self.queue = queue
  }

  /// Whether a chunk with this fingerprint was committed; false when that cannot be read.
  package func contains(_ chunk: ChunkFingerprint) -> Bool {
    let found = try? queue.read { db in
      try Bool.fetchOne(
        db,
        sql: """
          SELECT 1 FROM ingested_chunks
          WHERE source = ? AND first_line = ? AND line_count = ? AND byte_count = ? AND content_hash = ?
            AND rules_version = ?
          """,
        arguments: [
          chunk.source, chunk.firstLine, chunk.lineCount, chunk.byteCount, chunk.contentHash, chunk.rulesVersion,
        ])
    }
    return found == true
  }
}
