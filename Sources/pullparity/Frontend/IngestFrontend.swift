import Foundation
import PullParityCore
import PullParityIngest
import PullParityStore

/// Runs an ingest for the command line: expands paths, shows progress, stops cleanly on
/// SIGINT, and prints the summary.
struct IngestFrontend {
  var database: PullParityDatabase
  var options: IngestOptions
  var quiet: Bool

  func run(paths: [String]) throws -> IngestSummary {
    let inputs = try InputCatalog.expand(paths)
    InterruptFlag.install()
    var progressBar = ProgressBar(quiet: quiet)
    let summary = try Ingestor(database: database, options: options).run(
      inputs, shouldStop: { InterruptFlag.isRequested }, progress: { progressBar.update($0) })
    progressBar.finish()
    return summary
  }

  func describe(_ summary: IngestSummary) throws -> String {
    let c = summary.counts
    let seconds = max(summary.durationSeconds, 0.001)
    var lines: [String] = []
    let files = summary.sources.count == 1 ? "1 input" : "\(summary.sources.count) inputs"
    lines.append(
      "Ingested \(files) in \(Formatted.seconds(summary.durationSeconds)): \(Formatted.thousands(c.linesRead + c.linesResumed)) lines, \(Formatted.thousands(Int(Double(c.eventsStored) / seconds))) events/s"
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
    let numberWidth = table.map { Formatted.thousands($0.1).count }.max() ?? 0
    for (label, value, note) in table {
      let number = Formatted.thousands(value)
      var line = "  " + label + String(repeating: " ", count: width - label.count + 2)
      line += String(repeating: " ", count: numberWidth - number.count) + number
      if !note.isEmpty { line += "   " + note }
      lines.append(line)
    }
    for rejected in try RunQueries(database).quarantined(runID: summary.runID, limit: 5) {
      lines.append("    \(rejected.source):\(rejected.line): \(rejected.category): \(rejected.reason)")
    }
    if let stoppedAt = summary.stoppedAt {
      lines.append("Interrupted: stopped after the batch ending at \(stoppedAt); run the same command again to finish.")
    }
    let outcomes = try ReportQueries(database).outcomeCounts()
    let total = outcomes.values.reduce(0, +)
    lines.append(
      "\(database.path): \(Formatted.thousands(total)) sessions — "
        + SessionOutcome.allCases.map { "\(Formatted.thousands(outcomes[$0] ?? 0)) \($0.rawValue)" }.joined(
          separator: ", "))
    return lines.joined(separator: "\n") + "\n"
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
    ]
    var lines = ["Stages (seconds; the reader overlaps the writer):"]
    for (label, seconds) in rows {
      lines.append("  " + label.padding(toLength: 30, withPad: " ", startingAt: 0) + String(format: "%7.2f", seconds))
    }
    lines.append(
      "  " + "wall".padding(toLength: 30, withPad: " ", startingAt: 0)
        + String(format: "%7.2f", summary.durationSeconds))
    return lines.joined(separator: "\n") + "\n"
  }
}
