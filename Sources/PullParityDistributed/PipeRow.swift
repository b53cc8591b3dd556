import Foundation
internal import PullParityIngest

/// One line of tab-separated fields as `pullparity decode` writes it (docs/distributed-formats.md,
/// "Fields"): numbers as text, an absent value as an empty field, and text as it is unless it
/// could split the line, act on a terminal, be mistaken for an encoded field or is empty; then
/// it is `~` and its UTF-8 in base64. A JVM job reads every field with a split and, for the rare encoded
/// one, `unbase64`, and no byte is lost or changed on the way.
struct PipeRow {
  static let encodedMark = UInt8(ascii: "~")
  private(set) var bytes: [UInt8] = []

  init() { bytes.reserveCapacity(512) }

  mutating func text(_ value: String?) {
    separate()
    guard var value else { return }
    value.withUTF8 { appendText(UnsafeRawBufferPointer($0)) }
  }

  mutating func text(_ value: UnsafeRawBufferPointer) {
    separate()
    appendText(value)
  }

  mutating func number(_ value: Int?) {
    separate()
    if let value { bytes.append(contentsOf: String(value).utf8) }
  }

  /// Swift's shortest text that reads back as the same double, which Spark's cast reads too.
  mutating func number(_ value: Double?) {
    separate()
    if let value { bytes.append(contentsOf: value.description.utf8) }
  }

  /// Bytes that are not UTF-8, in lowercase hexadecimal (the raw line of such a rejection).
  mutating func hex(_ value: UnsafeRawBufferPointer?) {
    separate()
    guard let value else { return }
    let digits = Array("0123456789abcdef".utf8)
    for byte in value {
      bytes.append(digits[Int(byte >> 4)])
      bytes.append(digits[Int(byte & 0xF)])
    }
  }

  /// Fields after the first start with a tab; the first call only marks that one was written.
  private var started = false
  private mutating func separate() {
    if started { bytes.append(UInt8(ascii: "\t")) }
    started = true
  }

  private mutating func appendText(_ value: UnsafeRawBufferPointer) {
    if Self.isPlain(value) {
      bytes.append(contentsOf: value)
    } else {
      bytes.append(Self.encodedMark)
      bytes.append(contentsOf: Data(value).base64EncodedString().utf8)
    }
  }

  /// Text that goes out as it is: it is not empty (an empty field is an absent value), does not
  /// start with the mark, and holds no control
  /// character (C0 with tab and line ends, DEL, C1 as U+0080–009F) nor a bidirectional control
  /// (U+202A–202E, U+2066–2069), the scalars `TerminalText` escapes. One pass over the bytes:
  /// those scalars start with a byte below 0x20, 0x7F, 0xC2 or 0xE2.
  static func isPlain(_ value: UnsafeRawBufferPointer) -> Bool {
    if value.isEmpty || value.first == encodedMark { return false }
    var index = 0
    let count = value.count
    while index < count {
      let byte = value[index]
      switch byte {
      case 0x00..<0x20, 0x7F: return false
      case 0xC2 where index + 1 < count && (0x80...0x9F).contains(value[index + 1]): return false
      case 0xE2 where index + 2 < count && isBidiControl(value[index + 1], value[index + 2]): return false
      default: break
      }
      index += 1
    }
    return true
  }

  private static func isBidiControl(_ second: UInt8, _ third: UInt8) -> Bool {
    (second == 0x80 && (0xAA...0xAE).contains(third)) || (second == 0x81 && (0xA6...0xA9).contains(third))
  }
}
