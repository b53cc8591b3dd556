import PullParityReport
import PullParityStore

/// Lists the `ingest_runs` ledger for `pullparity runs`.
struct RunsFrontend {
  var database: PullParityDatabase

  func render(limit: Int?, format: TextOrJSON) throws -> String {
    let runs = try RunQueries(database).runs(limit: limit)
    return try format.render(runs) { _ in IngestRunTextRenderer().render(runs) }
  }
}
