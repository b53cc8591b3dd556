import Foundation
import PullParityReport
import PullParityStore

/// `pullparity export`: streams the selected stored lines to an output, a buffer at a time.
struct ExportFrontend {
  let database: PullParityDatabase
  let withOrigin: Bool
  /// Bytes gathered before each write.
  static let bufferBytes = 1 << 20

  /// Returns how many lines it wrote.
  @discardableResult
  func export(_ selection: RawEventSelection, to output: FileHandleOutput) throws -> Int {
    let escape = output.isTerminal
    var written = 0
    var buffer: [UInt8] = []
    buffer.reserveCapacity(Self.bufferBytes + 4096)
    try database.read { db in
      try StoredEventReader.forEach(selection, in: db) { event in
        written += 1
        if withOrigin {
          buffer += Array(try Self.originPrefix(event.info).utf8)
          append(event.raw, to: &buffer, escape: escape)
          buffer.append(UInt8(ascii: "}"))
        } else {
          append(event.raw, to: &buffer, escape: escape)
        }
        buffer.append(UInt8(ascii: "\n"))
        if buffer.count >= Self.bufferBytes {
          try output.write(buffer)
          buffer.removeAll(keepingCapacity: true)
        }
      }
    }
    try output.write(buffer)
    return written
  }

  /// The line's bytes; on a terminal, with the scalars that act on one written as JSON
  /// escapes (still the same JSON to a parser).
  private func append(_ raw: UnsafeRawBufferPointer, to buffer: inout [UInt8], escape: Bool) {
    guard escape else { return buffer.append(contentsOf: raw) }
    buffer += Array(TerminalText.jsonEscaped(String(decoding: raw, as: UTF8.self)).utf8)
  }

  /// `{"source":…,"line":…,"byte_offset":…,"event":` for a line.
  private static func originPrefix(_ info: StoredLineInfo) throws -> String {
    let source = String(decoding: try encoder.encode(info.sourceName), as: UTF8.self)
    return TerminalText.jsonEscaped(
      "{\"source\":\(source),\"line\":\(info.line),\"byte_offset\":\(info.byteOffset),\"event\":")
  }

  private static let encoder: JSONEncoder = {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .withoutEscapingSlashes
    return encoder
  }()
}
