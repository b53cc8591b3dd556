import PullParityCore

/// The one-line verdict every format ends or starts with, computed once so the Markdown and HTML
/// summaries name the same failing groups and metrics as the text report.
enum ParityVerdict {
  /// Groups not at parity, with their failing metrics in report order, each named once.
  static func failures(_ report: ParityReport) -> [(app: String, group: String, metrics: [ParityMetric])] {
    var failures: [(app: String, group: String, metrics: [ParityMetric])] = []
    for app in report.apps {
      for group in app.groups where group.atParity == false {
        var metrics: [ParityMetric] = []
        for comparison in group.comparisons where comparison.atParity == false && !metrics.contains(comparison.metric) {
          metrics.append(comparison.metric)
        }
        failures.append((app.app, group.value, metrics))
      }
    }
    return failures
  }

  static func sessionCount(_ report: ParityReport) -> Int {
    report.apps.flatMap(\.groups).flatMap(\.platforms).reduce(0) { $0 + $1.sessions }
  }

  /// The tolerances as the text report's header prints them.
  static func tolerances(_ t: ParityTolerances) -> String {
    "arm distance ±\(NumberText.format(t.armDistance)) pt, time to arm ±\(NumberText.format(t.timeToArmMs)) ms, "
      + "visible ±\(NumberText.format(t.visibleMs)) ms, rates ±\(NumberText.format(t.ratePoints)) pts"
  }
}
