import Foundation
internal import PullParityCore
internal import PullParityIngest

/// One line of `pullparity derive`'s input (docs/distributed-formats.md): a raw log line with
/// its origin, as `decode` reads it, or a `context` line (its source field empty, which no log
/// line has) that hands the next session what the store would know about it.
enum DeriveInputLine {
  case event(RecordedEvent)
  case context(ContextLine)

  /// Reads the line; a raw line is decoded by `decoder`, ingest's rules, and must be an event.
  static func read(
    _ line: InputLine, inputName: String, decoder: inout LineDecoder
  ) throws -> DeriveInputLine {
    let location = PipeLocation(input: inputName, line: line.number)
    if line.bytes.first == UInt8(ascii: "\t") {
      return .context(try ContextLine(line.bytes, at: location))
    }
    let (origin, rawStart) = try DecodeStream.origin(of: line.bytes, inputName: inputName, number: line.number)
    let raw = UnsafeRawBufferPointer(rebasing: line.bytes[rawStart...])
    switch decoder.decode(raw, readableCount: line.readableCount - rawStart) {
    case .event(let event):
      // Without a line number the offset keeps the same order within the source.
      return .event(RecordedEvent(event: event, source: origin.source, line: origin.line ?? origin.offset))
    case .rejected(let rejection):
      throw location.error("the raw line (field 4) is not an event: \(rejection.reason.rawValue): \(rejection.message)")
    case .blank:
      throw location.error("the raw line (field 4) is empty; derive reads events only")
    }
  }
}

/// `TAB TAB TAB {"kind":"context","session_id":…,"horizon":…,"previous_refresh_started_at":…,
/// "previous_refresh_ended_at":…}`:
/// the `SessionContext` of one session, whose event lines it precedes. An absent value is `nil`,
/// as in the store: a session derived without one is judged as `derive` always judged it.
struct ContextLine: Decodable {
  static let kind = "context"

  var sessionID: String
  var context: SessionContext

  private enum CodingKeys: String, CodingKey {
    case kind
    case sessionID = "session_id"
    case horizon
    case previousRefreshStartedAt = "previous_refresh_started_at"
    case previousRefreshEndedAt = "previous_refresh_ended_at"
  }

  /// A line whose first field is empty: three tabs, then the JSON object.
  init(_ bytes: UnsafeRawBufferPointer, at location: PipeLocation) throws {
    guard bytes.count >= 3, bytes.prefix(3).allSatisfy({ $0 == UInt8(ascii: "\t") }) else {
      throw location.error("a line with an empty source must be a context line: three tabs, then its JSON object")
    }
    do {
      self = try JSONDecoder().decode(ContextLine.self, from: Data(bytes.dropFirst(3)))
    } catch {
      throw location.error("not a context line: \(error)")
    }
  }

  init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    guard try c.decode(String.self, forKey: .kind) == Self.kind else {
      throw DecodingError.dataCorruptedError(forKey: .kind, in: c, debugDescription: "kind must be \"context\"")
    }
    sessionID = try c.decode(String.self, forKey: .sessionID)
    context = SessionContext(
      horizon: try c.decodeIfPresent(Double.self, forKey: .horizon),
      previousRefreshStartedAt: try c.decodeIfPresent(Double.self, forKey: .previousRefreshStartedAt),
      previousRefreshEndedAt: try c.decodeIfPresent(Double.self, forKey: .previousRefreshEndedAt))
  }
}
