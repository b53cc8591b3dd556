import Foundation
internal import PullParityCore
internal import PullParityIngest
package import PullParityStore

/// `pullparity load`: puts what a distributed run wrote (docs/distributed-formats.md) into an
/// empty SQLite file, through the same `IngestTransaction` and ledger as `ingest`, so that
/// `report`, `qa`, `compare`, `session` and dashboards read it unchanged. One transaction: a
/// load that fails leaves the file as it was.
package struct RunLoader {
  package var database: PullParityDatabase

  package init(database: PullParityDatabase) {
    self.database = database
  }

  package func load(directory: String) throws -> RunSummaryFile {
    let summary = try Self.summary(in: directory)
    let profiles = try Self.profiles(in: directory)
    let started = database.clock.elapsed()
    // Refused before the run is recorded, so a refused load leaves the file as it was.
    try database.read { try LoadTarget.requireEmpty($0) }
    let runID = try IngestLedger.begin(
      database, sources: summary.sources, toolVersion: summary.toolVersion,
      profileVersions: Dictionary(profiles.map { ($0.name, $0.version) }, uniquingKeysWith: max),
      parser: summary.engine)
    var counts = RunCounts()
    do {
      try database.write { db in
        try LoadTarget.requireEmpty(db)
        let tx = try IngestTransaction(db, runID: runID)
        // Every input is a source, as in ingest, even one nothing was read from (UTF-16).
        for name in summary.sources { _ = try tx.sourceID(named: name) }
        var writer = LoadWriter(tx: tx, runID: runID)
        try TableFiles(directory: directory, table: "events").forEachRow(EventTableRow.self) { try writer.store($0) }
        try tx.finishBlocks()
        try TableFiles(directory: directory, table: "quarantine").forEachRow(QuarantineTableRow.self) {
          try writer.quarantine($0)
        }
        try writer.saveSessions(directory: directory)
        try ProfileRegistry.store(profiles, in: db, at: database.clock.now())
        // The run derived each session alone; what their context decides is judged here, as
        // ingest does at its end.
        var judge = try CrossSessionJudge(db, profiles: ProfileCatalog(profiles))
        try judge.run()
        counts = try Self.counts(of: summary, in: directory, checkedAgainst: writer.loaded)
        try IngestLedger.record(db, runID: runID, totals: counts)
      }
    } catch {
      try? IngestLedger.finish(database, runID: runID, status: .failed, totals: counts, durationMs: 0)
      throw error
    }
    try IngestLedger.finish(
      database, runID: runID, status: .completed, totals: counts,
      durationMs: summary.durationMs ?? database.clock.seconds(since: started) * 1000)
    return summary
  }

  /// Reads what `load` reads before it touches the database (the summary and the profiles), so
  /// that a directory that is not a run's output fails before the database file is created.
  package static func check(directory: String) throws {
    _ = try summary(in: directory)
    _ = try profiles(in: directory)
  }

  static func summary(in directory: String) throws -> RunSummaryFile {
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

  /// The run's counts, once the rows loaded agree with them (a partly copied directory does not).
  private static func counts(
    of summary: RunSummaryFile, in directory: String, checkedAgainst loaded: LoadWriter.Loaded
  ) throws -> RunCounts {
    let expected = (summary.eventsStored, summary.sessionsDerived, summary.quarantined + summary.conflicts)
    let got = (loaded.events, loaded.sessions, loaded.quarantined)
    guard expected == got else {
      throw PipeFormatError(
        input: directory + "/summary.json", line: 1,
        message: "the summary says \(expected.0) events, \(expected.1) sessions and \(expected.2) quarantined lines; "
          + "the tables hold \(got.0), \(got.1) and \(got.2)")
    }
    var counts = RunCounts()
    counts.linesRead = summary.linesRead
    counts.blankLines = summary.blankLines
    counts.eventsStored = summary.eventsStored
    counts.duplicates = summary.duplicates
    counts.conflicts = summary.conflicts
    counts.quarantined = summary.quarantined
    counts.alreadyQuarantined = summary.alreadyQuarantined
    counts.sessionsDerived = summary.sessionsDerived
    return counts
  }
}
