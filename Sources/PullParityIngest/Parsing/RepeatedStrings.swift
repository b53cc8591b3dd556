internal import Foundation

/// Strings of the values that lines repeat (a session's id is in every line of the session,
/// label texts and device names recur), each made once and then shared while it keeps coming
/// up. Making a new `String` of a long value costs an allocation, a UTF-8 check and a copy, and
/// a free when the event goes: those made 14 % of the reading thread in `perf`, most of it for
/// the two 36-byte ids of every line.
///
/// A direct-mapped table of the strings made last, one per slot of their bytes' hash: a value
/// that keeps coming back stays, one seen once is replaced in time. Values of up to 15 bytes
/// are made afresh: Swift keeps them inside the `String`, with nothing to allocate.
final class RepeatedStrings {
  private static let slotBits = 10
  private var slots = [String?](repeating: nil, count: 1 << RepeatedStrings.slotBits)

  /// A `String` of `bytes`, which must be valid UTF-8 (simdjson checked the line).
  func string(_ bytes: UnsafeRawBufferPointer) -> String {
    guard bytes.count > 15 else { return String(decoding: bytes, as: UTF8.self) }
    let slot = Self.slot(of: bytes)
    if let kept = slots[slot], Self.same(kept, bytes) { return kept }
    let made = String(decoding: bytes, as: UTF8.self)
    slots[slot] = made
    return made
  }

  /// Whether `text` is exactly `bytes`: its UTF-8, read in place (a made string is contiguous).
  private static func same(_ text: String, _ bytes: UnsafeRawBufferPointer) -> Bool {
    let same = text.utf8.withContiguousStorageIfAvailable { utf8 in
      utf8.count == bytes.count && memcmp(utf8.baseAddress!, bytes.baseAddress!, bytes.count) == 0
    }
    return same == true
  }

  /// The slot of a value of at least 8 bytes: its first and last 8 bytes and its length, mixed.
  private static func slot(of bytes: UnsafeRawBufferPointer) -> Int {
    let first = bytes.loadUnaligned(as: UInt64.self)
    let last = bytes.loadUnaligned(fromByteOffset: bytes.count - 8, as: UInt64.self)
    let mixed = (first ^ (last &* 0x9E37_79B9_7F4A_7C15) ^ UInt64(bytes.count)) &* 0xBF58_476D_1CE4_E5B9
    return Int(truncatingIfNeeded: mixed >> (64 - UInt64(slotBits)))
  }
}
