internal import PullParityCore

/// A budget proposal for people: per profile, each rule's worst platform today and the budget
/// that would let today pass, then how to adopt them.
package struct BudgetProposalTextRenderer {
  package var style: TextStyle

  package init(style: TextStyle = .plain) {
    self.style = style
  }

  package func render(_ proposal: BudgetProposal) -> String {
    guard !proposal.lines.isEmpty else { return "No rule had a session to judge: nothing to propose.\n" }
    let e = TerminalText.escaped
    var table = TextTable(leftAligned: [1, 2])
    table.add(["profile", "rule", "worst platform", "observed", "95% CI high", "budget"])
    for line in proposal.lines {
      let high = line.worst.rate.wilson().map { NumberText.oneDecimal($0.high * 100) + "%" } ?? "–"
      let budget = line.proposedPercent.map { "\(NumberText.format($0))%" + (line.capped ? " (capped)" : "") }
      table.add([
        e(line.profile), line.rule.rawValue, e(line.worstPlatform), NumberText.percent(line.worst.rate), high,
        budget.map(style.good) ?? style.bad("too few"),
      ])
    }
    let flags = Set(proposal.lines.map(\.profile)).sorted().map { profile in
      let budgets = proposal.lines.filter { $0.profile == profile && ($0.proposedPercent ?? 0) > 0 }.map { line in
        "--budget \(line.rule.rawValue)=\(NumberText.format(line.proposedPercent ?? 0))"
      }
      return "  " + budgets.joined(separator: " ") + " (\(e(profile)))"
    }
    // What was not proposed, or capped, and why: a budget must be able to fail.
    let notes = proposal.lines.compactMap { line in
      line.note(minSessions: proposal.minSessions).map {
        "  \(e(line.profile)) \(line.rule.rawValue) (worst: \(e(line.worstPlatform))): \($0)"
      }
    }
    var out: [String] = []
    let title = style.bold("Budgets from what was observed")
    let how = " (the worst platform's 95% interval, rounded up; 0 where no session broke the rule; "
    let only = "only platforms with \(proposal.minSessions) sessions or more judged; "
    let cap = "never above \(NumberText.format(BudgetProposal.maxPercent))%)"
    out.append(title + how + only + cap)
    out.append(table.render(indent: "  "))
    if !notes.isEmpty {
      let why = " (a budget must be able to fail; a rule with too few sessions keeps its profile's budget):"
      out.append("")
      out.append(style.bold("Not proposed or capped") + why)
      out += notes
    }
    out += [
      "",
      "To freeze today and gate on regressions: `pullparity budgets --format json > budgets.json`, then",
      "`pullparity replay --profiles budgets.json` (it stores the profiles, each one version up), and",
      "each rule passes today and fails `report --check` once it gets worse (parity between platforms is",
      "still judged as before). Or pass them per check:",
    ]
    out += flags
    return out.joined(separator: "\n") + "\n"
  }
}
