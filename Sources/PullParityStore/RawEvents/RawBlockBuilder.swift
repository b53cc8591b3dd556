/// The lines of the block being filled, and their encoding (`RawBlock` reads it back).
///
/// Layout before compression: `PPB1`, the line count, then per line its `RawLine` fields
/// (varints, each number as the difference from the line before, so a session's run of lines
/// costs a byte or two a field) with the lengths of its event id and line and its time
/// (8 bytes); then every event id; then every line. Ids and lines are apart from the numbers
/// so that zstd finds the lines' common text line after line.
package struct RawBlockBuilder {
  /// A block is written once its lines reach this many bytes: a session's events are then a
  /// few blocks, and reading one event costs one 64 KiB decompression (about 20 µs).
  static let targetBytes = 65_536
  /// The slot of a line is its index: kept small so that `event_keys.slot` is one or two bytes.
  static let maxLines = 4_096

  package private(set) var lines: [RawLine] = []
  private var ids: [UInt8] = []
  private var raw: [UInt8] = []
  private var idEnds: [Int] = []
  private var rawEnds: [Int] = []

  package init() {}

  var count: Int { lines.count }
  var isEmpty: Bool { lines.isEmpty }
  var isFull: Bool { raw.count >= Self.targetBytes || lines.count >= Self.maxLines }

  package mutating func append(_ line: RawLine, eventID: UnsafeRawBufferPointer, raw bytes: UnsafeRawBufferPointer) {
    lines.append(line)
    ids.append(contentsOf: eventID)
    raw.append(contentsOf: bytes)
    idEnds.append(ids.count)
    rawEnds.append(raw.count)
  }

  /// The event id and line at `slot`, valid during the call.
  func withLine<T>(at slot: Int, _ body: (UnsafeRawBufferPointer, UnsafeRawBufferPointer) throws -> T) rethrows -> T {
    let idStart = slot == 0 ? 0 : idEnds[slot - 1]
    let rawStart = slot == 0 ? 0 : rawEnds[slot - 1]
    return try ids.withUnsafeBytes { ids in
      try raw.withUnsafeBytes { raw in
        try body(
          UnsafeRawBufferPointer(rebasing: ids[idStart..<idEnds[slot]]),
          UnsafeRawBufferPointer(rebasing: raw[rawStart..<rawEnds[slot]]))
      }
    }
  }

  /// The block's bytes before compression.
  package func encoded() -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(raw.count + ids.count + lines.count * 24 + 16)
    out.append(contentsOf: RawBlock.magic)
    VarInt.append(UInt64(lines.count), to: &out)
    var previous = RawLine(sessionRef: 0, sourceID: 0, line: 0, byteOffset: 0, timestamp: 0, key: 0)
    for (index, line) in lines.enumerated() {
      VarInt.appendDelta(line.sessionRef, from: previous.sessionRef, to: &out)
      VarInt.appendDelta(line.sourceID, from: previous.sourceID, to: &out)
      VarInt.appendDelta(Int64(line.line), from: Int64(previous.line), to: &out)
      VarInt.appendDelta(Int64(line.byteOffset), from: Int64(previous.byteOffset), to: &out)
      VarInt.appendDelta(line.key, from: previous.key, to: &out)
      VarInt.append(UInt64(idEnds[index] - (index == 0 ? 0 : idEnds[index - 1])), to: &out)
      VarInt.append(UInt64(rawEnds[index] - (index == 0 ? 0 : rawEnds[index - 1])), to: &out)
      withUnsafeBytes(of: line.timestamp.bitPattern.littleEndian) { out.append(contentsOf: $0) }
      previous = line
    }
    out.append(contentsOf: ids)
    out.append(contentsOf: raw)
    return out
  }

  /// The time range of its lines, for `event_blocks`.
  var timeRange: (first: Double, last: Double) {
    (lines.lazy.map(\.timestamp).min() ?? 0, lines.lazy.map(\.timestamp).max() ?? 0)
  }

  mutating func removeAll() {
    lines.removeAll(keepingCapacity: true)
    ids.removeAll(keepingCapacity: true)
    raw.removeAll(keepingCapacity: true)
    idEnds.removeAll(keepingCapacity: true)
    rawEnds.removeAll(keepingCapacity: true)
  }
}
