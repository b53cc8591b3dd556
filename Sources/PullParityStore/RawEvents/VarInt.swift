/// LEB128 varints, signed ones zigzagged: the numbers of a block's lines (`RawBlockBuilder`).
enum VarInt {
  static func append(_ value: UInt64, to out: inout [UInt8]) {
    var value = value
    while value >= 0x80 {
      out.append(UInt8(truncatingIfNeeded: value) | 0x80)
      value >>= 7
    }
    out.append(UInt8(value))
  }

  /// `value − previous`, wrapping (keys use all 64 bits), zigzagged so small steps either way
  /// are one byte.
  static func appendDelta(_ value: Int64, from previous: Int64, to out: inout [UInt8]) {
    let delta = value &- previous
    append(UInt64(bitPattern: (delta << 1) ^ (delta >> 63)), to: &out)
  }

  /// Reads a varint at `offset`, which moves past it; nil when the bytes end inside it.
  static func read(_ bytes: UnsafeRawBufferPointer, _ offset: inout Int) -> UInt64? {
    var value: UInt64 = 0
    var shift: UInt64 = 0
    while offset < bytes.count, shift < 64 {
      let byte = bytes[offset]
      offset += 1
      value |= UInt64(byte & 0x7F) << shift
      if byte < 0x80 { return value }
      shift += 7
    }
    return nil
  }

  static func readDelta(_ bytes: UnsafeRawBufferPointer, _ offset: inout Int, from previous: Int64) -> Int64? {
    guard let zigzag = read(bytes, &offset) else { return nil }
    let delta = Int64(bitPattern: zigzag >> 1) ^ -Int64(bitPattern: zigzag & 1)
    return previous &+ delta
  }
}
