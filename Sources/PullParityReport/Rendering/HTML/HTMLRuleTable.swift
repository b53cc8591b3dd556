internal import PullParityCore

/// The rules of a group's profile as an HTML table: per platform, the share of sessions that
/// broke each rule, its budget and the verdict.
struct HTMLRuleTable {
  var group: ParityGroup
  var profile: Profile

  func render() -> String {
    let platforms = group.orderedPlatforms
    var rows = [
      "<tr><th scope=\"col\">rule</th>"
        + platforms.map { "<th scope=\"col\">\(e($0.platform))</th>" }.joined()
        + "<th scope=\"col\">budget</th></tr>"
    ]
    for rule in ProfileRule.allCases where rule.applies(to: profile) {
      let results = platforms.map { $0.rule(rule) }
      let failing = results.contains { $0?.verdict == .fail }
      let few = !failing && results.contains { $0?.isTooFewWithBreaks == true }
      let rowClass = failing ? " class=\"failing\"" : few ? " class=\"few-broken\"" : ""
      var row = "<tr\(rowClass)><th scope=\"row\">\(e(rule.title))</th>"
      row += zip(results, platforms).map { cell($0, label: e($1.platform)) }.joined()
      let budget = group.budgetPercent(for: rule, profile: profile)
      rows.append(row + HTMLCell.td("\(NumberText.format(budget))%", label: "budget") + "</tr>")
    }
    return "<div class=\"table-wrap\"><table class=\"rules\">\n"
      + "<caption>Rules of \(e(profile.name)) v\(profile.version): "
      + "sessions that broke each rule, of those it applies to</caption>\n<thead>\(rows[0])</thead>\n<tbody>\n"
      + rows.dropFirst().joined(separator: "\n") + "\n</tbody>\n</table></div>"
  }

  private func cell(_ result: RuleResult?, label: String) -> String {
    guard let result else { return HTMLCell.td("–", label: label, cssClass: "na") }
    let figure = e(NumberText.percent(result.rate))
    // Whatever the verdict, the sessions that broke the rule: id prefixes, as the text
    // checklist prints them (`pullparity session` takes a prefix).
    let ids = result.examples.map { String($0.prefix(13)) }.joined(separator: ", ")
    let examples = ids.isEmpty ? "" : "<span class=\"sub\">e.g. \(e(ids))</span>"
    switch result.verdict {
    case .pass: return HTMLCell.td("✓ \(figure)\(examples)", label: label, cssClass: "ok")
    case .fail: return HTMLCell.td("✗ \(figure)\(examples)", label: label, cssClass: "fail")
    case .insufficientData:
      let note = result.tooFewNote.map { "too few: \(e($0)) (\(figure))" } ?? "too few: \(figure)"
      return HTMLCell.td(note + examples, label: label, cssClass: result.isTooFewWithBreaks ? "few-broken" : "na")
    case .noData, .noProfile: return HTMLCell.td("no data", label: label, cssClass: "na")
    }
  }

  private func e(_ text: String) -> String { HTMLEscaping.escape(text) }
}
