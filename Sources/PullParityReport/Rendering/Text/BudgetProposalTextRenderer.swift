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
    var table = TextTable(leftAligned: [1, 2])
    table.add(["profile", "rule", "worst platform", "observed", "95% CI high", "budget"])
    for line in proposal.lines {
      let high = line.worst.rate.wilson().map { NumberText.oneDecimal($0.high * 100) + "%" } ?? "–"
      table.add([
        line.profile, line.rule.rawValue, line.worstPlatform, NumberText.percent(line.worst.rate), high,
        "\(NumberText.format(line.proposedPercent))%",
      ])
    }
    let flags = Set(proposal.lines.map(\.profile)).sorted().map { profile in
      let budgets = proposal.lines.filter { $0.profile == profile && $0.proposedPercent > 0 }.map { line in
        "--budget \(line.rule.rawValue)=\(NumberText.format(line.proposedPercent))"
      }
      return "  " + budgets.joined(separator: " ") + " (\(profile))"
    }
    return [
      style.bold("Budgets from what was observed") + " (the worst platform's 95% interval, rounded up; "
        + "0 where no session broke the rule)",
      table.render(indent: "  "), "",
      "To freeze today and gate on regressions: `pullparity budgets --format json > budgets.json`, then",
      "`pullparity replay --profiles budgets.json` (it stores the profiles, each one version up), and",
      "each rule passes today and fails `report --check` once it gets worse (parity between platforms is",
      "still judged as before). Or pass them per check:",
    ].joined(separator: "\n") + "\n" + flags.joined(separator: "\n") + "\n"
  }
}
