import Foundation
internal import PullParityCore

/// Turns command-line paths into the ordered list of inputs to read.
///
/// Files are read in path order whatever order they were named in, so that "first seen" (which
/// version of a conflicting event wins, which of two equal timestamps comes first) depends on
/// the files, not on how a shell expanded a glob. Standard input, when named, comes last.
package enum InputCatalog {
  /// File names taken from a directory: JSON lines, optionally gzip-compressed. Plain `.json`
  /// is left out on purpose: next to logs it is usually a manifest or a config file.
  package static let logExtensions = [".jsonl", ".ndjson"]
  /// The file a collector's spool writes to until it closes it: hidden, so that ingest never
  /// reads a file being written (the collector's `SpoolDirectory` names it from here).
  package static let openSpoolFileName = ".open.jsonl"

  package static func expand(_ paths: [String]) throws -> [InputFile] {
    var files: [InputFile] = []
    var readsStandardInput = false
    let fileManager = FileManager.default
    for path in paths {
      if path == "-" {
        readsStandardInput = true
        continue
      }
      var isDirectory: ObjCBool = false
      guard fileManager.fileExists(atPath: path, isDirectory: &isDirectory) else {
        throw IngestError.cannotOpen(path: path, reason: "No such file or directory")
      }
      if isDirectory.boolValue {
        let found = try logFiles(under: path)
        guard !found.isEmpty else {
          let openSpoolFile = fileManager.fileExists(atPath: path + "/" + openSpoolFileName)
          throw IngestError.noInput(path: path, openSpoolFile: openSpoolFile)
        }
        files.append(contentsOf: found)
      } else {
        files.append(InputFile(name: normalized(path), isGzip: path.hasSuffix(".gz")))
      }
    }
    // By bytes: two file names that only look the same are two files.
    var seen = Set<ByteIdentity>()
    files = files.filter { seen.insert(ByteIdentity($0.name)).inserted }.sorted { $0.name < $1.name }
    if readsStandardInput { files.append(InputFile(name: "-", isGzip: false)) }
    return files
  }

  /// The same file named `a.jsonl`, `./a.jsonl` or `logs//../a.jsonl` is one source: the
  /// name is recorded with its events and keeps re-ingesting it idempotent. Relative paths
  /// stay relative (they are what a person typed and reads back in messages).
  package static func normalized(_ path: String) -> String {
    let absolute = path.hasPrefix("/")
    var parts: [Substring] = []
    for part in path.split(separator: "/", omittingEmptySubsequences: true) {
      switch part {
      case ".": continue
      case "..":
        if let last = parts.last, last != ".." { parts.removeLast() } else if !absolute { parts.append(part) }
      default: parts.append(part)
      }
    }
    let joined = parts.joined(separator: "/")
    if absolute { return "/" + joined }
    return joined.isEmpty ? "." : joined
  }

  private static func logFiles(under directory: String) throws -> [InputFile] {
    guard let enumerator = FileManager.default.enumerator(atPath: directory) else {
      throw IngestError.cannotOpen(path: directory, reason: "cannot list the directory")
    }
    var files: [InputFile] = []
    let base = normalized(directory) + "/"
    while let relative = enumerator.nextObject() as? String {
      let name = (relative as NSString).lastPathComponent
      // Hidden files and folders (an editor's or a sync tool's staging) are not logs; the
      // Spark job's listing skips them too.
      guard !name.hasPrefix(".") else {
        enumerator.skipDescendants()
        continue
      }
      let isGzip = name.hasSuffix(".gz")
      let plainName = isGzip ? String(name.dropLast(3)) : name
      guard logExtensions.contains(where: { plainName.hasSuffix($0) }) else { continue }
      var isDirectory: ObjCBool = false
      let path = base + relative
      guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue
      else { continue }
      files.append(InputFile(name: path, isGzip: isGzip))
    }
    return files
  }
}
