import PullParityStore

/// What a write says while it converts an older file's events to schema 11
/// (`RawEventConversion`): for a conversion of `noticeEvents` or more, or one that goes on after
/// a kill, a note when it starts (how many events, and how many an interrupted run already
/// converted), a bar on a terminal as `ProgressBar` draws one, and a line when it is done.
/// Silent with `--quiet`, and for a small file converted in one go.
struct ConversionProgressDisplay {
  let path: String
  let output: FileHandleOutput
  let quiet: Bool
  private var shown = false
  private var drawn = false

  /// About a second of conversion at the measured rate.
  static let noticeEvents = 100_000

  init(path: String, output: FileHandleOutput = .standardError, quiet: Bool) {
    self.path = path
    self.output = output
    self.quiet = quiet
  }

  mutating func update(_ progress: RawEventConversion.Progress) {
    guard !quiet else { return }
    let left = progress.total - progress.convertedBefore
    if progress.converted == progress.convertedBefore, !progress.finished {
      guard left >= Self.noticeEvents || progress.convertedBefore > 0 else { return }
      shown = true
      var note = "Converting \(path) to schema 11 (raw events in compressed blocks): \(left) events"
      if progress.convertedBefore > 0 {
        note += " left of \(progress.total); \(progress.convertedBefore) were converted by an interrupted run"
      }
      write(note + ". A kill loses no work: the next write goes on where it stopped.\n")
      return
    }
    guard shown else { return }
    if progress.finished {
      if drawn { write("\r\u{1B}[K") }
      drawn = false
      let seconds = (progress.elapsedSeconds * 10).rounded() / 10
      write("Converted \(progress.converted - progress.convertedBefore) events in \(seconds) s.\n")
      return
    }
    guard output.isTerminal else { return }
    let fraction = Double(progress.converted) / Double(max(1, progress.total))
    let filled = Int(fraction * 24)
    var line = "[" + String(repeating: "#", count: filled) + String(repeating: "-", count: 24 - filled) + "] "
    line += "\(Int(fraction * 100))% converting: \(ProgressBar.count(progress.converted)) of "
    line += "\(ProgressBar.count(progress.total)) events"
    let done = Double(progress.converted - progress.convertedBefore) / Double(max(1, left))
    if done > 0.01 { line += ", ETA \(ProgressBar.duration(progress.elapsedSeconds * (1 - done) / done))" }
    write("\r\u{1B}[K" + line)
    drawn = true
  }

  /// A line that cannot be written is no reason to stop the conversion.
  private func write(_ text: String) { try? output.write(text) }
}
