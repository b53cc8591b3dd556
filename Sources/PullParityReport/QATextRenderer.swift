/// The QA checklist, item by item per app and platform.
public struct QATextRenderer {
  public var style: TextStyle

  public init(style: TextStyle = .plain) {
    self.style = style
  }

  public func render(_ report: QAReport) -> String {
    var out: [String] = []
    var current = ""
    for item in report.items {
      let heading = "\(item.app) / \(item.platform)"
      if heading != current {
        if !current.isEmpty { out.append("") }
        out.append(style.bold("QA checklist — \(heading)"))
        current = heading
      }
      let number = item.seedItem.map { "\($0)." } ?? "•"
      out.append("  \(badge(item.status)) \(number.padding(3)) \(item.title)")
      for line in item.evidence.wrapped(width: 71, indent: "").split(separator: "\n") {
        out.append("         " + style.dim(String(line)))
      }
      if !item.examples.isEmpty {
        // Short prefixes keep the line in 80 columns; `pullparity session` takes a prefix.
        out.append("         e.g. " + item.examples.map { String($0.prefix(13)) }.joined(separator: ", "))
      }
    }
    if report.items.isEmpty { out.append("No sessions match. Run `pullparity ingest` first, or loosen the filters.") }
    let failed = report.items.filter { $0.status == .fail }
    out.append("")
    out.append(
      failed.isEmpty
        ? style.good("All \(report.items.count) checks pass.")
        : style.bad("\(failed.count) of \(report.items.count) checks fail."))
    return out.joined(separator: "\n") + "\n"
  }

  private func badge(_ status: QAStatus) -> String {
    switch status {
    case .pass: style.good("PASS")
    case .fail: style.bad("FAIL")
    case .noData: style.dim("----")
    }
  }
}

extension String {
  fileprivate func padding(_ width: Int) -> String {
    count >= width ? self : self + String(repeating: " ", count: width - count)
  }
}
