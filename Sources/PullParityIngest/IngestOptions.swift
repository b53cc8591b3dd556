public import PullParityCore

/// How an ingest runs.
public struct IngestOptions: Sendable {
  /// Lines per transaction: the unit of crash safety (a killed run keeps whole transactions).
  public var batchLines: Int
  /// The most lines the reading thread hands over at once (several make a transaction): small
  /// enough that memory stays low and the writer starts early.
  public var maxChunkLines = 25_000
  /// Lines longer than this (bytes, without the line end) are quarantined as `too_long` without
  /// being held in memory: one runaway line must not take the memory or the run.
  public var maxLineBytes = Self.defaultMaxLineBytes
  public static let defaultMaxLineBytes = 16 << 20
  /// The most `maxLineBytes` may be: SQLite stores a value of at most 1 GB, and parsing holds a
  /// line about twice.
  public static let largestMaxLineBytes = 512 << 20
  public var parser: ParserKind
  public var profiles: ProfileCatalog
  /// Recorded in `ingest_runs.tool_version`.
  public var toolVersion: String

  public init(
    batchLines: Int = 200_000, parser: ParserKind = .simdjson, profiles: ProfileCatalog = ProfileCatalog(),
    toolVersion: String
  ) {
    self.batchLines = batchLines
    self.parser = parser
    self.profiles = profiles
    self.toolVersion = toolVersion
  }
}
