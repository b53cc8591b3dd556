internal import PullParityCore

/// One app on one platform: what an alert is about.
package struct PlatformGate: Hashable, Sendable, Codable, Comparable {
  package var app: String
  package var platform: String

  package init(app: String, platform: String) {
    (self.app, self.platform) = (app, platform)
  }

  package static func < (lhs: Self, rhs: Self) -> Bool {
    (ByteIdentity(lhs.app), ByteIdentity(lhs.platform)) < (ByteIdentity(rhs.app), ByteIdentity(rhs.platform))
  }
}

/// Where an app's platform stands: a figure failed, or figures were judged and none failed.
package enum GateStatus: String, Sendable, Codable {
  case failing
  case passing
}

/// An app's platform as one report judged it.
package struct GateReading: Equatable, Sendable {
  package var gate: PlatformGate
  /// nil: nothing had enough sessions for a verdict, which says neither.
  package var status: GateStatus?
  package var sessions: Int
  /// The figures that failed, in words, e.g. "stuck_refresh 11.1% (10/90), budget 0%".
  package var failing: [String]

  package init(gate: PlatformGate, status: GateStatus?, sessions: Int, failing: [String]) {
    (self.gate, self.status, self.sessions, self.failing) = (gate, status, sessions, failing)
  }
}

extension ParityReport {
  /// Each app and platform's standing over every group its sessions fell in: its own rules, and
  /// its comparisons with the reference platform (a parity failure is the compared platform's,
  /// the one that moved away from the reference).
  package var gateReadings: [GateReading] {
    var readings: [PlatformGate: GateReading] = [:]
    var verdicts: [PlatformGate: [Verdict]] = [:]
    for app in apps {
      for group in app.groups {
        let slice = group.dimension == GroupDimension.all.rawValue ? "" : "\(group.value): "
        for platform in group.platforms {
          let gate = PlatformGate(app: app.app, platform: platform.platform)
          let comparisons = group.comparisons.filter { $0.platform == platform.platform }
          verdicts[gate, default: []] += platform.rules.map(\.verdict) + comparisons.map(\.verdict)
          var reading = readings[gate] ?? GateReading(gate: gate, status: nil, sessions: 0, failing: [])
          reading.sessions += platform.sessions
          reading.failing += platform.rules.filter { $0.verdict == .fail }.map { slice + Self.words($0) }
          reading.failing += comparisons.filter { $0.verdict == .fail }.map { slice + Self.words($0) }
          readings[gate] = reading
        }
      }
    }
    return readings.keys.sorted().map { gate in
      var reading = readings[gate]!
      let judged = verdicts[gate] ?? []
      reading.status = judged.contains(.fail) ? .failing : judged.contains(.pass) ? .passing : nil
      return reading
    }
  }

  private static func words(_ rule: RuleResult) -> String {
    "\(rule.rule.rawValue) \(NumberText.percent(rule.rate)), budget \(NumberText.format(rule.budgetPercent))%"
  }

  private static func words(_ comparison: MetricComparison) -> String {
    let value = comparison.value.map(NumberText.oneDecimal) ?? "–"
    let reference = comparison.referenceValue.map(NumberText.oneDecimal) ?? "–"
    return "\(comparison.metric.rawValue) \(value) against \(reference) on \(comparison.reference), "
      + "tolerance \(NumberText.format(comparison.tolerance))"
  }
}
