import Foundation
import PullParityCore
import PullParityIngest
import PullParityReport
import PullParityStore

/// Runs an ingest for the command line: expands paths, shows progress, stops cleanly on
/// SIGINT or SIGTERM, and prints the summary.
struct IngestFrontend {
  /// Bad lines named in the summary; the quarantine command lists the rest.
  static let badLinesShown = 5

  var database: PullParityDatabase
  var options: IngestOptions
  var quiet: Bool

  /// `inputs`: the command's paths expanded (`InputCatalog.expand`).
  func run(_ inputs: [InputFile]) throws -> IngestSummary {
    InterruptFlag.install()
    var progressBar = ProgressBar(quiet: quiet)
    let summary = try Ingestor(database: database, options: options).run(
      inputs, shouldStop: { InterruptFlag.isRequested }, progress: { progressBar.update($0) })
    progressBar.finish()
    DigestFrontend.note(summary.digests)
    return summary
  }

  /// The run's rate: lines read a second, which every run has, and the events stored a second
  /// when it stored any. A re-ingest stores nothing and said "0 events/s" of a run that read
  /// every line.
  static func rate(_ c: RunCounts, seconds: Double) -> String {
    let lines = c.linesRead + c.linesResumed
    let read = "\(NumberText.thousands(Int(Double(lines) / seconds))) lines/s"
    guard c.eventsStored > 0 else { return read + " (nothing new stored)" }
    return read + ", \(NumberText.thousands(Int(Double(c.eventsStored) / seconds))) events/s stored"
  }

  func describe(_ summary: IngestSummary) throws -> String {
    let c = summary.counts
    let seconds = max(summary.durationSeconds, 0.001)
    var lines: [String] = []
    let files = summary.sources.count == 1 ? "1 input" : "\(summary.sources.count) inputs"
    lines.append(
      "Ingested \(files) in \(NumberText.seconds(summary.durationSeconds)): \(NumberText.thousands(c.linesRead + c.linesResumed)) lines, "
        + Self.rate(c, seconds: seconds)
    )
    var table: [(String, Int, String)] = [
      ("events stored", c.eventsStored, ""),
      ("duplicates skipped", c.duplicates, "same event_id, same line"),
      ("conflicts", c.conflicts, c.conflicts > 0 ? "same event_id, other content: quarantined" : ""),
      ("quarantined", c.quarantined, c.quarantined > 0 ? "bad lines, kept in the quarantine table" : ""),
      ("already quarantined", c.alreadyQuarantined, "bad lines quarantined before"),
      ("resumed", c.linesResumed, "lines an unfinished run had committed and counted"),
      ("blank lines", c.blankLines, ""),
      ("sessions derived", c.sessionsDerived, ""),
    ]
    let omittedWhenZero: Set = ["conflicts", "already quarantined", "resumed"]
    table.removeAll { omittedWhenZero.contains($0.0) && $0.1 == 0 }
    let width = table.map(\.0.count).max() ?? 0
    let numberWidth = table.map { NumberText.thousands($0.1).count }.max() ?? 0
    for (label, value, note) in table {
      let number = NumberText.thousands(value)
      var line = "  " + label + String(repeating: " ", count: width - label.count + 2)
      line += String(repeating: " ", count: numberWidth - number.count) + number
      if !note.isEmpty { line += "   " + note }
      lines.append(line)
    }
    lines += try badLines(runID: summary.runID)
    let unprofiled = try ReportQueries(database).storedProfiles().filter { $0.version == 0 }.map(\.name)
    if let note = NoProfileNote.line(apps: unprofiled) { lines.append("No profile: " + TerminalText.escaped(note)) }
    let outcomes = try ReportQueries(database).outcomeCounts()
    let total = outcomes.values.reduce(0, +)
    lines.append(
      "\(database.path): \(NumberText.thousands(total)) sessions — "
        // Abandoned (v1.2) only when a log says the screen was left: older logs never can.
        + SessionOutcome.allCases.filter { $0 != .abandoned || outcomes[$0] ?? 0 > 0 }
        .map { "\(NumberText.thousands(outcomes[$0] ?? 0)) \($0.rawValue)" }.joined(separator: ", "))
    return lines.joined(separator: "\n") + "\n"
  }

