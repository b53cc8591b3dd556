/// The QA checklist, item by item per app and platform.
package struct QATextRenderer {
  package var style: TextStyle

  package init(style: TextStyle = .plain) {
    self.style = style
  }

  /// The verdict first, then the context, then every item with its evidence.
  package func render(_ report: QAReport) -> String {
    var out: [String] = [summary(report).wrapped(width: 80, indent: "  "), ""]
    for (label, value) in ReportHeader.lines(report.context) where label != "Tolerances" {
      out.append("\(label): \(TerminalText.escaped(value))".wrapped(width: 80, indent: "  "))
    }
    var current = ""
    for item in report.items {
      let heading = "\(TerminalText.escaped(item.app)) / \(TerminalText.escaped(item.platform))"
      if heading != current {
        out.append("")
        out.append(style.bold("QA checklist — \(heading)"))
        current = heading
      }
      let number = item.seedItem.map { "\($0)." } ?? "•"
      out.append("  \(badge(item.status)) \(number.padding(3)) \(item.title)")
      for line in TerminalText.escaped(item.evidence).wrapped(width: 71, indent: "").split(separator: "\n") {
        out.append("         " + style.dim(String(line)))
      }
      if !item.examples.isEmpty {
        // Short prefixes keep the line in 80 columns; `pullparity session` takes a prefix.
        out.append(
          "         e.g. " + item.examples.map { TerminalText.escaped(String($0.prefix(13))) }.joined(separator: ", "))
      }
    }
    return out.joined(separator: "\n") + "\n"
  }

  private func summary(_ report: QAReport) -> String {
    let count = { (status: Verdict) in report.items.count { $0.status == status } }
    let tally =
      "\(count(.pass)) pass, \(count(.fail)) fail, \(count(.insufficientData)) with too few sessions "
      + "(under \(report.context.policy.minSessions)), \(count(.noData)) with no data"
      + (count(.noProfile) > 0 ? ", \(count(.noProfile)) with no profile." : ".")
    switch report.outcome {
    case .passed: return style.good("Pass: ") + tally
    case .failed: return style.bad("FAIL: ") + tally
    case .insufficientData:
      let wanting = report.items.filter { report.context.policy.wantsData($0.status) }.map {
        TerminalText.escaped("\($0.app)/\($0.platform) \($0.check.rawValue)")
      }
      return style.bad("FAIL for want of data (--require-data): ") + tally + " Wanting data: "
        + wanting.joined(separator: ", ") + "."
    case .nothingJudged: return style.bad("No verdict: no item had enough sessions. ") + tally
    }
  }

  private func badge(_ status: Verdict) -> String {
    switch status {
    case .pass: style.good("PASS")
    case .fail: style.bad("FAIL")
    case .insufficientData: style.dim("FEW ")
    case .noData: style.dim("----")
    case .noProfile: style.dim("NOPF")
    }
  }
}

extension String {
  fileprivate func padding(_ width: Int) -> String {
    count >= width ? self : self + String(repeating: " ", count: width - count)
  }
}
