/// The categories of a quarantined line (docs/events.md §7, §9). Raw values are stored in
/// `quarantine.category`.
package enum RejectionReason: String, CaseIterable, Sendable {
  case invalidUTF8 = "invalid_utf8"
  case notJSON = "not_json"
  case notAnObject = "not_an_object"
  case missingField = "missing_field"
  case wrongType = "wrong_type"
  case invalidValue = "invalid_value"
  case unknownType = "unknown_type"
  case badTimestamp = "bad_timestamp"
  /// Longer than the ingest's line limit: skipped unread, only its first bytes kept as `raw`.
  case tooLong = "too_long"
  /// The same `event_id` as a stored event, with other content. Counted apart from the others.
  case conflict
}
