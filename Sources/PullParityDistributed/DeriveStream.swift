import Foundation
package import PullParityCore
internal import PullParityIngest
internal import PullParityStore

/// `pullparity derive`: raw event lines with their origin in (`decode`'s input format), grouped
/// by session, out come the rows of `sessions` and `violations`, then one `profiles` row per
/// profile used. Each raw line is decoded once, by ingest's `LineDecoder`, and each session derived by Core's
/// `SessionDeriver`, exactly as `ingest` and `replay` do; the order of events within a session
/// does not matter (the deriver puts them in log order), but a session's events must be together.
/// A `context` line before a session's events judges it with what the store would know (the
/// data's horizon, the install's previous refresh); without one, it is judged alone.
package struct DeriveStream {
  private let profiles: ProfileCatalog
  private var decoder: LineDecoder
  private let encoder: JSONEncoder
  private var pending: [RecordedEvent] = []
  /// Sessions already derived, by their ids' bytes: two ids that only look the same are two
  /// sessions here as in ingest.
  private var finished: Set<ByteIdentity> = []
  private var profilesUsed: Set<String> = []
  /// The context line read for the session whose events come next, and where it was read.
  private var context: (line: ContextLine, location: PipeLocation)?

  package init(profiles: ProfileCatalog) {
    self.profiles = profiles
    decoder = LineDecoder()
    encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
  }

  /// Reads standard input to its end; calls `emit` with every output line (no line end).
  /// - Returns: the number of sessions derived.
  @discardableResult
  package mutating func run(inputName: String = "-", emit: (String) throws -> Void) throws -> Int {
    // Lines carry the raw line whole: any length ingest accepted must pass here.
    let reader = LineReader(
      source: FileByteSource(descriptor: 0, name: inputName), name: inputName,
      maxLineBytes: IngestOptions.largestMaxLineBytes)
    try reader.forEachLine { line in
      if line.isBlank { return }
      let location = PipeLocation(input: inputName, line: line.number)
      switch try DeriveInputLine.read(line, inputName: inputName, decoder: &decoder) {
      case .context(let context): try accept(context, at: location, emit)
      case .event(let recorded):
        try begin(recorded.event.sessionID, at: location, emit)
        try requireContextUsed(by: recorded.event.sessionID)
        pending.append(recorded)
      }
    }
    try flush(emit)
    try requireContextUsed(by: nil)
    for name in profilesUsed.sorted() {
      try emit(try encode(TableLine(table: "profiles", row: ProfileRow(profiles.resolve(name)))))
    }
    return finished.count
  }

  /// Before a line of `sessionID`: derives the session before it, and refuses a session seen
  /// before, whose two parts would be derived as two sessions.
  private mutating func begin(_ sessionID: String, at location: PipeLocation, _ emit: (String) throws -> Void) throws {
    if let current = pending.first?.event.sessionID, ByteIdentity(current) != ByteIdentity(sessionID) {
      try flush(emit)
    }
    guard !finished.contains(ByteIdentity(sessionID)) else {
      throw location.error(
        "session \"\(sessionID)\" appears again after other sessions; derive needs each session's events together")
    }
  }

  /// A context line comes before its session's events (docs/distributed-formats.md): one found
  /// among them says the engine did not put the input together as it meant to, and is refused
  /// rather than guessed at.
  private mutating func accept(
    _ line: ContextLine, at location: PipeLocation, _ emit: (String) throws -> Void
  ) throws {
    if let current = pending.first?.event.sessionID, ByteIdentity(current) == ByteIdentity(line.sessionID) {
      throw location.error("the context of session \"\(line.sessionID)\" comes after its events; it must precede them")
    }
    try begin(line.sessionID, at: location, emit)
    try requireContextUsed(by: nil)
    context = (line, location)
  }

  /// A context is for the session that follows it: one followed by another session's line (or
  /// by nothing) names a session that has no events here, and would otherwise be dropped
  /// silently, leaving that session judged without it.
  private func requireContextUsed(by sessionID: String?) throws {
    guard let (line, location) = context else { return }
    if let sessionID, ByteIdentity(sessionID) == ByteIdentity(line.sessionID) { return }
    throw location.error("context line for session \"\(line.sessionID)\" is not followed by that session's events")
  }

  private mutating func flush(_ emit: (String) throws -> Void) throws {
    guard !pending.isEmpty else { return }
    let session = SessionDeriver.derive(pending, profiles: profiles, context: context?.line.context ?? SessionContext())
    pending.removeAll(keepingCapacity: true)
    context = nil
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
