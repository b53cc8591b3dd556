import PullParityCore
import PullParityReport
import PullParityStore

/// `pullparity retain`: drops old raw events and says what went, or lists earlier runs.
struct RetainFrontend {
  var database: PullParityDatabase

  func drop(before beforeMs: Double, named: String, vacuum: Bool) throws -> String {
    let record = try RawRetention.drop(before: beforeMs, in: database, at: database.clock.now())
    if vacuum {
      do {
        try database.vacuum()
      } catch {
        // The drop is committed whatever VACUUM does: say so, or a user would think nothing went.
        throw CommandError(
          (record.map { Self.dropped($0, named: named, vacuumed: false) } ?? "")
            + "VACUUM failed, so the file keeps its size: \(error)\n"
            + "Run the same command again once the disk has room for a copy of the file: it drops nothing more.")
      }
    }
    return record.map { Self.dropped($0, named: named, vacuumed: vacuum) }
      ?? "No stored session has all its raw events older than \(TerminalText.escaped(named)); nothing was dropped.\n"
  }

  private static func dropped(_ record: RetentionRecord, named: String, vacuumed: Bool) -> String {
    """
    Dropped the \(NumberText.thousands(record.events)) raw events of \(NumberText.thousands(record.sessions)) sessions \
    whose every event is older than \(TerminalText.escaped(named)) (\(NumberText.thousands(record.blocks)) blocks \
    deleted, \(NumberText.thousands(record.blocksRewritten)) rewritten without them; \
    \(NumberText.thousands(record.bytes)) bytes\
    \(vacuumed ? ", given back to the file system" : " for later ingests to reuse")).
    Those sessions can no longer be derived again: their stored rows are kept (retention run \(record.retentionID)).

    """
  }

  func listing() throws -> String {
    let records = try database.read { try RawRetention.records($0) }
    guard !records.isEmpty else { return "No raw events have been dropped (`pullparity retain --before`).\n" }
    let header = ["run", "retained at", "before", "events", "sessions", "blocks", "rewritten", "bytes"]
    let rows =
      [header]
      + records.map {
        [
          "\($0.retentionID)", $0.retainedAt, RetentionRecord.time($0.beforeMs), NumberText.thousands($0.events),
          NumberText.thousands($0.sessions), NumberText.thousands($0.blocks), NumberText.thousands($0.blocksRewritten),
          NumberText.thousands($0.bytes),
        ]
      }
    let widths = header.indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
    return rows.map { row in
      row.enumerated().map { column, cell in
        let pad = String(repeating: " ", count: widths[column] - cell.count)
        return column < 3 ? cell + pad : pad + cell
      }.joined(separator: "  ")
    }.joined(separator: "\n") + "\n"
  }
}
