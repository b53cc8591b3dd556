/// The output formats of `report`.
public enum ReportFormat: String, CaseIterable, Sendable {
  case text
  case json

  /// Renders `report`; `style` colours text output only.
  public func render(_ report: ParityReport, style: TextStyle) throws -> String {
    switch self {
    case .text: TextReportRenderer(style: style).render(report)
    case .json: try JSONRendering.render(report)
    }
  }
}
