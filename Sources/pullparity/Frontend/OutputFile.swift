#if canImport(Glibc)
  // `struct stat` reaches this module through Dispatch's C module first, and with
  // MemberImportVisibility its members are visible only where that module is imported.
  import CDispatch
  import Glibc
#endif

/// A file named by `--output`. A regular file (or a new one) is replaced by a rename, so that
/// a reader never sees half a report; a symlink is followed and the file it names is replaced,
/// the link kept; anything else that exists (a FIFO, a device such as `/dev/stdout`) is written
/// through, as a shell's `>` would, never replaced by a regular file.
struct OutputFile {
  var path: String

  func write(_ text: String) throws(OutputError) {
    let target = resolvedTarget()
    var info = stat()
    guard stat(target, &info) == 0 else {
      guard errno == ENOENT else { throw OutputError(destination: path, code: errno) }
      // A dangling link: opening it creates the file it names, and the link stays.
      return isSymlink ? try writeThrough(path, text) : try replace(target, with: text, mode: nil)
    }
    switch info.st_mode & S_IFMT {
    case S_IFREG: try replace(target, with: text, mode: info.st_mode & 0o7777)
    case S_IFDIR: throw OutputError(destination: path, code: EISDIR)
    default: try writeThrough(target, text)
    }
  }

  private var isSymlink: Bool {
    var info = stat()
    return lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFLNK
  }

  /// The file a symlink names (the path itself when it is no link, or a dangling one).
  private func resolvedTarget() -> String {
    guard isSymlink, let real = realpath(path, nil) else { return path }
    defer { free(real) }
    return String(cString: real)
  }

  private func writeThrough(_ target: String, _ text: String) throws(OutputError) {
    let fd = open(target, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o666)
    guard fd >= 0 else { throw openError(target) }
    defer { close(fd) }
    try write(text, to: fd)
  }

  /// Writes a temporary file beside `target` and renames it over it.
  private func replace(_ target: String, with text: String, mode: mode_t?) throws(OutputError) {
    let temporary = Self.directory(of: target) + "/.\(Self.name(of: target)).\(getpid()).tmp"
    // One left by a killed run with the same process id would make the exclusive create fail.
    unlink(temporary)
    let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
    guard fd >= 0 else { throw openError(target) }
    var failure: OutputError?
    do {
      if let mode { fchmod(fd, mode) }
      try write(text, to: fd)
      if fsync(fd) != 0 { failure = OutputError(destination: path, code: errno) }
    } catch {
      failure = error
    }
    close(fd)
    if failure == nil, rename(temporary, target) != 0 { failure = OutputError(destination: path, code: errno) }
    if let failure {
      unlink(temporary)
      throw failure
    }
  }

  private func write(_ text: String, to fd: Int32) throws(OutputError) {
    try FileHandleOutput.write(text, to: fd, name: path)
  }

  private func openError(_ target: String) -> OutputError {
    let code = errno
    guard code == ENOENT else { return OutputError(destination: path, code: code) }
    return OutputError(
      destination: path, code: code, detail: "the directory \(Self.directory(of: target)) does not exist")
  }

  private static func directory(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "." }
    return slash == path.startIndex ? "/" : String(path[..<slash])
  }

  private static func name(of path: String) -> String {
    path.lastIndex(of: "/").map { String(path[path.index(after: $0)...]) } ?? path
  }
}