  /// The first lines this run quarantined, each with where it is and why, and how many more.
  private func badLines(runID: Int64) throws -> [String] {
    let queries = RunQueries(database)
    let filter = QuarantineFilter(runID: runID)
    let shown = try queries.quarantined(filter, limit: Self.badLinesShown)
    var lines = shown.map { "    " + QuarantineTextRenderer.location($0) }
    let more = try queries.quarantinedCount(filter) - shown.count
    if more > 0 {
      lines.append("    …and \(NumberText.thousands(more)) more: `pullparity quarantine --run \(runID)` lists them")
    }
    return lines
  }

  /// Writes the summary (and the stages, and the parity report of the database named
  /// `reportAs`) to standard output; inputs that could not be read and where a stopped run got
  /// to go to standard error.
  func write(_ summary: IngestSummary, stats: Bool, reportAs databaseName: String?) throws {
    try FileHandleOutput.standardOutput.write(try describe(summary))
    if stats { try FileHandleOutput.standardOutput.write(describeStages(summary)) }
    if let databaseName {
      let frontend = ReportFrontend(database: database, databaseName: databaseName)
      let style = TextStyle(colored: FileHandleOutput.standardOutput.wantsColor)
      let input = try frontend.input(filter: .init(), dimension: .trigger, format: .text, style: style)
      try FileHandleOutput.standardOutput.write("\n" + (try ReportFormat.text.render(input)))
    }
    if !summary.inputErrors.isEmpty {
      try FileHandleOutput.standardError.write(InputErrorLines.text(summary.inputErrors.map { "\($0)" }))
    }
    if let stop = describeStop(summary) { try FileHandleOutput.standardError.write(stop) }
  }

  /// A stopped run exits as the signal asked (130, 143); an input that could not be read makes
  /// it 2; with `strict`, any line set aside (quarantined, conflicting) makes it 1.
  func exitCode(_ summary: IngestSummary, strict: Bool) -> Int32 {
    if summary.stoppedAt != nil { return InterruptFlag.exitCode }
    if !summary.inputErrors.isEmpty { return 2 }
    let c = summary.counts
    return strict && c.quarantined + c.conflicts + c.alreadyQuarantined > 0 ? 1 : 0
  }

  /// Where a stopped ingest got to, for standard error: the summary on standard output stays
  /// the same shape whether or not the run was stopped. The position names an input file.
  func describeStop(_ summary: IngestSummary) -> String? {
    summary.stoppedAt.map {
      "Interrupted: stopped after the transaction ending at \(TerminalText.escaped($0)); "
        + "run the same command again to finish.\n"
    }
  }

  func describeStages(_ summary: IngestSummary) -> String {
    let t = summary.stageTimes
    let rows: [(String, Double)] = [
      ("read + parse (reader thread)", t.readAndParse),
      ("store events", t.storeEvents),
      ("derive sessions", t.derive),
      ("store sessions", t.storeSessions),
      ("commit", t.commit),
      ("writer waiting for input", t.waitingForInput),
      ("judge across sessions", t.judgeAcrossSessions),
    ]
    var lines = ["Stages (seconds; the reader overlaps the writer):"]
    for (label, seconds) in rows {
      lines.append("  " + label.padding(toLength: 30, withPad: " ", startingAt: 0) + String(format: "%7.2f", seconds))
    }
    lines.append(
      "  " + "wall".padding(toLength: 30, withPad: " ", startingAt: 0)
        + String(format: "%7.2f", summary.durationSeconds))
    lines.append(
      "  " + "then report digests".padding(toLength: 30, withPad: " ", startingAt: 0)
        + String(format: "%7.2f", t.reportDigests) + (summary.digests.map { Self.describe($0.days) } ?? ""))
    return lines.joined(separator: "\n") + "\n"
  }

  /// How the stale days' digests were brought up to date: extending them costs the new
  /// sessions alone, counting a day whole all of its sessions.
  private static func describe(_ days: DigestRefresh.Days) -> String {
    func count(_ n: Int, _ what: String) -> String { "\(n) day\(n == 1 ? "" : "s") \(what)" }
    return "  (\(count(days.extended, "extended")), \(count(days.whole, "counted whole")))"
  }
}
