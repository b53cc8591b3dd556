/// The output formats of `report`.
package enum ReportFormat: String, CaseIterable, Sendable {
  case text
  case json
  case markdown
  case csv
  case html

  /// HTML charts per-session values and example timelines; the other formats need only the
  /// report, so the CLI reads sessions and events for HTML alone.
  package var needsSessionDetail: Bool { self == .html }

  package func render(_ input: ReportRenderInput) throws -> String {
    switch self {
    case .text: TextReportRenderer(style: input.style).render(input.report)
    case .json: try JSONRendering.render(input.report)
    case .markdown: MarkdownReportRenderer().render(input.report)
    case .csv: CSVReportRenderer().render(input.report)
    case .html: HTMLReportRenderer().render(input)
    }
  }
}
