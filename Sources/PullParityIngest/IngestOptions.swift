public import PullParityCore

/// How an ingest runs.
public struct IngestOptions: Sendable {
  /// Lines per transaction: the unit of crash safety (a killed run keeps whole transactions).
  public var batchLines: Int
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
