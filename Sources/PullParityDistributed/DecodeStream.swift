import Foundation
internal import PullParityIngest

/// `pullparity decode`: raw log lines with their origin in, one `DecodedLine` per line out,
/// through the very `LineDecoder` ingest uses, so a distributed run applies the same rules. The
/// output is tab-separated text written field by field: no encoder, no JSON for the engine to
/// parse again.
///
/// Input lines are `source TAB offset TAB line TAB raw` (docs/distributed-formats.md): the raw
/// line last and untouched, so it may hold tabs and any bytes but a line end; `line` may be
/// empty when the reader does not know it.
package struct DecodeStream {
  private var decoder: LineDecoder
  /// Raw lines longer than this are rejected as `too_long`, as `ingest --max-line-bytes` does.
  private let maxLineBytes: Int

  package init(maxLineBytes: Int = IngestOptions.defaultMaxLineBytes) {
    decoder = LineDecoder()
    self.maxLineBytes = maxLineBytes
  }

  /// Reads standard input to its end; calls `emit` with every output line (no line end).
  package mutating func run(inputName: String = "-", emit: ([UInt8]) throws -> Void) throws {
    // The reader holds whole lines up to the largest cap; the ingest's cap applies to the raw
    // part below, so that a line ingest would refuse as too long is refused here the same way.
    let reader = LineReader(
      source: FileByteSource(descriptor: 0, name: inputName), name: inputName,
      maxLineBytes: IngestOptions.largestMaxLineBytes)
    try reader.forEachLine { line in
      if line.isBlank { return }
      try emit(try decode(line, inputName: inputName))
    }
  }

  private mutating func decode(_ input: InputLine, inputName: String) throws -> [UInt8] {
    let (origin, rawStart) = try Self.origin(of: input.bytes, inputName: inputName, number: input.number)
    let raw = UnsafeRawBufferPointer(rebasing: input.bytes[rawStart...])
    if raw.count > maxLineBytes || input.isTooLong {
      let rejection = LineRejection.tooLong(input.length - rawStart, limit: maxLineBytes)
      let kept = UnsafeRawBufferPointer(rebasing: raw.prefix(LineReader.keptPrefix))
      return DecodedLine.rejected(rejection, origin, raw: kept)
    }
    switch decoder.decode(raw, readableCount: input.readableCount - rawStart) {
    case .blank: return DecodedLine.blank(origin)
    case .event(let event): return DecodedLine.event(event, origin, raw: raw)
    case .rejected(let rejection): return DecodedLine.rejected(rejection, origin, raw: raw)
    }
  }

  /// Splits off the first three fields; returns the origin and where the raw line starts.
  static func origin(
    of bytes: UnsafeRawBufferPointer, inputName: String, number: Int
  ) throws -> (LineOrigin, Int) {
    var fields: [Range<Int>] = []
    var start = 0
    for index in bytes.indices where fields.count < 3 && bytes[index] == UInt8(ascii: "\t") {
      fields.append(start..<index)
      start = index + 1
    }
    func fail(_ message: String) -> PipeFormatError {
      PipeFormatError(input: inputName, line: number, message: message)
    }
    guard fields.count == 3 else {
      throw fail("expected source, offset, line and the raw line separated by tabs")
    }
    func text(_ range: Range<Int>) -> String { String(decoding: bytes[range], as: UTF8.self) }
    let source = text(fields[0])
    guard !source.isEmpty else { throw fail("the source (field 1) is empty") }
    guard let offset = Int(text(fields[1])), offset >= 0 else {
      throw fail("the offset (field 2) must be a whole number ≥ 0, got \"\(text(fields[1]))\"")
    }
    let lineText = text(fields[2])
    let line = Int(lineText)
    guard lineText.isEmpty || (line ?? 0) >= 1 else {
      throw fail("the line (field 3) must be empty or a whole number ≥ 1, got \"\(lineText)\"")
    }
    return (LineOrigin(source: source, offset: offset, line: line), start)
  }
}
