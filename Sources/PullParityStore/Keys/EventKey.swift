/// The integer an event is found by (`event_keys.id_hash`, unique; the column kept its first
/// name): where the duplicate check of every insert descends, so where in the index new keys
/// land decides what a day's ingest costs once the history is large.
///
/// A UUIDv7 (what the recorders write) starts with its Unix milliseconds: its key is those 48
/// bits followed by 16 bits of the id's hash, so keys grow with time, a day's inserts touch
/// only the newest pages of the index and the cost of a day does not grow with the history.
/// Any other id's key is computed from its 64-bit FNV-1a hash, `of` returns, in the open key
/// epoch (`KeyEpochs`). A key is where a search starts: when the key is taken by another id,
/// the next free value is used (see `IngestTransaction.store`). Session ids are keyed the same
/// way (`sessions.session_key`), where a shared key needs no probing: the unique index is on
/// the key and the id together.
package enum EventKey {
  /// The key to look for `eventID` at first.
  package static func of(_ eventID: UnsafeRawBufferPointer) -> Int64 { idKey(of: eventID).value }

  /// The key and how it was made, from one reading of the id.
  package static func idKey(of eventID: UnsafeRawBufferPointer) -> IDKey {
    let hash = StableHash.fnv1a64(eventID)
    guard let millis = uuidV7Milliseconds(eventID) else { return IDKey(value: hash, isTimeOrdered: false) }
    return IDKey(value: Int64(bitPattern: millis << 16 | UInt64(UInt16(truncatingIfNeeded: hash))), isTimeOrdered: true)
  }

  package static func idKey(of eventID: String) -> IDKey {
    var eventID = eventID
    return eventID.withUTF8 { idKey(of: UnsafeRawBufferPointer($0)) }
  }

  package static func of(_ eventID: String) -> Int64 {
    var eventID = eventID
    return eventID.withUTF8 { of(UnsafeRawBufferPointer($0)) }
  }

  /// Whether `eventID` is keyed by its time (a UUIDv7): else by `KeyEpochs`.
  package static func isTimeOrdered(_ eventID: UnsafeRawBufferPointer) -> Bool {
    uuidV7Milliseconds(eventID) != nil
  }

  package static func isTimeOrdered(_ eventID: String) -> Bool {
    var eventID = eventID
    return eventID.withUTF8 { isTimeOrdered(UnsafeRawBufferPointer($0)) }
  }

  /// The timestamp of a UUIDv7 in its canonical text form (8-4-4-4-12, version digit 7, the
  /// timestamp's 12 digits hex in either case), or nil for any other id. Only what the key
  /// uses is checked: the other digits do not change where the id is looked up. Every event's
  /// id passes here: the digits are read through a table, without a branch per digit.
  static func uuidV7Milliseconds(_ id: UnsafeRawBufferPointer) -> UInt64? {
    guard id.count == 36, id[8] == dash, id[13] == dash, id[18] == dash, id[23] == dash, id[14] == UInt8(ascii: "7")
    else { return nil }
    return hexValues.withUnsafeBufferPointer { table in
      var millis: UInt64 = 0
      var notHex: UInt8 = 0
      for index in 0..<13 where index != 8 {
        let value = table[Int(id[index])]
        notHex |= value
        millis = millis << 4 | UInt64(value & 0x0F)
      }
      return notHex & 0x10 == 0 ? millis : nil
    }
  }

  private static let dash = UInt8(ascii: "-")

  /// Each byte's value as a hex digit, or 0x10 for a byte that is not one.
  private static let hexValues: [UInt8] = (0...255).map { byte in
    switch UInt8(byte) {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt8(byte) - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt8(byte) - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt8(byte) - UInt8(ascii: "A") + 10
    default: 0x10
    }
  }
}
