package import Foundation

/// A fresh directory under the system's temporary folder, removed when the value goes away.
package final class TemporaryDirectory {
  package let url: URL

  package init() throws {
    url = FileManager.default.temporaryDirectory.appendingPathComponent("pullparity-test-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  deinit { try? FileManager.default.removeItem(at: url) }

  package func path(_ name: String) -> String { url.appendingPathComponent(name).path }

  /// Writes `text` (or raw bytes) to `name` and returns its path.
  @discardableResult
  package func write(_ name: String, _ text: String) throws -> String {
    try write(name, Data(text.utf8))
  }

  @discardableResult
  package func write(_ name: String, _ data: Data) throws -> String {
    let path = self.path(name)
    try FileManager.default.createDirectory(
      at: URL(fileURLWithPath: path).deletingLastPathComponent(), withIntermediateDirectories: true)
    try data.write(to: URL(fileURLWithPath: path))
    return path
  }
}
