package import PullParityCore

/// Profiles with every number, one block each.
package struct ProfileTextRenderer {
  package init() {}

  package func render(_ profiles: [Profile]) -> String {
    profiles.map(block).joined(separator: "\n")
  }

  private func block(_ p: Profile) -> String {
    var table = TextTable()
    table.add([
      "arm threshold",
      p.armThreshold.map { "\(NumberText.format($0)) on distance × resistance" } ?? "none (trusts the client's armed)",
    ])
    table.add(["distance unit", p.unit.rawValue])
    table.add(["resistance", p.resistance.description])
    table.add(["minimum visible", "\(NumberText.format(p.minHoldMs)) ms"])
    table.add(["hide slack", "\(NumberText.format(p.hideSlackMs)) ms"])
    if let i = p.indicator {
      let parts = [
        i.kind?.rawValue, i.count.map { "count \($0)" }, i.staggerMs.map { "stagger \(NumberText.format($0)) ms" },
        i.cycleMs.map { "cycle \(NumberText.format($0)) ms" },
      ].compactMap { $0 }
      table.add(["indicator", parts.joined(separator: ", ")])
    } else {
      table.add(["indicator", "not checked"])
    }
    if let labels = p.labels {
      for state in LabelState.allCases { table.add(["label \(state.rawValue)", labels.text(for: state)]) }
    } else {
      table.add(["labels", "none"])
    }
    if let reveal = p.reveal {
      table.add([
        "waveform reveal",
        "\(reveal.bars) bars, bar i from progress \(NumberText.format(reveal.progressStep))·i, full pull at \(NumberText.format(reveal.fullPullDistance))",
      ])
    }
    if !p.cacheInvalidationScreens.isEmpty {
      table.add(["cache invalidated first", p.cacheInvalidationScreens.joined(separator: ", ")])
    }
    table.add(["on error", "content kept" + (p.errorMustBeShown ? ", error shown" : "")])
    if let reference = p.referencePlatform { table.add(["reference platform", reference]) }
    table.add(["stuck after", "\(NumberText.format(p.stuckAfterMs)) ms after refresh_start"])
    table.add([
      "armed release refreshes",
      p.refreshOnThreshold
        ? "on reaching the threshold, before the release"
        : "within \(NumberText.format(p.refreshWithinMs)) ms of the release",
    ])
    table.add(["repeat within", "\(NumberText.format(p.repeatWithinMs)) ms of the last refresh's end"])
    addScreensAndBudgets(of: p, to: &table)
    // Names and labels come from a profile file: the table escapes its cells, the name here.
    return "\(TerminalText.escaped(p.name)) (version \(p.version))\n" + table.render(indent: "  ") + "\n"
  }

  /// A logical screen per row with its name on each platform, then each rule's budget.
  private func addScreensAndBudgets(of p: Profile, to table: inout TextTable) {
    for (screen, names) in p.screens.sorted(by: { $0.key < $1.key }) {
      let perPlatform = names.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
      table.add(["screen \(screen)", perPlatform.joined(separator: ", ")])
    }
    if p.budgets.isEmpty { table.add(["budgets", "none: one violation fails a rule"]) }
    for (rule, budget) in p.budgets.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
      table.add(["budget \(rule.rawValue)", "\(NumberText.format(budget)) % of judged sessions"])
    }
  }
}
