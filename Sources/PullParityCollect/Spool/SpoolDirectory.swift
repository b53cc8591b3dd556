package import Foundation
import PullParityIngest

#if canImport(Glibc)
  import Glibc
#endif

/// The names in a spool directory. The open file is hidden, so `pullparity ingest DIR` never
/// reads a file still being written; closed files are `.jsonl` named by the UTC time they were
/// closed and a sequence number, so sorting by name (as ingest does) is sorting by age.
/// Ingested files move to a hidden folder, which ingest skips too.
package struct SpoolDirectory: Sendable {
  package static let openFileName = InputCatalog.openSpoolFileName
  package static let ingestedFolderName = ".ingested"

  package let path: String

  package init(path: String) {
    self.path = path
  }

  package var openFile: String { path + "/" + Self.openFileName }
  package var ingestedFolder: String { path + "/" + Self.ingestedFolderName }

  /// `20261126T081530.123Z-000001.jsonl`: milliseconds and a sequence keep two files closed in
  /// the same second apart, and in order.
  package static func closedName(at date: Date, sequence: Int) -> String {
    let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
    var seconds = time_t(milliseconds / 1000)
    var parts = tm()
    gmtime_r(&seconds, &parts)
    let stamp = String(
      format: "%04d%02d%02dT%02d%02d%02d.%03dZ", Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1,
      Int(parts.tm_mday), Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec), Int(milliseconds % 1000))
    return stamp + "-" + String(format: "%06d", sequence) + ".jsonl"
  }

  /// The closed files waiting to be ingested, oldest first: the directory's own `.jsonl` files.
  package func closedFiles() throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: path)
      .filter { !$0.hasPrefix(".") && $0.hasSuffix(".jsonl") }
      .sorted()
      .map { path + "/" + $0 }
  }

  /// Makes a rename or a new file in the directory durable.
  func syncEntries() throws {
    let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard descriptor >= 0 else { throw SpoolError("open", path) }
    defer { _ = Glibc.close(descriptor) }
    guard fsync(descriptor) == 0 else { throw SpoolError("fsync", path) }
  }

  /// Renames `from` to a closed name not taken yet; `syncEntries` makes it durable.
  @discardableResult
  func rename(_ from: String, toClosedNameAt date: Date, sequence: inout Int) throws -> String {
    var target: String
    repeat {
      sequence += 1
      target = path + "/" + Self.closedName(at: date, sequence: sequence)
    } while FileManager.default.fileExists(atPath: target)
    guard Glibc.rename(from, target) == 0 else { throw SpoolError("rename", from) }
    return target
  }
}
