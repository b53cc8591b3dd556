import Foundation
package import PullParityCore
internal import PullParityStore

/// `pullparity derive`: the event lines of `decode` in, grouped by session, out come the rows
/// of `sessions` and `violations`, then one `profiles` row per profile used. Each event's raw
/// line is decoded again by ingest's `LineDecoder` and each session derived by Core's
/// `SessionDeriver`, exactly as `ingest` and `replay` do; the order of events within a session
/// does not matter (the deriver puts them in log order), but a session's events must be together.
package struct DeriveStream {
  private let profiles: ProfileCatalog
  private var decoder: LineDecoder
  private let jsonDecoder = JSONDecoder()
  private let encoder: JSONEncoder
  private var pending: [RecordedEvent] = []
  /// Sessions already derived, by their ids' bytes: two ids that only look the same are two
  /// sessions here as in ingest.
  private var finished: Set<ByteIdentity> = []
  private var profilesUsed: Set<String> = []

  package init(profiles: ProfileCatalog, parser: ParserKind = .simdjson) {
    self.profiles = profiles
    decoder = LineDecoder(parser)
    encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
  }

  /// Reads standard input to its end; calls `emit` with every output line (no line end).
  /// - Returns: the number of sessions derived.
  @discardableResult
  package mutating func run(inputName: String = "-", emit: (String) throws -> Void) throws -> Int {
    // Decoded lines carry the raw line whole: any length ingest accepted must pass here.
    let reader = LineReader(
      source: FileByteSource(descriptor: 0, name: inputName), name: inputName,
      maxLineBytes: IngestOptions.largestMaxLineBytes)
    try reader.forEachLine { line in
      if line.isBlank { return }
      let decoded = try read(Data(line.bytes), inputName: inputName, number: line.number)
      guard decoded.kind == .event, let sessionID = decoded.sessionID else { return }
      if let current = pending.first?.event.sessionID, ByteIdentity(current) != ByteIdentity(sessionID) {
        try flush(emit)
      }
      guard !finished.contains(ByteIdentity(sessionID)) else {
        throw PipeFormatError(
          input: inputName, line: line.number,
          message: "session \"\(sessionID)\" appears again after other sessions; "
            + "derive needs each session's events together")
      }
      pending.append(try recorded(decoded, inputName: inputName, number: line.number))
    }
    try flush(emit)
    for name in profilesUsed.sorted() {
      try emit(try encode(TableLine(table: "profiles", row: ProfileRow(profiles.resolve(name)))))
    }
    return finished.count
  }

  private func read(_ data: Data, inputName: String, number: Int) throws -> DecodedLine {
    do {
      return try jsonDecoder.decode(DecodedLine.self, from: data)
    } catch {
      throw PipeFormatError(input: inputName, line: number, message: "not a line of `pullparity decode`: \(error)")
    }
  }

  /// The event again from its raw line, by the same rules that accepted it.
  private mutating func recorded(_ decoded: DecodedLine, inputName: String, number: Int) throws -> RecordedEvent {
    guard let raw = decoded.raw, case .event(let event) = decoder.decode(raw) else {
      throw PipeFormatError(
        input: inputName, line: number, message: "`raw` of an event line is missing or not an event")
    }
    // Without a line number the offset keeps the same order within the source.
    return RecordedEvent(event: event, source: decoded.source, line: decoded.line ?? decoded.offset)
  }

  private mutating func flush(_ emit: (String) throws -> Void) throws {
    guard !pending.isEmpty else { return }
    let session = SessionDeriver.derive(pending, profiles: profiles)
    pending.removeAll(keepingCapacity: true)
    finished.insert(ByteIdentity(session.sessionID))
    profilesUsed.insert(session.profileName)
    try emit(try encode(TableLine(table: "sessions", row: SessionRow(session))))
    for violation in ViolationRow.rows(of: session) {
      try emit(try encode(TableLine(table: "violations", row: violation)))
    }
  }

  private func encode(_ line: TableLine<some Codable & Sendable>) throws -> String {
    String(decoding: try encoder.encode(line), as: UTF8.self)
  }
}
