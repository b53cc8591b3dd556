/// The JSON body a webhook receives for one change: Slack's incoming-webhook shape (`text`, in
/// Slack's markup), which Mattermost, Rocket.Chat and Discord's Slack endpoint take too, and
/// the same facts as fields under `pullparity` for a receiver that is a program.
package struct AlertMessage: Encodable, Equatable, Sendable {
  package var text: String
  package var pullparity: Details

  package struct Details: Encodable, Equatable, Sendable {
    package var change: GateChange.Kind
    package var app: String
    package var platform: String
    package var sessions: Int
    package var failing: [String]
    /// The sessions judged: those that started from `sinceMs` to `untilMs`.
    package var sinceMs: Double
    package var untilMs: Double
    package var database: String
    /// What reproduces the verdict.
    package var command: String
    package var link: String?

    enum CodingKeys: String, CodingKey {
      case change, app, platform, sessions, failing, database, command, link
      case sinceMs = "since_ms"
      case untilMs = "until_ms"
    }
  }

  /// The message for `change`, judged over the sessions started from `sinceMs` to `untilMs` of
  /// `database`; `link` (a dashboard, a report page) is added as given.
  package init(_ change: GateChange, sinceMs: Double, untilMs: Double, database: String, link: String?) {
    let reading = change.reading
    let command =
      "pullparity report --db \(Self.shell(database)) --app \(Self.shell(reading.gate.app)) "
      + "--platform \(Self.shell(reading.gate.platform)) --since \(ReportContext.rfc3339(sinceMs))"
    pullparity = Details(
      change: change.kind, app: reading.gate.app, platform: reading.gate.platform, sessions: reading.sessions,
      failing: reading.failing, sinceMs: sinceMs, untilMs: untilMs, database: database, command: command,
      link: link)
    text = Self.text(pullparity)
  }

  /// Slack's markup: `&`, `<` and `>` escaped in everything the log or the command line wrote,
  /// so that an app name cannot make a link or a mention.
  private static func text(_ details: Details) -> String {
    let who = "*\(slack(details.app))* on *\(slack(details.platform))*"
    var lines: [String]
    switch details.change {
    case .failing:
      lines = [":red_circle: PullParity: \(who) is failing (\(details.sessions) sessions):"]
      lines += details.failing.map { "• " + slack($0) }
    case .recovered:
      lines = [":large_green_circle: PullParity: \(who) passes again (\(details.sessions) sessions)."]
    }
    lines.append("`" + slack(details.command) + "`")
    if let link = details.link { lines.append("<\(slack(link))|Open the report>") }
    return lines.joined(separator: "\n")
  }

  /// A word the shell takes as it is: quoted unless it is made of characters no shell reads.
  private static func shell(_ word: String) -> String {
    let plain = !word.isEmpty && word.unicodeScalars.allSatisfy(shellPlain.contains)
    return plain ? word : "'" + word.replacing("'", with: "'\\''") + "'"
  }

  private static let shellPlain = Set(
    "+,-./0123456789:=@ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz".unicodeScalars)

  private static func slack(_ text: String) -> String {
    text.replacing("&", with: "&amp;").replacing("<", with: "&lt;").replacing(">", with: "&gt;")
  }
}
