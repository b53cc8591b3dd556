/// One block of stored lines, decompressed and indexed (`RawBlockBuilder` wrote it).
package struct RawBlock {
  static let magic: [UInt8] = Array("PPB1".utf8)

  package let id: Int64
  package private(set) var lines: [RawLine] = []
  private let bytes: [UInt8]
  private var idRanges: [Range<Int>] = []
  private var rawRanges: [Range<Int>] = []

  /// `data`: the block's compressed bytes; `rawBytes`: their size once decompressed;
  /// `checksum`: XXH3-64 of `data` (nil: written before schema version 14, read unchecked).
  /// Throws `BlockDamage` when the bytes are not what was written.
  /// `warnUnchecked`: false for `pullparity verify`, which counts such blocks instead.
  init(id: Int64, data: UnsafeRawBufferPointer, rawBytes: Int, checksum: Int64?, warnUnchecked: Bool = true) throws {
    self.id = id
    let name = BlockName(.events, id)
    try BlockChecksum.check(data, stored: checksum, block: name, warn: warnUnchecked)
    bytes = try Zstd.decompress(data, size: rawBytes, block: name)
    guard try bytes.withUnsafeBytes({ try parse($0) }) else {
      throw BlockDamage(block: name, problem: "its directory of lines does not hold")
    }
  }

  /// Reads the directory; false when the bytes do not hold one.
  private mutating func parse(_ b: UnsafeRawBufferPointer) throws -> Bool {
    guard b.count >= 4, Array(b[0..<4]) == Self.magic else { return false }
    var at = 4
    guard let count = VarInt.read(b, &at), count <= RawBlockBuilder.maxLines else { return false }
    var previous = RawLine.zero
    var places: [(field: UInt64, idLength: Int, rawLength: Int)] = []
    lines.reserveCapacity(Int(count))
    for _ in 0..<count {
      guard let ref = VarInt.readDelta(b, &at, from: previous.sessionRef),
        let source = VarInt.readDelta(b, &at, from: previous.sourceID),
        let line = VarInt.readDelta(b, &at, from: Int64(previous.line)),
        let offset = VarInt.readDelta(b, &at, from: Int64(previous.byteOffset)),
        let time = VarInt.readTime(b, &at, from: previous.timestamp),
        let field = VarInt.read(b, &at), let idLength = VarInt.read(b, &at), let rawLength = VarInt.read(b, &at)
      else { return false }
      let entry = RawLine(sessionRef: ref, sourceID: source, line: Int(line), byteOffset: Int(offset), timestamp: time)
      lines.append(entry)
      places.append((field, Int(idLength), Int(rawLength)))
      previous = entry
    }
    var apart = at
    let idsLength = places.lazy.filter { $0.field & 1 == 1 }.map(\.idLength).reduce(0, +)
    var lineStart = at + idsLength
    for place in places {
      guard lineStart + place.rawLength <= b.count else { return false }
      rawRanges.append(lineStart..<(lineStart + place.rawLength))
      if place.field & 1 == 1 {
        idRanges.append(apart..<(apart + place.idLength))
        apart += place.idLength
      } else {
        let start = lineStart + Int(place.field >> 1)
        guard start + place.idLength <= lineStart + place.rawLength else { return false }
        idRanges.append(start..<(start + place.idLength))
      }
      lineStart += place.rawLength
    }
    return lineStart == b.count
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
