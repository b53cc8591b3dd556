import Foundation

/// The lines of the block being filled, and their encoding (`RawBlock` reads it back).
///
/// Layout before compression: `PPB1`, the line count, then per line its `RawLine` fields as
/// varints, each number as the difference from the line before (a session's run of lines costs
/// a byte or two a field), where its event id is and the line's length; then the ids that are
/// not found inside their line (an id written with escapes); then every line. The numbers are
/// apart from the lines so that zstd finds the lines' common text line after line. Measured on
/// the benchmark log, the directory costs about 5 bytes a line once compressed (it cost 20
/// with every id written again, the time as 8 bytes and the key).
package struct RawBlockBuilder: Sendable {
  /// A block is written once its lines reach this many bytes. A frame larger than a page goes
  /// to full overflow pages but for a remainder: measured on the benchmark log, frames of
  /// 64 KiB blocks (11 KiB) left 22 bytes an event of unused page space, 256 KiB blocks
  /// (32 KiB frames, about a page) 10; 512 KiB blocks make frames of about two pages. Reading
  /// one event costs a 512 KiB decompression (about 0.3 ms).
  static let targetBytes = 524_288
  /// The slot of a line is its index: kept small so that `event_keys.slot` is two bytes.
  static let maxLines = 4_096

  package private(set) var lines: [RawLine] = []
  private var raw: [UInt8] = []
  private var rawEnds: [Int] = []
  /// The ids not found inside their line, one after another.
  private var ids: [UInt8] = []
  /// Per line, where its id is: inside its line (`offset`) or in `ids` (`range`).
  private var idPlaces: [IDPlace] = []

  enum IDPlace: Sendable {
    case offset(Int, length: Int)
    case range(Range<Int>)

    var length: Int {
      switch self {
      case .offset(_, let length): length
      case .range(let range): range.count
      }
    }

    /// Its directory field: the offset times two, or 1 for an id kept apart.
    var field: UInt64 {
      switch self {
      case .offset(let offset, _): UInt64(offset) << 1
      case .range: 1
      }
    }
  }

  package init() {}

  var count: Int { lines.count }
  var isEmpty: Bool { lines.isEmpty }
  var isFull: Bool { raw.count >= Self.targetBytes || lines.count >= Self.maxLines }

  /// `eventID` may point into `bytes` (the decoder's slice of the line): then only its offset
  /// and length are kept.
  package mutating func append(_ line: RawLine, eventID: UnsafeRawBufferPointer, raw bytes: UnsafeRawBufferPointer) {
    lines.append(line)
    if let offset = Self.offset(of: eventID, in: bytes) {
      idPlaces.append(.offset(offset, length: eventID.count))
    } else {
      idPlaces.append(.range(ids.count..<(ids.count + eventID.count)))
      ids.append(contentsOf: eventID)
    }
    raw.append(contentsOf: bytes)
    rawEnds.append(raw.count)
  }

  /// Where `eventID` lies inside `line`: found by address (a slice of it) or else by its bytes
  /// (the conversion of an older file reads the id apart). Any place where its bytes are will
  /// do. Ingest's reader asks first, while the line is in its CPU's cache, and hands the writer
  /// the id as a slice of the line: searched by the writer, the line's first touch there, it
  /// was 4 % of the writer's time (`perf`).
  package static func offset(of eventID: UnsafeRawBufferPointer, in line: UnsafeRawBufferPointer) -> Int? {
    guard let id = eventID.baseAddress, let base = line.baseAddress, !eventID.isEmpty else { return nil }
    if id >= base, id + eventID.count <= base + line.count { return id - base }
    let lastStart = line.count - eventID.count
    var start = 0
    while start <= lastStart, let found = memchr(base + start, Int32(eventID[0]), lastStart - start + 1) {
      let candidate = UnsafeRawPointer(found) - base
      if memcmp(found, id, eventID.count) == 0 { return candidate }
      start = candidate + 1
    }
    return nil
  }

  /// The event id and line at `slot`, valid during the call.
  func withLine<T>(at slot: Int, _ body: (UnsafeRawBufferPointer, UnsafeRawBufferPointer) throws -> T) rethrows -> T {
    let rawStart = slot == 0 ? 0 : rawEnds[slot - 1]
    return try ids.withUnsafeBytes { ids in
      try raw.withUnsafeBytes { raw in
        let line = UnsafeRawBufferPointer(rebasing: raw[rawStart..<rawEnds[slot]])
        switch idPlaces[slot] {
        case .offset(let offset, let length):
          return try body(UnsafeRawBufferPointer(rebasing: line[offset..<(offset + length)]), line)
        case .range(let range):
          return try body(UnsafeRawBufferPointer(rebasing: ids[range]), line)
        }
      }
    }
  }

  /// The block's bytes before compression.
  package func encoded() -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(raw.count + ids.count + lines.count * 12 + 16)
    out.append(contentsOf: RawBlock.magic)
    VarInt.append(UInt64(lines.count), to: &out)
    var previous = RawLine.zero
    for (index, line) in lines.enumerated() {
      VarInt.appendDelta(line.sessionRef, from: previous.sessionRef, to: &out)
      VarInt.appendDelta(line.sourceID, from: previous.sourceID, to: &out)
      VarInt.appendDelta(Int64(line.line), from: Int64(previous.line), to: &out)
      VarInt.appendDelta(Int64(line.byteOffset), from: Int64(previous.byteOffset), to: &out)
      VarInt.appendTime(line.timestamp, from: previous.timestamp, to: &out)
      VarInt.append(idPlaces[index].field, to: &out)
      VarInt.append(UInt64(idPlaces[index].length), to: &out)
      VarInt.append(UInt64(rawEnds[index] - (index == 0 ? 0 : rawEnds[index - 1])), to: &out)
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
    idPlaces.removeAll(keepingCapacity: true)
    rawEnds.removeAll(keepingCapacity: true)
  }
}
