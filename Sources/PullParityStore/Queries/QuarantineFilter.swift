internal import GRDB

/// Which quarantined lines to list: every condition that is set must hold.
package struct QuarantineFilter: Sendable {
  package var runID: Int64?
  /// `quarantine.category`: not_json, missing_field, …, conflict.
  package var category: String?
  /// `quarantine.source`, as the ingest recorded it.
  package var source: String?

  package init(runID: Int64? = nil, category: String? = nil, source: String? = nil) {
    self.runID = runID
    self.category = category
    self.source = source
  }

  var sql: (condition: String, arguments: StatementArguments) {
    var conditions = ["1"]
    var arguments = StatementArguments()
    if let runID {
      conditions.append("run_id = ?")
      arguments += [runID]
    }
    if let category {
      conditions.append("category = ?")
      arguments += [category]
    }
    if let source {
      conditions.append("source = ?")
      arguments += [source]
    }
    return (conditions.joined(separator: " AND "), arguments)
  }
}
