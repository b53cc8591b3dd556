internal import PullParityCore
internal import PullParityStore

/// A chunk of input lines on its way from the reading thread to the writer, in the shape the
/// reader left it: parsed, or only copied because the database already had it. Bytes (raw lines
/// and the texts the writer binds) sit in one arena per chunk, so a chunk costs a few growing
/// buffers, not objects per line.
enum IngestChunk: Sendable {
  /// Read, parsed, and its sessions derived from its own events.
  case parsed(ChunkInput, ParsedLines)
  /// Its fingerprint was stored when the reader finished it (a file sent again): the lines are
  /// only copied, to be parsed by the writer should it not find the fingerprint after all.
  case known(ChunkInput, UnparsedLines)

  /// Where the chunk came from and what its reader counted, whatever its shape.
  var input: ChunkInput {
    switch self {
    case .parsed(let input, _), .known(let input, _): input
    }
  }
}

/// What the reader knows of a chunk's input, whatever it did with the lines.
struct ChunkInput: Sendable {
  /// Identifies the chunk's input, so a chunk seen before can be skipped whole; nil when the
  /// chunk has no line.
  var fingerprint: ChunkFingerprint?
  var linesRead = 0
  var blankLines = 0
  /// Input bytes consumed by the end of this chunk (for progress).
  var bytesRead = 0
  /// "file:line" of the chunk's last line: where a stopped run got to.
  var lastPosition = ""
  var readAndParseSeconds = 0.0
}

/// A chunk's lines parsed: rows for the writer, rejected lines, and the sessions they belong to.
struct ParsedLines: Sendable {
  var rows: [EventRow] = []
  var rejected: [RejectedLine] = []
  var sessions: [ChunkSession] = []
  /// Rows whose id key repeats within the chunk, in input order.
  var repeatedIDRows: [Int] = []
  var arena: [UInt8] = []

  init(expectedLines: Int) {
    rows.reserveCapacity(expectedLines)
    arena.reserveCapacity(expectedLines * 420)
  }

  mutating func copy(_ bytes: UnsafeRawBufferPointer) -> ArenaSlice {
    let slice = ArenaSlice(start: arena.count, count: bytes.count)
    arena.append(contentsOf: bytes)
    return slice
  }

  /// Read in place when the string is contiguous (a parsed one always is): `withUTF8` is
  /// mutating, and its copy of the string was a retain and a release per field.
  mutating func copy(_ text: String) -> ArenaSlice {
    if let slice = text.utf8.withContiguousStorageIfAvailable({ copy(UnsafeRawBufferPointer($0)) }) { return slice }
    var text = text
    return text.withUTF8 { copy(UnsafeRawBufferPointer($0)) }
  }

  /// `text`'s bytes where they are inside `line`, a slice of the arena (`RawBlockBuilder.offset`);
  /// else a copy. The writer then finds an event's id inside its line without reading it.
  mutating func find(_ text: String, in line: ArenaSlice) -> ArenaSlice {
    let offset = text.utf8.withContiguousStorageIfAvailable { text in
      arena.withUnsafeBytes { RawBlockBuilder.offset(of: UnsafeRawBufferPointer(text), in: line.bytes(in: $0)) }
    }
    guard let offset = offset ?? nil else { return copy(text) }
    return ArenaSlice(start: line.start + offset, count: text.utf8.count)
  }

  /// `EventKey.idKey(of:)` the bytes at `slice`: read from the arena, the id's string is not
  /// touched again.
  func idKey(of slice: ArenaSlice) -> IDKey {
    arena.withUnsafeBytes { EventKey.idKey(of: slice.bytes(in: $0)) }
  }
}

/// A chunk's lines copied as read, not yet parsed (blank lines are only counted).
struct UnparsedLines: Sendable {
  var lines: [UnparsedLine] = []
  /// The lines' bytes one after another, then (`endWithPadding`) `LineReader.padding` bytes, so that
  /// a parser that needs padding reads any line in place.
  var arena: [UInt8] = []

  init(expectedLines: Int) {
    lines.reserveCapacity(expectedLines)
    arena.reserveCapacity(expectedLines * 300)
  }

  mutating func append(_ line: InputLine, sourceIndex: Int) {
    lines.append(
      UnparsedLine(
        sourceIndex: sourceIndex, line: line.number, byteOffset: line.byteOffset, length: line.length,
        isTooLong: line.isTooLong, raw: ArenaSlice(start: arena.count, count: line.bytes.count)))
    arena.append(contentsOf: line.bytes)
  }

  /// Adds the padding `parse` needs after the lines; call once, when the last line is in.
  mutating func endWithPadding() {
    arena.append(contentsOf: repeatElement(0, count: LineReader.padding))
  }

  /// Parses every line into `builder`, as if read from the input (after `endWithPadding`).
  func parse(into builder: inout ChunkBuilder, decoder: inout LineDecoder) {
    arena.withUnsafeBytes { arena in
      for unparsed in lines {
        let bytes = unparsed.raw.bytes(in: arena)
        let line = InputLine(
          bytes: bytes, readableCount: arena.count - unparsed.raw.start, number: unparsed.line,
          byteOffset: unparsed.byteOffset, length: unparsed.length, isTooLong: unparsed.isTooLong)
        builder.take(line, sourceIndex: unparsed.sourceIndex, decoder: &decoder)
      }
    }
  }
}
