import Foundation
internal import PullParityCore
internal import PullParityIngest
package import PullParityStore

/// The events `load --leave-events` left in a run directory, read back for `session` and
/// `replay --read-events` by load's own part-file reader (`EventPartFile`), so that each line
/// comes back as a load without the option would have stored it: the same bytes, source and
/// line, in the part files' order.
package struct RunDirectoryEvents: LeftEventSource {
  package init() {}

  package func events(of session: LeftSession, sessionID: String) throws -> [StoredEvent] {
    let files = try partFiles(of: session.run)
    let wanted = ByteIdentity(sessionID)
    var events: [StoredEvent] = []
    for name in session.files {
      try EventPartFile.forEachBatch(files.path + "/" + name, rows: LoadReader.batchRows) { batch in
        guard let index = batch.sessions.texts.firstIndex(where: { ByteIdentity($0) == wanted }) else { return }
        batch.arena.withUnsafeBytes { arena in
          for row in batch.rows where row.event.sessionIndex == index {
            let raw = String(decoding: row.event.raw.bytes(in: arena), as: UTF8.self)
            events.append(
              StoredEvent(raw: raw, source: batch.sources.texts[row.event.sourceIndex], line: row.event.line))
          }
        }
      }
    }
    guard !events.isEmpty else {
      throw LeftEventsError(
        "\(files.path): no event of session \"\(sessionID)\" in \(session.files.joined(separator: ", ")), "
          + "where load (run \(session.run.runID)) found them: the run directory changed since it was loaded")
    }
    return events
  }

  /// Every line of the run, session by session. A session whose rows are not together (the
  /// job writes each session's rows together) is refused where it shows up again: its lines
  /// would be derived as two sessions.
  package func forEachLine(
    of run: LeftEventRun, _ body: (String, UnsafeRawBufferPointer, String, Int) throws -> Void
  ) throws {
    let files = try partFiles(of: run)
    var seen = Set<ByteIdentity>()
    var current: String?
    var rows = 0
    for name in run.files {
      try EventPartFile.forEachBatch(files.path + "/" + name, rows: LoadReader.batchRows) { batch in
        try batch.arena.withUnsafeBytes { arena in
          for row in batch.rows {
            let id = batch.sessions.texts[row.event.sessionIndex]
            if current != id {
              guard seen.insert(ByteIdentity(id)).inserted else {
                throw batch.location(of: row).error("session \"\(id)\" shows up again after other sessions' rows")
              }
              current = id
            }
            rows += 1
            try body(id, row.event.raw.bytes(in: arena), batch.sources.texts[row.event.sourceIndex], row.event.line)
          }
        }
      }
    }
    guard rows == run.events else {
      throw LeftEventsError(
        "\(files.path) holds \(rows) events; load (run \(run.runID)) read \(run.events): the run directory changed "
          + "since it was loaded")
    }
  }

  /// The run's events table, refused unless its part files are those the load read.
  private func partFiles(of run: LeftEventRun) throws -> TableFiles {
    let table = TableFiles(directory: run.directory, table: "events")
    let names: [String]
    do {
      names = try table.files().map { String($0.dropFirst(table.path.count + 1)) }
    } catch {
      throw LeftEventsError(
        "\(table.path): the events of run \(run.runID), left there by `pullparity load --leave-events`, "
          + "cannot be read: \(error)")
    }
    guard names == run.files else {
      let first = zip(names, run.files).first { $0 != $1 }.map { " (\($0.0) where it read \($0.1))" } ?? ""
      throw LeftEventsError(
        "\(table.path) holds \(names.count) part files; load (run \(run.runID)) read \(run.files.count)\(first): "
          + "the run directory changed since it was loaded")
    }
    return table
  }
}
