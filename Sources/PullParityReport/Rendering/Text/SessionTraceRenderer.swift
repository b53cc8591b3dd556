package import PullParityCore

/// A session's events in order with the state after each and every finding: why it failed.
/// Everything that came from the log (ids, names, labels, reasons, error messages) goes
/// through `TerminalText.escaped`.
package struct SessionTraceRenderer {
  package var style: TextStyle

  package init(style: TextStyle = .plain) {
    self.style = style
  }

  package func render(_ session: DerivedSession, steps: [SessionStep], qa: [SessionQA.Failure] = []) -> String {
    var out: [String] = []
    let m = session.metrics
    let e = TerminalText.escaped
    out.append(style.bold("Session \(e(session.sessionID))"))
    out.append(
      "\(e(session.app)) on \(e(session.platform)) · profile \(e(session.profileName)) v\(session.profileVersion)"
        + (session.appVersion.map { " · app \(e($0))" } ?? "") + (session.screen.map { " · screen \(e($0))" } ?? "")
        + (session.empty ? " · empty state" : ""))
    out.append("")
    var table = TextTable(leftAligned: [1, 2, 3])
    // The state before the detail: details (label copy) are long, states are short.
    table.add(["+ms", "event", "state after", "detail"])
    let start = session.startedAt
    var findingLines: [String] = []
    for step in steps {
      let event = step.recorded.event
      table.add([
        NumberText.oneDecimal(event.timestamp - start), event.type.rawValue,
        step.stateAfter.phase.rawValue
          + (step.findings.isEmpty
            ? "" : " " + style.bad("!" + step.findings.map(\.kind.rawValue).joined(separator: ","))),
        TerminalText.escaped(Self.detail(event.payload)),
      ])
      for finding in step.findings { findingLines.append(describe(finding, start: start)) }
    }
    out.append(table.render())
    out.append("")
    out.append(contentsOf: Self.packed(metrics(m, pending: Set(session.pending.map(\.kind)))))
    let endFindings = session.violations.dropFirst(steps.reduce(0) { $0 + $1.findings.count })
    for finding in endFindings { findingLines.append(describe(finding, start: start)) }
    out.append("")
    // v1.2: a judgement waiting for the data is said, never shown as "no findings".
    if findingLines.isEmpty && session.pending.isEmpty {
      out.append(style.good("No findings."))
    } else if findingLines.isEmpty {
      out.append(style.bold("No findings yet: \(session.pending.count) pending"))
    } else {
      out.append(style.bold("Findings"))
      out.append(contentsOf: findingLines)
    }
    if !session.pending.isEmpty {
      out.append("")
      out.append(style.bold("Pending (judged when the data reaches the time)"))
      for wait in session.pending { out.append(Self.pendingLine(wait, start: start)) }
    }
    if !qa.isEmpty {
      out.append("")
      out.append(style.bold("QA checklist items this session fails"))
      for failure in qa {
        let number = failure.check.seedItem.map { "\($0). " } ?? ""
        out.append(
          "  " + style.bad("FAIL") + " \(number)\(failure.check.title): \(TerminalText.escaped(failure.evidence))")
      }
    }
    return out.joined(separator: "\n") + "\n"
  }

  private func describe(_ v: Violation, start: Double) -> String {
    "  " + style.bad(v.kind.rawValue)
      + " at +\(NumberText.oneDecimal(v.at - start)) ms: expected \(TerminalText.escaped(v.expected)); got \(TerminalText.escaped(v.actual))"
  }

  /// `  stuck_refresh pending until the data reaches 2026-…Z (+30000.0 ms)`.
  static func pendingLine(_ wait: PendingJudgement, start: Double) -> String {
    "  \(wait.kind.rawValue) pending until the data reaches \(ReportContext.rfc3339(wait.decidedAt)) "
      + "(+\(NumberText.oneDecimal(wait.decidedAt - start)) ms)"
  }

  private func flag(_ value: Bool?) -> String { value.map { $0 ? "yes" : "no" } ?? "–" }

  private func flag(_ value: Bool?, pending: Bool) -> String { pending ? "pending" : flag(value) }

  private func metrics(_ m: SessionMetrics, pending: Set<ViolationKind>) -> [String] {
    [
      "outcome \(m.outcome.rawValue)", "trigger \(m.trigger?.rawValue ?? "–")",
      "time to arm \(NumberText.oneDecimalOrDash(m.timeToArmMs)) ms",
      "arm distance \(NumberText.oneDecimalOrDash(m.armDistance))",
      "client arm \(NumberText.oneDecimalOrDash(m.clientArmDistance))",
      "load \(NumberText.oneDecimalOrDash(m.loadMs)) ms",
      "visible \(NumberText.oneDecimalOrDash(m.visibleMs)) ms", "flash \(flag(m.flash))",
      "premature \(flag(m.prematureHide))",
      "late \(flag(m.lateHide))", "hold compliant \(flag(m.holdCompliant))",
      "label violations \(m.labelViolations.map(String.init) ?? "–")",
      "stuck \(flag(m.stuckRefresh, pending: pending.contains(.stuckRefresh)))",
      "dropped \(flag(m.droppedRefresh, pending: pending.contains(.droppedRefresh)))",
      "repeated \(flag(m.repeatedRefresh))",
    ]
  }

  /// `items` joined by " · ", a new line begun before an item that would pass 80 columns: the
  /// text output's width, without breaking an item.
  static func packed(_ items: [String], width: Int = 80) -> [String] {
    var lines: [String] = []
    for item in items {
      if let last = lines.last, last.count + 3 + item.count <= width {
        lines[lines.count - 1] = last + " · " + item
      } else {
        lines.append(item)
      }
    }
    return lines
  }

  static func detail(_ payload: EventPayload) -> String {
    switch payload {
    case .pullMove(let distance, let offset):
      "distance \(NumberText.oneDecimalOrDash(distance))"
        + (offset.map { " offset \(NumberText.oneDecimalOrDash($0))" } ?? "")
    case .armed(let d), .disarmed(let d), .release(let d): "distance \(NumberText.oneDecimalOrDash(d))"
    case .cancel(let reason): reason ?? ""
    case .label(let text, let state): "\(state.rawValue): \(text)"
    case .refreshStart(let trigger, let observed): trigger.rawValue + (observed ? "" : " (gesture not observed)")
    case .indicatorShown(let config):
      config.map { c in
        [
          c.kind?.rawValue, c.count.map { "×\($0)" }, c.staggerMs.map { "stagger \(NumberText.oneDecimalOrDash($0))" },
          c.cycleMs.map { "cycle \(NumberText.oneDecimalOrDash($0))" },
        ].compactMap { $0 }.joined(separator: " ")
      } ?? ""
    case .reveal(let progress, let visible): "progress \(NumberText.format(progress)) bars \(visible)"
    case .cacheInvalidated(let key): key
    case .loadComplete(let ok, let error): ok ? "ok" : "failed" + (error.map { " (\($0))" } ?? "")
    case .errorShown(let message): message ?? ""
    default: ""
    }
  }
}
