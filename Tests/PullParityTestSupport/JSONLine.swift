import Foundation

/// Hand-built event lines for tests that need fields `EventFactory` cannot express (names with
/// NULs or escape sequences, fields of the wrong type).
package enum JSONLine {
  /// `object` as one JSON line, keys sorted so the same object always gives the same bytes.
  package static func sorted(_ object: [String: Any]) throws -> String {
    String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self)
  }
}
