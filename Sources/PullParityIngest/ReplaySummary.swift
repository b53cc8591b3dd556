/// What a replay rebuilt and what came out differently.
public struct ReplaySummary: Sendable {
  public var sessions: Int
  public var events: Int
  /// Sessions whose outcome or set of violation kinds differ from before, by id.
  public var changed: [String]
  public var added: Int
  public var removed: Int
  public var durationSeconds: Double
}
