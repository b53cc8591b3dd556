#if canImport(Glibc)
  import Glibc
#else
  import Darwin
#endif

/// Renames a full log file to the next number beside it (see ``FileEventSink/Rotation``) and
/// deletes the oldest numbered files beyond those kept.
///
/// Processes sharing one file take turns: a rotation holds the file's `flock` and renames the
/// file only if the path still names it, so a file is rotated once however many processes find
/// it full, and numbers are never taken twice (the next number is chosen under the lock of
/// the only file the path can name). See ``FileEventSink`` for where the other process's lines go.
struct LogRotator {
  let path: String
  let rotation: FileEventSink.Rotation
  /// Where the rotated files go, with its trailing `/` (empty for the working directory).
  private let directory: String
  /// `events.` and `.jsonl` for `events.jsonl`; the number goes between.
  private let prefix: String
  private let suffix: String

  init(path: String, rotation: FileEventSink.Rotation) {
    self.path = path
    self.rotation = rotation
    let slash = path.lastIndex(of: "/")
    directory = slash.map { String(path[...$0]) } ?? ""
    let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
    if let dot = name.lastIndex(of: "."), dot != name.startIndex {
      prefix = String(name[...dot])
      suffix = String(name[dot...])
    } else {
      prefix = name + "."
      suffix = ""
    }
  }

  /// The name of rotated file `number`: eight digits, so that path order is age order.
  func rotatedPath(_ number: Int) -> String {
    let digits = String(number)
    return directory + prefix + String(repeating: "0", count: max(0, 8 - digits.count)) + digits + suffix
  }

  /// Rotates `file`, `size` bytes long, if `count` more bytes would take it past the bound (an
  /// empty file is never rotated: the line is too long for any file). Returns whether the path
  /// may no longer name `file`: rotated here, or meanwhile by another process.
  func rotateIfFull(_ file: AppendedFile, size: Int, adding count: Int) throws(FileSinkError) -> Bool {
    guard size > 0, size > rotation.maxFileBytes - count else { return false }
    try file.lock()
    defer { file.unlock() }
    guard file.status().isAtPath else { return true }
    let numbers = try rotatedNumbers()
    let next = (numbers.max() ?? 0) + 1
    guard rename(path, rotatedPath(next)) == 0 else { throw .system(.rotate, path: path) }
    for old in (numbers + [next]).sorted().dropLast(rotation.keptFiles) {
      guard unlink(rotatedPath(old)) == 0 || errno == ENOENT else { throw .system(.rotate, path: rotatedPath(old)) }
    }
    return true
  }

  /// The numbers of the rotated files there are now.
  private func rotatedNumbers() throws(FileSinkError) -> [Int] {
    guard let folder = opendir(directory.isEmpty ? "." : directory) else { throw .system(.rotate, path: path) }
    defer { closedir(folder) }
    var numbers: [Int] = []
    while true {
      errno = 0
      guard let entry = readdir(folder) else {
        guard errno == 0 else { throw .system(.rotate, path: path) }
        return numbers
      }
      let name = withUnsafeBytes(of: entry.pointee.d_name) {
        String(cString: $0.bindMemory(to: CChar.self).baseAddress!)
      }
      if let number = rotatedNumber(name) { numbers.append(number) }
    }
  }

  /// The number in a rotated file's name (`events.00000042.jsonl`), nil for any other name.
  private func rotatedNumber(_ name: String) -> Int? {
    let bytes = Array(name.utf8)
    let head = prefix.utf8.count
    let tail = suffix.utf8.count
    // Bytes, not `String` comparison, which would match canonically equivalent names.
    guard bytes.count > head + tail, bytes.starts(with: prefix.utf8), bytes.suffix(tail).elementsEqual(suffix.utf8)
    else { return nil }
    let digits = bytes[head..<(bytes.count - tail)]
    // Eight digits or more: the sink's names. `events.7.jsonl` is someone else's file.
    guard (8...18).contains(digits.count), digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
    else {
      return nil
    }
    return digits.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
  }
}
