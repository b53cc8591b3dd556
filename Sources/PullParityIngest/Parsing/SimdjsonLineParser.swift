internal import CSimdjson
package import PullParityCore

/// The fast parser of the seam: simdjson's DOM parser behind the `CSimdjson` shim, one line at a
/// time (a malformed line never affects another).
///
/// Lines with at least `SimdjsonLineParser.requiredPadding` readable bytes past their end are
/// parsed in place; others are first copied into a padded buffer the parser owns.
///
/// A value is used from one thread at a time. Copies are independent: the first parse through a
/// copy that shares its simdjson handle gives that copy a handle of its own.
package struct SimdjsonLineParser: EventLineParser {
  private var handle: Handle

  /// What `ingest_runs.parser` records of a run's parser.
  package static let name = "simdjson"

  /// Bytes past the end of a line that let it be parsed without a copy.
  package static var requiredPadding: Int { pp_required_padding() }

  package init() {
    handle = Handle()
  }

  package mutating func extractFields(
    _ line: UnsafeRawBufferPointer, readableCount: Int
  ) -> Result<ExtractedFields, Rejection> {
    parse(line, readableCount: readableCount).map(\.extracted)
  }

  package mutating func decodeEvent(_ line: UnsafeRawBufferPointer, readableCount: Int) -> Result<Event, Rejection> {
    parse(line, readableCount: readableCount).flatMap { EventDecoder.decode($0) }
  }

  /// Parses a line; its fields are read from the parser's buffers, until the next parse.
  private mutating func parse(_ line: UnsafeRawBufferPointer, readableCount: Int) -> Result<SimdjsonFields, Rejection> {
    if !isKnownUniquelyReferenced(&handle) { handle = Handle() }
    let base = line.baseAddress?.assumingMemoryBound(to: CChar.self)
    let readable = max(readableCount, line.count)
    let result = pp_parse_line(handle.pointer, base, line.count, readable)!
    guard result.pointee.status == .PP_STATUS_BEYOND_LIMITS else { return Self.outcome(of: result, handle.strings) }
    // simdjson's limits must not cost an event for a field nobody reads: the line without them.
    guard let reduced = UnknownFieldReducer.reduce(line) else { return .failure(LineRejection.notJSON) }
    return reduced.withUnsafeBytes { bytes in
      let base = bytes.baseAddress?.assumingMemoryBound(to: CChar.self)
      return Self.outcome(of: pp_parse_line(handle.pointer, base, bytes.count, bytes.count)!, handle.strings)
    }
  }

  private static func outcome(
    of result: UnsafePointer<pp_result>, _ strings: RepeatedStrings
  ) -> Result<SimdjsonFields, Rejection> {
    switch result.pointee.status {
    case .PP_STATUS_OK:
      return .success(SimdjsonFields(result, strings: strings))
    case .PP_STATUS_NOT_AN_OBJECT:
      return .failure(LineRejection.notAnObject(Self.typeName(of: result.pointee.root_kind)))
    case .PP_STATUS_INVALID_UTF8:
      return .failure(LineRejection.invalidUTF8)
    case .PP_STATUS_NOT_JSON, .PP_STATUS_BEYOND_LIMITS:
      return .failure(LineRejection.notJSON)
    case .PP_STATUS_OUT_OF_MEMORY:
      return .failure(Rejection(.notJSON, "the line could not be parsed: out of memory"))
    case .PP_STATUS_TOO_LARGE:
      return .failure(Rejection(.notJSON, "the line is longer than the parser accepts (4 GiB)"))
    }
  }

  private static func typeName(of kind: pp_kind) -> String {
    switch kind {
    case .PP_KIND_NULL: JSONValue.null.typeName
    case .PP_KIND_BOOL: JSONValue.bool(false).typeName
    case .PP_KIND_NUMBER: JSONValue.number(0).typeName
    case .PP_KIND_STRING: JSONValue.string("").typeName
    case .PP_KIND_OBJECT: JSONValue.object.typeName
    case .PP_KIND_ARRAY: JSONValue.array.typeName
    case .PP_KIND_ABSENT: "nothing"
    }
  }

  /// Owns one simdjson handle (parser, buffers, result) and frees it, and the strings its
  /// lines repeat.
  private final class Handle {
    let pointer: OpaquePointer
    let strings = RepeatedStrings()

    init() {
      guard let pointer = pp_parser_create() else {
        fatalError("simdjson: could not allocate a parser")
      }
      self.pointer = pointer
    }

    deinit {
      pp_parser_destroy(pointer)
    }
  }
}
