internal import PullParityCore
package import PullParityStore

/// The `ingest_runs` ledger for a terminal, newest run first: one block per run, in 80 columns.
package struct IngestRunTextRenderer {
  package init() {}

  package func render(_ runs: [IngestRun]) -> String {
    guard !runs.isEmpty else { return "No ingest runs: run `pullparity ingest` first.\n" }
    return runs.flatMap(block).joined(separator: "\n") + "\n"
  }

  private func block(_ run: IngestRun) -> [String] {
    let took = run.durationMs.map { " · \(NumberText.oneDecimal($0 / 1000)) s" } ?? ""
    let recovered = run.recoveredAt.map { " (found dead at \($0))" } ?? ""
    let heading = "run \(run.id) · \(run.status)\(recovered) · started \(run.startedAt)\(took) · \(run.parser)"
    let counts =
      "\(run.linesRead) lines: \(run.eventsStored) stored, \(run.duplicates) duplicates, \(run.conflicts) conflicts, "
      + "\(run.quarantined) quarantined, \(run.alreadyQuarantined) already quarantined, \(run.blankLines) blank, "
      + "\(run.linesResumed) resumed; \(run.sessionsDerived) sessions derived"
    let sources = "sources: " + run.sources.joined(separator: ", ")
    let left = run.eventsLeftIn.map {
      "raw events not stored: \(run.eventsLeft ?? 0) left in \($0) (load --leave-events)"
    }
    // Wrapped before the indent: the wrap would fold leading spaces away.
    return [TerminalText.escaped(heading).wrapped(width: 80, indent: "  ")]
      + ([counts, sources] + (left.map { [$0] } ?? [])).map {
        "  " + TerminalText.escaped($0).wrapped(width: 78, indent: "    ")
      }
  }
}
