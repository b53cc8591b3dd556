internal import CSimdjson

/// The known fields of the line simdjson parsed last, read in place from its result. A string
/// becomes a `String` only when `EventDecoder` asks for it, and the thirty slots are never
/// copied into an `ExtractedFields` (building and dropping that value for every line was a
/// measured share of the reading thread). Valid until the parser reads its next line.
struct SimdjsonFields: EventFieldSource {
  private let slots: UnsafePointer<pp_slot>
  private let arena: UnsafeRawPointer?
  private let strings: RepeatedStrings

  private static let slotsOffset = MemoryLayout<pp_result>.offset(of: \pp_result.slots)!

  init(_ result: UnsafePointer<pp_result>, strings: RepeatedStrings) {
    self.strings = strings
    slots = UnsafeRawPointer(result).advanced(by: Self.slotsOffset).assumingMemoryBound(to: pp_slot.self)
    arena = UnsafeRawPointer(result.pointee.arena)
  }

  subscript(field: EventField) -> JSONValue? {
    let slot = slots[field.rawValue]
    switch slot.kind {
    case .PP_KIND_ABSENT: return nil
    case .PP_KIND_NULL: return .null
    case .PP_KIND_BOOL: return .bool(slot.boolean)
    case .PP_KIND_NUMBER: return .number(slot.number)
    case .PP_KIND_STRING:
      // simdjson validated the line as UTF-8 and unescaped into its arena: no check needed.
      let bytes = UnsafeRawBufferPointer(start: arena.map { $0 + slot.string_offset }, count: slot.string_length)
      // Event ids are new in every line: nothing to share.
      return .string(field == .eventID ? String(decoding: bytes, as: UTF8.self) : strings.string(bytes))
    case .PP_KIND_OBJECT: return .object
    case .PP_KIND_ARRAY: return .array
    }
  }

  /// Every field copied out, for callers that keep them past the next line.
  var extracted: ExtractedFields {
    var fields = ExtractedFields()
    for field in EventField.allCases {
      if let value = self[field] { fields[field] = value }
    }
    return fields
  }
}
