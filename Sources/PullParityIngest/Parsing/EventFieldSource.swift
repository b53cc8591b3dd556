/// Where `EventDecoder` reads a line's known fields from: an `ExtractedFields` a parser filled,
/// or a parser's own result read in place (`SimdjsonFields`), which spares copying every field
/// into a value and making strings of fields the event does not keep.
package protocol EventFieldSource {
  /// The field's value as the parser found it; nil when the key did not occur.
  subscript(field: EventField) -> JSONValue? { get }
}
