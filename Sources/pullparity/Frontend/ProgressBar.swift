import PullParityIngest

/// A one-line progress display on standard error: bar, lines, events/s and ETA. Drawn only on
/// a terminal; silent when piped or with `--quiet`.
struct ProgressBar {
  let output: FileHandleOutput
  let enabled: Bool
  private var drawn = false

  init(output: FileHandleOutput = .standardError, quiet: Bool) {
    self.output = output
    self.enabled = !quiet && output.isTerminal
  }

  mutating func update(_ progress: IngestProgress) {
    guard enabled else { return }
    let rate = progress.elapsedSeconds > 0 ? Double(progress.eventsStored) / progress.elapsedSeconds : 0
    var line = ""
    if let total = progress.totalBytes, total > 0 {
      let fraction = min(1, Double(progress.bytesRead) / Double(total))
      let filled = Int(fraction * 24)
      line += "[" + String(repeating: "#", count: filled) + String(repeating: "-", count: 24 - filled) + "] "
      line += "\(Int(fraction * 100))% "
      if fraction > 0.01 {
        let eta = progress.elapsedSeconds * (1 - fraction) / fraction
        line += "ETA \(Self.duration(eta)) "
      }
    }
    line += "\(Self.count(progress.linesRead)) lines, \(Self.count(Int(rate))) events/s"
    // A progress line that cannot be drawn is no reason to stop an ingest.
    try? output.write("\r\u{1B}[K" + line)
    drawn = true
  }

  mutating func finish() {
    guard enabled, drawn else { return }
    try? output.write("\r\u{1B}[K")
    drawn = false
  }

  static func count(_ n: Int) -> String {
    switch n {
    case ..<10_000: "\(n)"
    case ..<10_000_000: "\(n / 1000)k"
    default: "\(n / 1_000_000)M"
    }
  }

  static func duration(_ seconds: Double) -> String {
    seconds < 90 ? "\(Int(seconds.rounded()))s" : "\(Int(seconds / 60))m\(Int(seconds) % 60)s"
  }
}
