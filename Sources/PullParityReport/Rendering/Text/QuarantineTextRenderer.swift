package import PullParityStore

/// Quarantined lines for a terminal: where each is, why it was refused and how it began. All
/// of it came from the input, so all of it goes through `TerminalText.escaped`.
package struct QuarantineTextRenderer {
  /// Characters of a raw line shown under it: with its indent and the ellipsis, 80 columns.
  /// (The location line above is never cut: its file and line number are what it is for.)
  package static let rawShown = 75

  package init() {}

  /// `file:line: category: reason`, the form an ingest's summary names bad lines in.
  package static func location(_ line: QuarantinedLine) -> String {
    TerminalText.escaped("\(line.source):\(line.line): \(line.category): \(line.reason)")
  }

  /// - Parameter total: how many lines matched, of which `lines` are shown.
  package func render(_ lines: [QuarantinedLine], total: Int) -> String {
    guard !lines.isEmpty else { return "No quarantined line matches.\n" }
    var out: [String] = []
    for line in lines {
      out.append(Self.location(line) + " (run \(line.runID))")
      let raw = line.raw.count > Self.rawShown ? line.raw.prefix(Self.rawShown) + "…" : line.raw
      out.append("    " + TerminalText.escaped(raw))
    }
    let count = total == 1 ? "1 quarantined line" : "\(total) quarantined lines"
    out.append(lines.count < total ? "Shown \(lines.count) of \(count); --limit 0 shows them all." : "\(count).")
    return out.joined(separator: "\n") + "\n"
  }
}
