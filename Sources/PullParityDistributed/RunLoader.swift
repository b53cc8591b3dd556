import Foundation
internal import GRDB
internal import PullParityCore
internal import PullParityIngest
package import PullParityReport
package import PullParityStore

/// `pullparity load`: puts what a distributed run wrote (docs/distributed-formats.md) into a
/// SQLite file, new or not, through the same `IngestTransaction` and ledger as `ingest` and by
/// its rules for what is stored already (`LoadWriter`), so that `report`, `qa`, `compare`,
/// `session` and dashboards read it unchanged. One transaction: a load that fails leaves the
/// file as it was. The part files are read on a thread of their own while the rows read before
/// are stored (`LoadReader`).
package struct RunLoader {
  package var database: PullParityDatabase

  package init(database: PullParityDatabase) {
    self.database = database
  }

  /// What a load found and what it changed.
  package struct Outcome {
    package var summary: RunSummaryFile
    /// What this load stored, in `ingest_runs`' terms: the summary's on a new file; on a file
    /// that held some of the run already, what was new to it.
    package var counts: RunCounts
    /// `--leave-events`: where the run's events are, and how many.
    package var eventsLeft: LeftEventRun?
    /// The report digests brought up to date after the load.
    package var digests: DigestRefresh.Outcome
  }

  /// `leavingEvents`: store everything but the raw events, and where they are
  /// (`load --leave-events`); the file must hold no stored event and no session that is not
  /// such a run's, and a directory loaded so before is replaced (docs/distributed-formats.md).
  /// `step`: the run is (part of) a daily dataset's, and the file records which of its runs it
  /// now holds (`DatasetLoads`).
  package func load(directory: String, leavingEvents: Bool = false, step: DatasetStep? = nil) throws -> Outcome {
    let summary = try Self.summary(in: directory)
    try step?.check(summary, in: directory)
    try Self.requireJSONTables(in: directory)
    try Self.refuseNestedRun(in: directory)
    let profiles = try Self.profiles(in: directory)
    let started = database.clock.elapsed()
    // Refused before the run is recorded, so a refused load leaves the file as it was.
    let stored = try database.read { try ProfileRegistry.stored($0) }
    try Self.checkProfiles(profiles, stored: stored)
    var left: LeftEventRun?
    if leavingEvents {
      left = try leftRun(directory, events: summary.eventsStored)
    } else {
      try LeftEvents.refuseStoring(database, command: "load without --leave-events")
    }
    // Sessions stored before are derived again with their own profiles, the run's sessions with the run's.
    let catalog = ProfileCatalog(stored.map(\.profile) + profiles)
    let runID = try IngestLedger.begin(
      database, sources: summary.sources, toolVersion: summary.toolVersion,
      profileVersions: Dictionary(profiles.map { ($0.name, $0.version) }, uniquingKeysWith: max),
      parser: summary.engine)
    var counts = RunCounts()
    do {
      try database.write { db in
        let leaving = try left.map { try Self.leave($0, runID: runID, in: directory, db) }
        let tx = try IngestTransaction(db, runID: runID)
        // Every input is a source, as in ingest, even one nothing was read from (UTF-16).
        for name in summary.sources { _ = try tx.sourceID(named: name) }
        var writer = LoadWriter(
          tx: tx, runID: runID, profiles: catalog, expectedEvents: summary.eventsStored, leaving: leaving)
        let sessions = try Self.storeEvents(from: directory, with: &writer)
        try tx.finishBlocks()
        try TableFiles(directory: directory, table: "quarantine").forEachRow(QuarantineTableRow.self) {
          try writer.quarantine($0)
        }
        try tx.finishBlocks()
        try writer.saveSessions(sessions)
        try ProfileRegistry.store(profiles, in: db, at: database.clock.now())
        // The run derived each session alone; what their context decides is judged here, as
        // ingest does at its end.
        var judge = try CrossSessionJudge(db, profiles: catalog)
        try judge.run()
        try Self.check(summary, in: directory, against: writer.loaded)
        counts = Self.counts(of: summary, writer.counts)
        try IngestLedger.record(db, runID: runID, totals: counts)
        if let step { try DatasetRuns.record(step.dataset, runs: step.runs, runID: runID, db) }
      }
    } catch {
      try? IngestLedger.finish(database, runID: runID, status: .failed, totals: counts, durationMs: 0)
      throw error
    }
    try IngestLedger.finish(
      database, runID: runID, status: .completed, totals: counts,
      durationMs: summary.durationMs ?? database.clock.seconds(since: started) * 1000)
    left?.runID = runID
    // The run's log is copied into the file while the digests are counted.
    let checkpoint = database.startCheckpoint()
    defer { checkpoint.wait() }
    let digests = try DigestRefresh.afterWrite(database)
    return Outcome(summary: summary, counts: counts, eventsLeft: left, digests: digests)
  }

  /// The run as `--leave-events` records it (its run id is the ledger's, known later), once the
  /// file is found to hold no stored event and no session of its own.
  private func leftRun(_ directory: String, events: Int) throws -> LeftEventRun {
    let absolute = URL(fileURLWithPath: directory).standardizedFileURL.resolvingSymlinksInPath().path
    let table = TableFiles(directory: directory, table: "events")
    let files = try table.files().map { String($0.dropFirst(table.path.count + 1)) }
    let (sessions, hasEvents) = try database.read { try LeftEvents.storedSessions($0) }
    guard sessions == 0, !hasEvents else {
      throw LeftEventsError(
        "\(database.path) holds \(sessions) sessions whose events are stored in it (ingest, or load without "
          + "--leave-events): a run whose events are left in \(absolute) cannot be checked against them "
          + "(duplicates, conflicts), nor a session in both derived again from all its events. Load it into a new "
          + "file, or without --leave-events.")
    }
    return LeftEventRun(runID: 0, directory: absolute, events: events, files: files)
  }

  /// Inside the load's transaction: the earlier loads of the same directory replaced, and the
  /// run recorded.
  private static func leave(
    _ run: LeftEventRun, runID: Int64, in directory: String, _ db: Database
  ) throws -> LoadWriter.Leaving {
    var run = run
    run.runID = runID
    try LeftEvents.replaceLoads(of: run.directory, db)
    try LeftEvents.record(run, db)
    let path = TableFiles(directory: directory, table: "events").path
    let index = Dictionary(run.files.enumerated().map { (path + "/" + $1, $0) }, uniquingKeysWith: min)
    return LoadWriter.Leaving(run: run, fileIndex: index, db: db)
  }

  /// Stores the events as the reading thread hands them over; returns the sessions and
  /// violations it read after them.
  private static func storeEvents(from directory: String, with writer: inout LoadWriter) throws -> LoadedSessions {
    let reader = LoadReader(directory: directory)
    reader.start()
    var sessions: LoadedSessions?
    do {
      while let item = reader.take() {
        switch item {
        case .events(let batch): try writer.store(batch)
        case .sessions(let read): sessions = read
        case .failure(let error): throw error
        }
      }
    } catch {
      reader.stop()
      throw error
    }
    return sessions ?? LoadedSessions()
  }

  /// A profile the database holds under the same name with other rules: ingest refuses to judge
  /// one app with two versions of its profile, and so does load.
  private static func checkProfiles(_ profiles: [Profile], stored: [StoredProfile]) throws {
    let names = Set(profiles.map(\.name))
    let mismatches = ProfileRegistry.mismatches(
      ProfileCatalog(profiles), stored: stored.filter { names.contains($0.name) })
    guard mismatches.isEmpty else {
      throw ProfileMismatchError(
        mismatches,
        advice: "Load the run into a database whose profiles are the run's, or run `pullparity replay --profiles FILE` "
          + "with the run's profiles first.")
    }
  }

  /// Reads what `load` reads before it touches the database (the summary and the profiles), so
  /// that a directory that is not a run's output fails before the database file is created.
  package static func check(directory: String) throws {
    // A daily dataset's whole tables are read only into a file that holds none of its runs:
    // what `load` reads is checked when it reads it.
    guard try summary(in: directory).dataset == nil else { return try refuseNestedRun(in: directory) }
    try requireJSONTables(in: directory)
    try refuseNestedRun(in: directory)
    _ = try profiles(in: directory)
  }

  /// A run's output holds `parquet/`, `json/` and its summary, never another run: a folder of
  /// it with a summary of its own is a newer run copied into the old one (`hdfs dfs -get` or
  /// `cp -r` into a folder that exists nests it), and loading the outer folder would load the
  /// old run again and report nothing new. Refused, naming the run to load.
  static func refuseNestedRun(in directory: String) throws {
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
    for entry in entries.sorted() where FileManager.default.fileExists(atPath: "\(directory)/\(entry)/summary.json") {
      throw IngestError.cannotOpen(
        path: directory,
        reason: "\(directory)/\(entry) holds another run's output, copied into this one (a copy into a folder "
          + "that exists nests it): load \(directory)/\(entry), or replace \(directory) with it")
    }
  }

  /// `load` reads the tables' JSON lines (Swift has no Parquet reader here): a run written
  /// without them says which option of the job it needed, not which file it lacks.
  static func requireJSONTables(in directory: String) throws {
    var isDirectory: ObjCBool = false
    let path = directory + "/json"
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
      throw IngestError.cannotOpen(
        path: path, reason: "no JSON tables: load reads them; run the job with --json-for-load")
    }
  }

  package static func summary(in directory: String) throws -> RunSummaryFile {
    let path = directory + "/summary.json"
    guard let data = FileManager.default.contents(atPath: path) else {
      throw IngestError.cannotOpen(
        path: path, reason: "no run summary: is \(directory) the output of a distributed run?")
    }
    let summary: RunSummaryFile
    do {
      summary = try JSONDecoder().decode(RunSummaryFile.self, from: data)
    } catch {
      throw PipeFormatError(input: path, line: 1, message: "not a run summary: \(error)")
    }
    guard summary.format == RunSummaryFile.formatName, summary.formatVersion == 1 else {
      throw PipeFormatError(
        input: path, line: 1,
        message: "format \"\(summary.format)\" version \(summary.formatVersion); "
          + "load reads \"\(RunSummaryFile.formatName)\" version 1")
    }
    return summary
  }

  /// The profiles the run derived with, each checked against its own hash.
  static func profiles(in directory: String) throws -> [Profile] {
    var profiles: [Profile] = []
    try TableFiles(directory: directory, table: "profiles").forEachRow(ProfileRow.self) { row in
      guard let profile = try? JSONDecoder().decode(Profile.self, from: Data(row.definition.utf8)),
        ProfileRow(profile) == row
      else {
        throw TableRowProblem(
          message: "profile \(row.name) v\(row.version): the definition does not match its content hash")
      }
      profiles.append(profile)
    }
    return profiles
  }

  /// The rows loaded must agree with the summary's counts (a partly copied directory does not).
  private static func check(
    _ summary: RunSummaryFile, in directory: String, against loaded: LoadWriter.Loaded
  ) throws {
    let expected = (summary.eventsStored, summary.sessionsDerived, summary.quarantined + summary.conflicts)
    let got = (loaded.events, loaded.sessions, loaded.quarantined)
    guard expected == got else {
      throw PipeFormatError(
        input: directory + "/summary.json", line: 1,
        message: "the summary says \(expected.0) events, \(expected.1) sessions and \(expected.2) quarantined lines; "
          + "the tables hold \(got.0), \(got.1) and \(got.2)")
    }
  }

  /// The run's counts for `ingest_runs`: what the run read and judged itself (lines, blank lines,
  /// the duplicates and copies of bad lines it found among its inputs), plus what the load found
  /// in the database (`stored`: events stored, duplicates and conflicts with events stored
  /// before, bad lines quarantined before, sessions written).
  private static func counts(of summary: RunSummaryFile, _ stored: RunCounts) -> RunCounts {
    var counts = stored
    counts.linesRead = summary.linesRead
    counts.blankLines = summary.blankLines
    counts.duplicates += summary.duplicates
    counts.alreadyQuarantined += summary.alreadyQuarantined
    return counts
  }
}
