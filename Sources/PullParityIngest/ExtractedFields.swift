/// The known fields of one JSON object, as a parser found them, before any contract rule.
///
/// This is the parsing seam's output: a parser only has to turn bytes into these values, and
/// `EventDecoder` applies every rule of the contract the same way whichever parser ran.
/// A repeated key keeps its last value.
public struct ExtractedFields: Equatable, Sendable {
  private var values: [JSONValue?]

  public init() {
    values = Array(repeating: nil, count: EventField.allCases.count)
  }

  public subscript(field: EventField) -> JSONValue? {
    get { values[field.rawValue] }
    set { values[field.rawValue] = newValue }
  }
}
