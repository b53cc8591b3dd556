/// What a replay rebuilt and what came out differently.
package struct ReplaySummary: Sendable {
  package var sessions: Int
  package var events: Int
  /// Sessions whose outcome or set of violation kinds differ from before, by id.
  package var changed: [String]
  package var added: Int
  package var removed: Int
  package var durationSeconds: Double
}
