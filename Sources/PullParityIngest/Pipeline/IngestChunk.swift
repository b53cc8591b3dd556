internal import PullParityCore
internal import PullParityStore

/// Lines read and parsed, waiting to be written. Bytes (raw lines and the texts the writer
/// binds) sit in one arena, so a chunk costs a few growing buffers, not objects per line.
struct IngestChunk: Sendable {
  var rows: [EventRow] = []
  var rejected: [RejectedLine] = []
  var sessions: [ChunkSession] = []
  /// Rows whose id key repeats within the chunk, in input order.
  var repeatedIDRows: [Int] = []
  var arena: [UInt8] = []
  var linesRead = 0
  var blankLines = 0
  /// Input bytes consumed by the end of this chunk (for progress).
  var bytesRead = 0
  /// "file:line" of the chunk's last line: where a stopped run got to.
  var lastPosition = ""
  var readAndParseSeconds = 0.0
  /// Identifies the chunk's input, so a chunk seen before can be skipped whole.
  var fingerprint: ChunkFingerprint?
  /// Lines the reader did not parse (see `UnparsedLine`); `rows` and `rejected` are then empty.
  var unparsed: [UnparsedLine] = []
  var isParsed = true

  init(expectedLines: Int) {
    rows.reserveCapacity(expectedLines)
    arena.reserveCapacity(expectedLines * 420)
  }

  /// Takes the lines as a `ChunkBuilder` parsed them later (the writer parses a chunk the
  /// reader only copied): rows and rejections replace `unparsed`; where the chunk came from and
  /// what it counted stay.
  mutating func replaceLines(with parsed: IngestChunk) {
    rows = parsed.rows
    rejected = parsed.rejected
    sessions = parsed.sessions
    repeatedIDRows = parsed.repeatedIDRows
    arena = parsed.arena
    unparsed = []
    isParsed = true
  }

  mutating func copy(_ bytes: UnsafeRawBufferPointer) -> ArenaSlice {
    let slice = ArenaSlice(start: arena.count, count: bytes.count)
    arena.append(contentsOf: bytes)
    return slice
  }

  mutating func copy(_ text: String) -> ArenaSlice {
    var text = text
    return text.withUTF8 { copy(UnsafeRawBufferPointer($0)) }
  }
}
