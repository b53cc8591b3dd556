internal import PullParityCore
internal import PullParityIngest
internal import PullParityStore

/// The writes of `pullparity load` inside its transaction: events with their session refs,
/// quarantined lines, then sessions with their violations.
struct LoadWriter {
  struct Loaded {
    var events = 0
    var quarantined = 0
    var sessions = 0
  }

  let tx: IngestTransaction
  let runID: Int64
  private(set) var loaded = Loaded()
  /// Refs in first-seen order, as ingest hands them out.
  private var refs: [ByteIdentity: Int64] = [:]

  init(tx: IngestTransaction, runID: Int64) {
    self.tx = tx
    self.runID = runID
  }

  mutating func store(_ row: EventTableRow) throws {
    let ref = refs[ByteIdentity(row.sessionID)] ?? tx.newSessionRef()
    refs[ByteIdentity(row.sessionID)] = ref
    let sourceID = try tx.sourceID(named: row.source)
    var (eventID, sessionID, platform, app, type, raw) = (
      row.eventID, row.sessionID, row.platform, row.app, row.type, row.raw
    )
    let outcome = try eventID.withUTF8 { eventID in
      try sessionID.withUTF8 { sessionID in
        try platform.withUTF8 { platform in
          try app.withUTF8 { app in
            try type.withUTF8 { type in
              try raw.withUTF8 { raw in
                try tx.store(
                  EventFields(
                    eventID: .init(eventID), sessionID: .init(sessionID), platform: .init(platform), app: .init(app),
                    type: .init(type), raw: .init(raw), timestamp: row.tsMs, seq: row.seq, sessionRef: ref,
                    sourceID: sourceID, line: row.line, byteOffset: row.byteOffset),
                  idKey: EventKey.of(row.eventID))
              }
            }
          }
        }
      }
    }
    guard outcome == .stored else {
      throw TableRowProblem(
        message: "event_id \"\(row.eventID)\" is in the run's events twice; a run keeps one version of each event")
    }
    loaded.events += 1
  }

  mutating func quarantine(_ row: QuarantineTableRow) throws {
    let (bytes, isUTF8) = row.rawBytes()
    let added = try bytes.withUnsafeBytes { raw in
      try tx.quarantine(
        source: row.source, line: row.line, byteOffset: row.byteOffset, category: row.category, reason: row.reason,
        raw: raw, rawIsUTF8: isUTF8, eventID: row.eventID, runID: runID)
    }
    // The same bad bytes are one row (their identity is the bytes and the category), as in ingest.
    if added { loaded.quarantined += 1 }
  }

  /// Sessions with their violations; every session must have events.
  mutating func saveSessions(directory: String) throws {
    var violations: [ByteIdentity: (rows: [ViolationRow], first: PipeLocation)] = [:]
    try TableFiles(directory: directory, table: "violations").forEachRow(ViolationRow.self) { row, location in
      violations[ByteIdentity(row.sessionID), default: ([], location)].rows.append(row)
    }
    try TableFiles(directory: directory, table: "sessions").forEachRow(SessionRow.self) { row in
      guard let ref = refs[ByteIdentity(row.sessionID)] else {
        throw TableRowProblem(message: "session \"\(row.sessionID)\" has no events")
      }
      let found = (violations.removeValue(forKey: ByteIdentity(row.sessionID))?.rows ?? []).sorted {
        $0.ordinal < $1.ordinal
      }
      try tx.save(row, violations: found, ref: ref, isNew: true)
      loaded.sessions += 1
    }
    if let orphan = violations.keys.sorted().first, let first = violations[orphan]?.first {
      throw first.error("violations of session \"\(orphan)\", which has no row")
    }
  }
}
