/// 64-bit FNV-1a: a stable (across runs and machines) integer key for ids, so the hot path
/// probes and sorts integers instead of text. Collisions are expected and handled: every
/// match is confirmed on the full id.
public enum StableHash {
  public static func fnv1a64(_ bytes: UnsafeRawBufferPointer) -> Int64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in bytes {
      hash ^= UInt64(byte)
      hash &*= 0x0000_0100_0000_01b3
    }
    return Int64(bitPattern: hash)
  }

  public static func fnv1a64(_ text: String) -> Int64 {
    var text = text
    return text.withUTF8 { fnv1a64(UnsafeRawBufferPointer($0)) }
  }
}
