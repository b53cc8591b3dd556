import Foundation

/// Stable JSON: sorted keys, two-space indent, no escaped slashes, and nothing that acts on a
/// terminal (`TerminalText.jsonEscaped`).
package enum JSONRendering {
  package static func render(_ value: some Encodable) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    return TerminalText.jsonEscaped(String(decoding: try encoder.encode(value), as: UTF8.self)) + "\n"
  }
}
