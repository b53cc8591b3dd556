import ArgumentParser
import PullParityIngest
import PullParityStore

struct FilterOptions: ParsableArguments {
  @Option(help: "Only this app.")
  var app: String?

  @Option(help: "Only this platform (pwa, ios, android, ...).")
  var platform: String?

  @Option(
    help: ArgumentHelp("Sessions started at or after this time (RFC 3339 or YYYY-MM-DD, UTC).", valueName: "time"))
  var since: String?

  @Option(help: ArgumentHelp("Sessions started before this time (RFC 3339 or YYYY-MM-DD, UTC).", valueName: "time"))
  var until: String?

  @Option(name: .customLong("app-version"), help: "Only this app version.")
  var appVersion: String?

  @Option(help: "Only this screen.")
  var screen: String?

  func filter() throws -> SessionFilter {
    SessionFilter(
      app: app, platform: platform, sinceMs: try Self.time(since, "--since"),
      untilMs: try Self.time(until, "--until"), appVersion: appVersion, screen: screen)
  }

  static func time(_ text: String?, _ option: String) throws -> Double? {
    guard let text else { return nil }
    let full = text.count == 10 ? text + "T00:00:00Z" : text
    guard let ms = RFC3339Timestamp.epochMilliseconds(full) else {
      throw CommandError("\(option) \"\(text)\" is not a date (YYYY-MM-DD) or an RFC 3339 time with an offset")
    }
    return ms
  }
}
