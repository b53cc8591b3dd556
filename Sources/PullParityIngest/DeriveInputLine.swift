internal import PullParityCore

/// One line of `pullparity derive`'s input: a line of `decode`'s output, or a `context` line
/// that hands the next session what the store would know about it (docs/distributed-formats.md).
/// Read by `kind` first, so that each line is parsed once whichever it is.
enum DeriveInputLine: Decodable {
  case decoded(DecodedLine)
  case context(ContextLine)

  private enum KindKey: String, CodingKey { case kind }

  init(from decoder: any Decoder) throws {
    let kind = try decoder.container(keyedBy: KindKey.self).decode(String.self, forKey: .kind)
    self =
      kind == ContextLine.kind ? .context(try ContextLine(from: decoder)) : .decoded(try DecodedLine(from: decoder))
  }
}

/// `{"kind":"context","session_id":…,"horizon":…,"previous_refresh_ended_at":…}`: the
/// `SessionContext` of one session, whose event lines it precedes. An absent value is `nil`,
/// as in the store: a session derived without one is judged as `derive` always judged it.
struct ContextLine: Decodable {
  static let kind = "context"

  var sessionID: String
  var context: SessionContext

  private enum CodingKeys: String, CodingKey {
    case sessionID = "session_id"
    case horizon
    case previousRefreshEndedAt = "previous_refresh_ended_at"
  }

  init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    sessionID = try c.decode(String.self, forKey: .sessionID)
    context = SessionContext(
      horizon: try c.decodeIfPresent(Double.self, forKey: .horizon),
      previousRefreshEndedAt: try c.decodeIfPresent(Double.self, forKey: .previousRefreshEndedAt))
  }
}
