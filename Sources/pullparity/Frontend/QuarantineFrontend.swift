import PullParityIngest
import PullParityReport
import PullParityStore

/// Lists quarantined lines for `pullparity quarantine`, after checking that the filter names
/// a reason that exists.
struct QuarantineFrontend {
  var database: PullParityDatabase

  func render(_ filter: QuarantineFilter, limit: Int?, format: TextOrJSON) throws -> String {
    if let category = filter.category, RejectionReason(rawValue: category) == nil {
      let known = RejectionReason.allCases.map(\.rawValue).joined(separator: ", ")
      throw CommandError("--reason \"\(category)\" is not a reason; reasons: \(known)")
    }
    // Ingest records a source by its normalized path: `./logs/x` and `logs//x` name it too.
    var filter = filter
    filter.source = filter.source.map(InputCatalog.normalized)
    let queries = RunQueries(database)
    let lines = try queries.quarantined(filter, limit: limit)
    return try format.render(lines) { _ in
      QuarantineTextRenderer().render(lines, total: try queries.quarantinedCount(filter))
    }
  }
}
