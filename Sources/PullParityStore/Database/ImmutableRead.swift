import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reading a database without SQLite's `-wal`/`-shm` files, for a database this user may not
/// change: an archive in a read-only directory, or another user's file in a shared one.
///
/// A WAL reader needs a `-shm` file it can create and write. In a read-only directory it
/// cannot, and the open fails; in a shared directory it can, and leaves `-wal`/`-shm` files
/// owned by this user that then block the owner's next ingest. Opened with `immutable=1`,
/// SQLite reads the main file as it is and creates nothing. The price: what is still in an
/// existing `-wal` file is not seen, and a writer that checkpoints during the read is not
/// noticed, which is why the choice is told to the user.
enum ImmutableRead {
  /// Whether to read immutably from the start: this user may not write the file or its
  /// directory, and there is no `-wal` file (so the main file holds everything). With a
  /// `-wal` file, a normal read uses the existing files; `noteAfterFailure` covers its failure.
  static func isNeeded(_ path: String) -> Bool {
    guard !FileManager.default.fileExists(atPath: path + "-wal") else { return false }
    return access(directory(of: path), W_OK) != 0 || access(path, W_OK) != 0
  }

  /// The `file:` URI that opens `path` immutably.
  static func uri(_ path: String) -> String {
    let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
    var encoded = ""
    for byte in absolute.utf8 {
      let c = Character(Unicode.Scalar(byte))
      if byte < 0x80, c.isLetter || c.isNumber || "/-._~".contains(c) {
        encoded.append(c)
      } else {
        encoded += String(format: "%%%02X", byte)
      }
    }
    return "file:" + encoded + "?immutable=1"
  }

  /// What to tell the user when the database is read immutably.
  static func note(_ path: String) -> String {
    var note =
      "note: \(path) is read as it is on disk (immutable): this user cannot write it or its directory, "
      + "where SQLite's WAL mode needs a -shm file"
    let walBytes = (try? FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int) ?? 0
    if walBytes > 0 {
      note += "; the \(walBytes) bytes of \(path)-wal not yet copied into it are not seen"
    }
    return note + "."
  }

  /// Through `URL`: `NSString.deletingLastPathComponent` traps on a one-character path in
  /// swift-corelibs-foundation (`--db p` crashed every read command).
  private static func directory(of path: String) -> String {
    URL(fileURLWithPath: path).deletingLastPathComponent().path
  }
}
