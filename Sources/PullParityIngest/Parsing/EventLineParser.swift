package import PullParityCore

/// The parsing seam: JSON syntax in, the contract's fields out.
///
/// Implementations differ only in speed. They must agree on every line, malformed ones included
/// (a test holds them to it); all contract rules live in `EventDecoder`, behind this seam.
package protocol EventLineParser {
  /// Extracts the known fields of the JSON object on `line` (no line end).
  ///
  /// `line` may be read up to `readableCount` bytes from its start; parsers that need padding
  /// past the end of the line (simdjson) use it instead of copying. Returns a rejection of
  /// reason `notJSON`, `notAnObject` or `invalidUTF8` for a line that is not a JSON object.
  mutating func extractFields(
    _ line: UnsafeRawBufferPointer, readableCount: Int
  ) -> Result<ExtractedFields, Rejection>

  /// The line's event, or why it is not one: `EventDecoder` on the line's fields. A parser may
  /// hand `EventDecoder` its own result in place of an `ExtractedFields` (the same rules, fewer
  /// copies).
  mutating func decodeEvent(_ line: UnsafeRawBufferPointer, readableCount: Int) -> Result<Event, Rejection>
}

extension EventLineParser {
  package mutating func decodeEvent(_ line: UnsafeRawBufferPointer, readableCount: Int) -> Result<Event, Rejection> {
    extractFields(line, readableCount: readableCount).flatMap { EventDecoder.decode($0) }
  }
}
