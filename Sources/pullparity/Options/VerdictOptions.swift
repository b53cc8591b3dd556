import ArgumentParser
import PullParityCore
import PullParityReport

/// What a verdict needs, shared by `report`, `qa` and `compare`.
struct VerdictOptions: ParsableArguments {
  @Option(
    help: ArgumentHelp(
      "Sessions a figure needs for a verdict; with fewer it is 'insufficient data', neither pass nor fail.",
      valueName: "n"))
  var minSessions = VerdictPolicy.defaultMinSessions

  @Flag(
    help: "Fail the check when a figure has too few sessions for a verdict, or none (by default only failures fail).")
  var requireData = false

  @Option(
    name: .customLong("budget"),
    help: ArgumentHelp(
      "Share of sessions (percent) that may break a rule, over the profile's own budget. Repeatable: --budget late_hide=1 --budget flash=0.5.",
      valueName: "rule=percent"))
  var budgets: [String] = []

  var policy: VerdictPolicy {
    VerdictPolicy(minSessions: minSessions, requireData: requireData, budgets: (try? parsedBudgets()) ?? [:])
  }

  func validate() throws {
    guard minSessions >= 1 else { throw ValidationError("--min-sessions must be 1 or more") }
    _ = try parsedBudgets()
  }

  private func parsedBudgets() throws -> [ProfileRule: Double] {
    var result: [ProfileRule: Double] = [:]
    let names = ProfileRule.allCases.map(\.rawValue).joined(separator: ", ")
    for text in budgets {
      let parts = text.split(separator: "=", maxSplits: 1).map(String.init)
      guard parts.count == 2, let percent = Double(parts[1]) else {
        throw ValidationError("--budget \(text): expected rule=percent, e.g. late_hide=1")
      }
      guard let rule = ProfileRule(rawValue: parts[0]) else {
        throw ValidationError("--budget \(text): unknown rule \"\(parts[0])\"; rules: \(names)")
      }
      guard (0...100).contains(percent) else {
        throw ValidationError("--budget \(text): the percent must be from 0 to 100")
      }
      result[rule] = percent
    }
    return result
  }
}
