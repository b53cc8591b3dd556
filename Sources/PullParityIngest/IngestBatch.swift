/// Lines read and parsed, waiting to be written in one transaction. Raw bytes are copied into
/// one arena so a batch costs one growing buffer, not a string per line.
struct IngestBatch: Sendable {
  var lines: [PendingLine] = []
  var arena: [UInt8] = []
  var linesRead = 0
  var blankLines = 0
  /// Input bytes consumed by the end of this batch (for progress).
  var bytesRead = 0
  /// "file:line" of the batch's last line: where a stopped run got to.
  var lastPosition = ""
  var readAndParseSeconds = 0.0

  init(expectedLines: Int) {
    lines.reserveCapacity(expectedLines)
    arena.reserveCapacity(expectedLines * 320)
  }

  mutating func append(_ content: PendingLine.Content, sourceIndex: Int, line: InputLine) {
    let start = arena.count
    arena.append(contentsOf: line.bytes)
    lines.append(
      PendingLine(
        content: content, sourceIndex: sourceIndex, line: line.number, byteOffset: line.byteOffset,
        rawStart: start, rawCount: line.bytes.count))
  }
}
