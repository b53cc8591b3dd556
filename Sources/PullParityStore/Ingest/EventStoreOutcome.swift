/// What storing one event did (docs/events.md §9, duplicates and conflicts).
package enum EventStoreOutcome: Equatable, Sendable {
  case stored
  /// The same `event_id` with a byte-identical line was already stored: skipped.
  case duplicate
  /// The same `event_id` with other content was already stored: the stored one stays.
  case conflict
}
