import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `<database>-lock`, beside the database: byte-range locks that only a live process can hold.
///
/// `<database>` is the file's own path, every symbolic link followed (`resolvedPath`), as
/// SQLite names its `-wal` and `-shm` files: a database named through a link
/// (`current.sqlite -> 2026-11.sqlite`) and through its real path is one file with one lock.
/// Locking the name given instead let two ingests migrate one new file at once and mark each
/// other's live runs `interrupted`.
///
/// Byte 0 is held while a writer opens and migrates the database, so that processes started
/// together migrate one after the other. Byte `run_id` is held by the ingest run of that id for
/// its whole life: the kernel releases it when the process dies, however it dies, so a later
/// open can tell a killed run (byte free) from one that is still writing (byte held), even
/// while another ingest runs. On Linux the locks belong to the open file (OFD locks), so two
/// databases opened in one process exclude each other too; elsewhere they are POSIX locks,
/// which belong to the process.
final class DatabaseLockFile: Sendable {
  let path: String
  private let descriptor: Int32

  /// The lock file of the database at `databasePath`.
  static func path(forDatabase databasePath: String) -> String {
    resolvedPath(of: databasePath) + "-lock"
  }

  init(databasePath: String) throws {
    path = Self.path(forDatabase: databasePath)
    descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else {
      throw StoreError(context: "opening \(path)", message: String(cString: strerror(errno)))
    }
  }

  deinit { close(descriptor) }

  /// `path` made absolute with every symbolic link followed: those of its directories, and the
  /// file's own, even when the link's target does not exist yet (SQLite creates the target).
  static func resolvedPath(of path: String) -> String {
    var file = URL(fileURLWithPath: path).standardizedFileURL.path
    // As SQLite's unix VFS, which gives up after 100 links.
    for _ in 0..<100 {
      var status = stat()
      guard lstat(file, &status) == 0, status.st_mode & S_IFMT == S_IFLNK,
        let target = try? FileManager.default.destinationOfSymbolicLink(atPath: file)
      else { break }
      let base = URL(fileURLWithPath: file).deletingLastPathComponent()
      file = URL(fileURLWithPath: target, relativeTo: base).standardizedFileURL.path
    }
    let url = URL(fileURLWithPath: file)
    let directory = url.deletingLastPathComponent().path
    guard let real = realpath(directory, nil) else { return file }
    defer { free(real) }
    return URL(fileURLWithPath: String(cString: real)).appendingPathComponent(url.lastPathComponent).path
  }

  /// Takes the write lock on `byte`, waiting up to `timeout` seconds for its holder. Returns
  /// false when the time ran out.
  ///
  /// The deadline is read from the system's monotonic clock, not the database's `PipelineClock`:
  /// it bounds a real wait, which a pinned clock would make endless.
  func lock(byte: Int64, timeout: Double) throws -> Bool {
    let deadline = ContinuousClock.now.advanced(by: .seconds(timeout))
    while true {
      var request = Self.request(F_WRLCK, byte: byte)
      if fcntl(descriptor, Self.setLock, &request) == 0 { return true }
      guard errno == EAGAIN || errno == EACCES || errno == EINTR else {
        throw StoreError(context: "locking \(path)", message: String(cString: strerror(errno)))
      }
      if ContinuousClock.now >= deadline { return false }
      usleep(10_000)
    }
  }

  func unlock(byte: Int64) {
    var request = Self.request(F_UNLCK, byte: byte)
    _ = fcntl(descriptor, Self.setLock, &request)
  }

  /// Whether another open file (another process, or on Linux another connection of this one)
  /// holds `byte`.
  func isHeldElsewhere(byte: Int64) throws -> Bool {
    var request = Self.request(F_WRLCK, byte: byte)
    guard fcntl(descriptor, Self.getLock, &request) == 0 else {
      throw StoreError(context: "testing a lock of \(path)", message: String(cString: strerror(errno)))
    }
    return Int32(request.l_type) != F_UNLCK
  }

  private static func request(_ type: Int32, byte: Int64) -> flock {
    var request = flock()
    request.l_type = numericCast(type)
    request.l_whence = numericCast(SEEK_SET)
    request.l_start = off_t(byte)
    request.l_len = 1
    request.l_pid = 0  // must be 0 for OFD locks
    return request
  }

  #if os(Linux)
    // F_OFD_GETLK / F_OFD_SETLK from <fcntl.h>, hidden behind _GNU_SOURCE in Swift's Glibc.
    private static let getLock: Int32 = 36
    private static let setLock: Int32 = 37
  #else
    private static let getLock = F_GETLK
    private static let setLock = F_SETLK
  #endif
}
