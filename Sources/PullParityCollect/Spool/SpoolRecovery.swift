import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Closes the open file a crashed or killed collector left behind. Its last body may be torn
/// (written in part, never acknowledged): the file is cut back to its last complete line, so
/// no half line reaches ingest. The client resends what was not acknowledged, and ingest skips
/// event ids it already stored, so a whole line of that body kept here costs nothing.
package struct SpoolRecovery: Equatable, Sendable {
  /// The closed file the leftover became; nil when it held no complete line (then it is removed).
  package var closedFile: String?
  package var keptBytes: Int
  package var cutBytes: Int

  static func run(_ directory: SpoolDirectory, sequence: inout Int) throws -> SpoolRecovery? {
    let path = directory.openFile
    guard FileManager.default.fileExists(atPath: path) else { return nil }
    let size = try fileSize(path)
    let kept = try lengthThroughLastNewline(path, size: size)
    if kept < size {
      guard truncate(path, off_t(kept)) == 0 else { throw SpoolError("truncate", path) }
    }
    guard kept > 0 else {
      guard unlink(path) == 0 else { throw SpoolError("unlink", path) }
      try directory.syncEntries()
      return SpoolRecovery(closedFile: nil, keptBytes: 0, cutBytes: size)
    }
    try syncData(path)
    let closed = try directory.rename(path, toClosedNameAt: Date(), sequence: &sequence)
    try directory.syncEntries()
    return SpoolRecovery(closedFile: closed, keptBytes: kept, cutBytes: size - kept)
  }

  private static func fileSize(_ path: String) throws -> Int {
    guard let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int else {
      throw SpoolError("stat", path)
    }
    return size
  }

  /// Reads backwards in blocks: a torn body is at most one body long, the file may be large.
  private static func lengthThroughLastNewline(_ path: String, size: Int) throws -> Int {
    guard let handle = FileHandle(forReadingAtPath: path) else { throw SpoolError("open", path) }
    defer { try? handle.close() }
    let block = 1 << 16
    var end = size
    while end > 0 {
      let start = max(0, end - block)
      try handle.seek(toOffset: UInt64(start))
      let bytes = try handle.read(upToCount: end - start) ?? Data()
      if let newline = bytes.lastIndex(of: UInt8(ascii: "\n")) {
        return start + (newline - bytes.startIndex) + 1
      }
      end = start
    }
    return 0
  }

  private static func syncData(_ path: String) throws {
    let descriptor = open(path, O_WRONLY | O_CLOEXEC)
    guard descriptor >= 0 else { throw SpoolError("open", path) }
    defer { _ = Glibc.close(descriptor) }
    guard fdatasync(descriptor) == 0 else { throw SpoolError("fdatasync", path) }
  }
}
