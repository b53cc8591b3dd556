import PullParityReport
import PullParityStore

/// Says on stderr that the report digests were not brought up to date after a write, when the
/// library that wrote could not (`DigestRefresh.afterWrite`): the write stands, reports read those
/// days' sessions until the next ingest, replay or load.
enum DigestFrontend {
  static func note(_ outcome: DigestRefresh.Outcome?) {
    guard let failure = outcome?.failure else { return }
    let note =
      "Note: the report digests were not brought up to date (\(failure)); reports read those days' "
      + "sessions until the next ingest, replay or load."
    try? FileHandleOutput.standardError.write(TerminalText.escaped(note) + "\n")
  }
}
