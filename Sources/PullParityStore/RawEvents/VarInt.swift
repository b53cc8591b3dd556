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

  /// An event time: its microseconds as a tagged difference from the line before when it is
  /// a whole number of them (ingest's times are whole milliseconds, most lines' a few apart),
  /// else its 8 bytes.
  static func appendTime(_ value: Double, from previous: Double, to out: inout [UInt8]) {
    if let micros = wholeMicros(value), let before = wholeMicros(previous) {
      let delta = micros &- before
      if delta.magnitude < 1 << 60 {
        append(UInt64(bitPattern: (delta << 1) ^ (delta >> 63)) << 1, to: &out)
        return
      }
    }
    append(1, to: &out)
    withUnsafeBytes(of: value.bitPattern.littleEndian) { out.append(contentsOf: $0) }
  }

  static func readTime(_ bytes: UnsafeRawBufferPointer, _ offset: inout Int, from previous: Double) -> Double? {
    guard let tagged = read(bytes, &offset) else { return nil }
    guard tagged & 1 == 0 else {
      guard offset + 8 <= bytes.count else { return nil }
      defer { offset += 8 }
      return Double(bitPattern: UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)))
    }
    guard let before = wholeMicros(previous) else { return nil }
    let zigzag = tagged >> 1
    let delta = Int64(bitPattern: zigzag >> 1) ^ -Int64(bitPattern: zigzag & 1)
    return Double(before &+ delta) / 1000
  }

  /// `ms` in whole microseconds, when it is exactly one (and round-trips).
  private static func wholeMicros(_ ms: Double) -> Int64? {
    let micros = (ms * 1000).rounded()
    guard micros.magnitude < 9e15, micros / 1000 == ms else { return nil }
    return Int64(micros)
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
