/// 64-bit FNV-1a: a stable (across runs and machines) integer key for ids, so the hot path
/// probes and sorts integers instead of text. Collisions are expected and handled: every
/// match is confirmed on the full id.
package enum StableHash {
  package static let fnvOffsetBasis = Int64(bitPattern: 0xcbf2_9ce4_8422_2325)

  /// FNV-1a of `bytes`, continuing from `seed` (chain calls to hash several buffers as one).
  package static func fnv1a64(_ bytes: UnsafeRawBufferPointer, seed: Int64 = fnvOffsetBasis) -> Int64 {
    var hash = UInt64(bitPattern: seed)
    for byte in bytes {
      hash ^= UInt64(byte)
      hash &*= 0x0000_0100_0000_01b3
    }
    return Int64(bitPattern: hash)
  }

  package static func fnv1a64(_ text: String) -> Int64 {
    var text = text
    return text.withUTF8 { fnv1a64(UnsafeRawBufferPointer($0)) }
  }
}
