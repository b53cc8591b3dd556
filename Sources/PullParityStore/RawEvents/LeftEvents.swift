import Foundation
package import GRDB
package import PullParityCore

/// A run loaded with `load --leave-events`: its raw events are in its run directory, not in
/// the file (`left_event_runs`, schema 12).
package struct LeftEventRun: Sendable, Equatable {
  package var runID: Int64
  /// The run directory's absolute path when it was loaded.
  package var directory: String
  /// The run's event rows.
  package var events: Int
  /// The part files of `json/events`, in name order, as the load read them.
  package var files: [String]

  package init(runID: Int64, directory: String, events: Int, files: [String]) {
    (self.runID, self.directory, self.events, self.files) = (runID, directory, events, files)
  }
}

/// Where one session's events were left: its run and the part files that hold its rows.
package struct LeftSession: Sendable {
  package var run: LeftEventRun
  package var files: ArraySlice<String>
}

/// Reads the events a run directory holds (`PullParityDistributed`'s part-file readers), for
/// the commands that read events back when asked.
package protocol LeftEventSource {
  /// Session `sessionID`'s lines, in the order a load without `--leave-events` stores them.
  func events(of session: LeftSession, sessionID: String) throws -> [StoredEvent]
  /// Every line of `run`, in the part files' order: (session id, raw line, source, line).
  func forEachLine(of run: LeftEventRun, _ body: (String, UnsafeRawBufferPointer, String, Int) throws -> Void) throws
}

/// The reads and writes of `left_event_runs` and `left_event_sessions`, and the rules that keep
/// sessions whose events are left apart from stored events (docs/distributed-formats.md).
package enum LeftEvents {
  package static func runs(_ db: Database) throws -> [LeftEventRun] {
    try Row.fetchAll(db, sql: "SELECT run_id, directory, events, files FROM left_event_runs ORDER BY run_id").map {
      LeftEventRun(
        runID: $0["run_id"], directory: $0["directory"], events: $0["events"],
        files: (try? JSONDecoder().decode([String].self, from: Data(($0["files"] as String).utf8))) ?? [])
    }
  }

  package static func record(_ run: LeftEventRun, _ db: Database) throws {
    let files = String(decoding: try JSONEncoder().encode(run.files), as: UTF8.self)
    try db.execute(
      sql: "INSERT INTO left_event_runs (run_id, directory, events, files) VALUES (?, ?, ?, ?)",
      arguments: [run.runID, run.directory, run.events, files])
  }

  /// Notes that session `ref`'s rows are in part files `files` of run `runID`.
  package static func recordSession(_ ref: Int64, runID: Int64, files: ClosedRange<Int>, _ db: Database) throws {
    try db.execute(
      sql: "INSERT INTO left_event_sessions (session_ref, run_id, first_file, last_file) VALUES (?, ?, ?, ?)",
      arguments: [ref, runID, files.lowerBound, files.upperBound])
  }

  /// Where session `ref`'s events were left; nil when they are stored (or it has none).
  package static func session(_ ref: Int64, _ db: Database) throws -> LeftSession? {
    guard
      let row = try Row.fetchOne(
        db, sql: "SELECT run_id, first_file, last_file FROM left_event_sessions WHERE session_ref = ?", arguments: [ref]
      ),
      let run = try runs(db).first(where: { $0.runID == row["run_id"] })
    else { return nil }
    let (first, last): (Int, Int) = (row["first_file"], row["last_file"])
    guard first >= 0, first <= last, last < run.files.count else {
      throw StoreError(
        context: "finding the events of session_ref \(ref)",
        message: "left_event_sessions names part files \(first)...\(last) of run \(run.runID), which lists "
          + "\(run.files.count)")
    }
    return LeftSession(run: run, files: run.files[first...last])
  }

  /// The refs of run `runID`'s sessions by id, read before a replay clears their rows (ids
  /// byte for byte: GRDB would read them up to a NUL).
  package static func sessionRefs(ofRun runID: Int64, _ db: Database) throws -> [ByteIdentity: Int64] {
    let statement = try RawStatement(
      db,
      """
      SELECT s.session_id, s.session_ref FROM left_event_sessions l JOIN sessions s USING (session_ref)
      WHERE l.run_id = ?
      """, [runID.databaseValue])
    var refs: [ByteIdentity: Int64] = [:]
    try statement.forEachRow("reading the sessions of run \(runID)") { refs[ByteIdentity($0.string(0))] = $0.int64(1) }
    return refs
  }

  /// Deletes the sessions (with their violations) that earlier loads of `directory` left their
  /// events in: a run directory loaded again is the truth now (a daily `--append` dataset holds
  /// every day so far). Their quarantined lines and ledger rows stay, as ingest keeps them.
  package static func replaceLoads(of directory: String, _ db: Database) throws {
    let refs =
      "SELECT session_ref FROM left_event_sessions WHERE run_id IN (SELECT run_id FROM left_event_runs WHERE directory = ?1)"
    // `left_event_sessions` last: the other deletes find the sessions through it.
    for table in ["violations", "labelled_sessions", "sessions", "left_event_sessions"] {
      try db.execute(sql: "DELETE FROM \(table) WHERE session_ref IN (\(refs))", arguments: [directory])
    }
  }

  /// Sessions the file holds whose events are not left in a run directory (ingested, loaded,
  /// or kept by `retain`), and whether it stores any event.
  package static func storedSessions(_ db: Database) throws -> (sessions: Int, events: Bool) {
    let sessions =
      try Int.fetchOne(
        db, sql: "SELECT count(*) FROM sessions WHERE session_ref NOT IN (SELECT session_ref FROM left_event_sessions)")
      ?? 0
    return (sessions, try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM event_keys)") ?? false)
  }

  /// How many sessions have their events left in run directories, and which directories.
  package static func overview(_ db: Database) throws -> (sessions: Int, directories: [String]) {
    let sessions = try Int.fetchOne(db, sql: "SELECT count(*) FROM left_event_sessions") ?? 0
    return (sessions, Array(Set(try runs(db).map(\.directory))).sorted())
  }

  /// Refuses a command that stores events (`ingest`, `load` without `--leave-events`) on a file
  /// holding sessions whose events are left in run directories: it could not tell a duplicate
  /// or a conflict of their events, nor derive such a session again with its new events.
  package static func refuseStoring(_ database: PullParityDatabase, command: String) throws {
    let runs = try database.read { db in try Self.runs(db) }
    guard !runs.isEmpty else { return }
    let directories = Array(Set(runs.map(\.directory))).sorted()
    throw LeftEventsError(
      "\(database.path) holds sessions loaded with --leave-events, whose raw events are in "
        + directories.joined(separator: ", ") + ", not in the file: \(command) cannot "
        + "check its events against theirs (duplicates, conflicts) nor derive a session again from all its events. "
        + "Use another file for it, or load the run with --leave-events.")
  }
}

/// A command refused because of where a file's raw events are.
package struct LeftEventsError: Error, CustomStringConvertible, Sendable {
  package var description: String

  package init(_ description: String) {
    self.description = description
  }
}
