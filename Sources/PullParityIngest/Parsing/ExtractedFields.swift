/// The known fields of one JSON object, as a parser found them, before any contract rule.
///
/// This is the parsing seam's output: a parser only has to turn bytes into these values, and
/// `EventDecoder` applies every rule of the contract the same way whichever parser ran.
/// A repeated key keeps its last value.
package struct ExtractedFields: EventFieldSource, Equatable, Sendable {
  /// One slot per `EventField`, stored inline: a line's fields cost no heap allocation.
  private var values: [32 of JSONValue?]

  package init() {
    values = .init(repeating: nil)
  }

  package subscript(field: EventField) -> JSONValue? {
    get { values[field.rawValue] }
    set { values[field.rawValue] = newValue }
  }

  package static func == (lhs: ExtractedFields, rhs: ExtractedFields) -> Bool {
    EventField.allCases.allSatisfy { lhs[$0] == rhs[$0] }
  }
}
