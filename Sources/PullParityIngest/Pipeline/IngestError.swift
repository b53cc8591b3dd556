/// Failures of an ingest: most stop it, those that `endsOnlyItsInput` end one input (bad lines never
/// stop anything: they are quarantined).
package enum IngestError: Error, CustomStringConvertible, Equatable {
  case cannotOpen(path: String, reason: String)
  case readFailed(path: String, reason: String)
  /// A directory with no log to read; `openSpoolFile` when it holds the file a collector's spool
  /// writes to (hidden while open): one left by a crash holds acknowledged lines.
  case noInput(path: String, openSpoolFile: Bool = false)
  /// A gzip stream that ends before its end: the lines before the cut are stored, the cut
  /// line is not (it would be quarantined, and stay so when the whole file arrives).
  case truncated(path: String)
  /// Gzip data that zlib refuses (a bad block, a bad check at a member's end, a bad header):
  /// the lines inflated before it are stored, though gzip only checks them at the member's end.
  case damaged(path: String, reason: String, offset: Int)
  /// Bytes after the last gzip member that do not start another one: every line before them
  /// is stored, they are not read.
  case trailingData(path: String, offset: Int)
  /// Nothing is read from a UTF-16 file: every line would be rejected.
  case utf16(path: String, byteOrder: String)

  /// Fails one input but not the run: the other inputs are still ingested, and the run ends
  /// with exit 2 naming it.
  package var endsOnlyItsInput: Bool {
    switch self {
    case .truncated, .damaged, .trailingData, .utf16: true
    default: false
    }
  }

  package var description: String {
    switch self {
    case .cannotOpen(let path, let reason): "cannot open \(path): \(reason)"
    case .readFailed(let path, let reason): "cannot read \(path): \(reason)"
    case .noInput(let path, let openSpoolFile):
      "\(path): no .jsonl or .ndjson files (optionally .gz) found"
        + (openSpoolFile
          ? "; \(path)/\(InputCatalog.openSpoolFileName) is a collector's spool file left open (a crash, or a "
            + "collector still writing it), which ingest skips: start the collector on this spool again "
            + "(`pullparity collect --spool \(path)`), which closes it as its first step, then ingest"
          : "")
    case .truncated(let path):
      "\(path): the gzip stream is truncated: the lines before the cut were read, the cut line and the rest are missing"
    case .damaged(let path, let reason, let offset):
      "\(path): not valid gzip data, damaged near compressed byte \(offset) (\(reason)): the lines before the "
        + "damage were read but may be damaged too, as gzip checks its data only at the end of a member; "
        + "nothing after the damage was read"
    case .trailingData(let path, let offset):
      "\(path): the bytes from compressed byte \(offset) on are not gzip data (garbage after the end of the gzip "
        + "stream): every line before them was read, they were not"
    case .utf16(let path, let byteOrder):
      "\(path): the file is UTF-16 (\(byteOrder)), not UTF-8: nothing was read from it "
        + "(convert it with `iconv -f UTF-16 -t UTF-8`)"
    }
  }
}
