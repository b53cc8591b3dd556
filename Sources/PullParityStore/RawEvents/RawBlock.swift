/// One block of stored lines, decompressed and indexed (`RawBlockBuilder` wrote it).
package struct RawBlock {
  static let magic: [UInt8] = Array("PPB1".utf8)

  package let id: Int64
  package private(set) var lines: [RawLine] = []
  private let bytes: [UInt8]
  private var idRanges: [Range<Int>] = []
  private var rawRanges: [Range<Int>] = []

  /// `data`: the block's compressed bytes; `rawBytes`: their size once decompressed.
  init(id: Int64, data: UnsafeRawBufferPointer, rawBytes: Int) throws {
    self.id = id
    bytes = try Zstd.decompress(data, size: rawBytes, block: id)
    guard try bytes.withUnsafeBytes({ try parse($0) }) else {
      throw StoreError(context: "reading raw event block \(id)", message: "its directory is damaged")
    }
  }

  /// Reads the directory; false when the bytes do not hold one.
  private mutating func parse(_ b: UnsafeRawBufferPointer) throws -> Bool {
    guard b.count >= 4, Array(b[0..<4]) == Self.magic else { return false }
    var at = 4
    guard let count = VarInt.read(b, &at), count <= RawBlockBuilder.maxLines else { return false }
    var previous = RawLine(sessionRef: 0, sourceID: 0, line: 0, byteOffset: 0, timestamp: 0, key: 0)
    var lengths: [(id: Int, raw: Int)] = []
    lines.reserveCapacity(Int(count))
    for _ in 0..<count {
      guard let ref = VarInt.readDelta(b, &at, from: previous.sessionRef),
        let source = VarInt.readDelta(b, &at, from: previous.sourceID),
        let line = VarInt.readDelta(b, &at, from: Int64(previous.line)),
        let offset = VarInt.readDelta(b, &at, from: Int64(previous.byteOffset)),
        let key = VarInt.readDelta(b, &at, from: previous.key),
        let idLength = VarInt.read(b, &at), let rawLength = VarInt.read(b, &at), at + 8 <= b.count
      else { return false }
      let bits = b.loadUnaligned(fromByteOffset: at, as: UInt64.self)
      at += 8
      let entry = RawLine(
        sessionRef: ref, sourceID: source, line: Int(line), byteOffset: Int(offset),
        timestamp: Double(bitPattern: UInt64(littleEndian: bits)), key: key)
      lines.append(entry)
      lengths.append((Int(idLength), Int(rawLength)))
      previous = entry
    }
    for length in lengths {
      idRanges.append(at..<(at + length.id))
      at += length.id
    }
    for length in lengths {
      rawRanges.append(at..<(at + length.raw))
      at += length.raw
    }
    return at == b.count
  }

  /// The event id and line at `slot`, valid during the call.
  package func withLine<T>(
    at slot: Int, _ body: (_ eventID: UnsafeRawBufferPointer, _ raw: UnsafeRawBufferPointer) throws -> T
  ) rethrows -> T {
    try bytes.withUnsafeBytes { b in
      try body(
        UnsafeRawBufferPointer(rebasing: b[idRanges[slot]]), UnsafeRawBufferPointer(rebasing: b[rawRanges[slot]]))
    }
  }
}
