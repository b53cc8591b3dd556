import Foundation
import PullParityRecorder
import PullParityTestSupport
import Testing

@Suite struct FileEventSinkTests {
  @Test func createsTheFileAndAppendsLinesToWhatIsThere() throws {
    let dir = try TemporaryDirectory()
    let path = dir.path("events.jsonl")
    let first = FileEventSink(path: path)
    first.write(#"{"a":1}"#)
    first.write(#"{"a":"Släpp"}"#)
    // A second sink (another launch of the app) appends; it does not truncate.
    FileEventSink(path: path).write(#"{"a":3}"#)
    first.write(#"{"a":4}"#)
    let text = try String(contentsOfFile: path, encoding: .utf8)
    #expect(text == "{\"a\":1}\n{\"a\":\"Släpp\"}\n{\"a\":3}\n{\"a\":4}\n")
  }

  enum Unwritable: String, CaseIterable {
    case missingDirectory, parentIsAFile, pathIsADirectory, diskFull

    /// `/dev/full` is Linux's.
    static var onThisSystem: [Unwritable] {
      #if os(Linux)
        allCases
      #else
        allCases.filter { $0 != .diskFull }
      #endif
    }

    /// The path to write to, and the `errno` the system gives for it (as root too).
    func path(in dir: TemporaryDirectory) throws -> (String, Int32) {
      switch self {
      case .missingDirectory: return (dir.path("missing/events.jsonl"), ENOENT)
      case .parentIsAFile: return (try dir.write("file", "x") + "/events.jsonl", ENOTDIR)
      case .pathIsADirectory: return (dir.url.path, EISDIR)
      case .diskFull: return ("/dev/full", ENOSPC)
      }
    }
  }

  @Test(arguments: Unwritable.onThisSystem)
  func anUnwritablePathIsReportedOnceNotOncePerLine(_ unwritable: Unwritable) throws {
    let dir = try TemporaryDirectory()
    let (path, code) = try unwritable.path(in: dir)
    let errors = Collected<FileSinkError>()
    let sink = FileEventSink(path: path, onError: errors.append)
    for n in 1...3 { sink.write(#"{"a":\#(n)}"#) }
    // One report for the outage, naming the file and the system's reason; nothing thrown.
    #expect(errors.all == [FileSinkError(path: path, code: code, reason: String(cString: strerror(code)))])
    #expect(errors.all.first?.description == "cannot write events to \(path): \(String(cString: strerror(code)))")
  }

  @Test(arguments: [1, 3])
  func anOutageEndsWithTheNumberOfLinesItLost(lost: Int) throws {
    let dir = try TemporaryDirectory()
    let path = dir.path("later/events.jsonl")
    let errors = Collected<FileSinkError>()
    let sink = FileEventSink(path: path, onError: errors.append)
    for n in 1...lost { sink.write(#"{"lost":\#(n)}"#) }
    try FileManager.default.createDirectory(atPath: dir.path("later"), withIntermediateDirectories: true)
    sink.write(#"{"kept":1}"#)
    sink.write(#"{"kept":2}"#)
    let missing = FileSinkError(path: path, code: ENOENT, reason: String(cString: strerror(ENOENT)))
    var ended = missing
    ended.linesLost = lost
    #expect(errors.all == [missing, ended])
    let lines = lost == 1 ? "1 line" : "\(lost) lines"
    #expect(
      errors.all.last?.description
        == "writing events to \(path) again; \(lines) lost while it failed: \(String(cString: strerror(ENOENT)))")
    #expect(try String(contentsOfFile: path, encoding: .utf8) == "{\"kept\":1}\n{\"kept\":2}\n")
  }

  @Test func eachOutageIsReportedAfterTheLastEnded() throws {
    let dir = try TemporaryDirectory()
    let folder = dir.path("logs")
    let path = folder + "/events.jsonl"
    let errors = Collected<FileSinkError>()
    // With rotation the sink checks the path before each line, so it sees the folder go.
    let sink = FileEventSink(path: path, rotation: .init(maxFileBytes: 1 << 20), onError: errors.append)
    for outage in 1...2 {
      try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
      sink.write(#"{"kept":\#(outage)}"#)
      try FileManager.default.removeItem(atPath: folder)
      for n in 1...outage { sink.write(#"{"lost":\#(n)}"#) }
    }
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    sink.write(#"{"kept":3}"#)
    let missing = FileSinkError(path: path, code: ENOENT, reason: String(cString: strerror(ENOENT)))
    #expect(errors.all.map(\.linesLost) == [nil, 1, nil, 2])
    #expect(errors.all.allSatisfy { FileSinkError(path: $0.path, code: $0.code, reason: $0.reason) == missing })
    #expect(try String(contentsOfFile: path, encoding: .utf8) == "{\"kept\":3}\n")
  }

  @Test func syncedLinesAreInTheFile() throws {
    let dir = try TemporaryDirectory()
    let path = dir.path("events.jsonl")
    let errors = Collected<FileSinkError>()
    let sink = FileEventSink(path: path, syncEveryLines: 2, onError: errors.append)
    sink.sync()  // Nothing written yet: nothing to sync, nothing to report.
    for n in 1...3 { sink.write(#"{"a":\#(n)}"#) }
    sink.sync()
    // fsync itself cannot be watched from here; the file's content and the silence of
    // `onError` can. That sync reaches `fsync` is shown on a device that refuses it, below.
    #expect(try String(contentsOfFile: path, encoding: .utf8) == "{\"a\":1}\n{\"a\":2}\n{\"a\":3}\n")
    #expect(errors.all.isEmpty)
  }

  struct SyncCase: Sendable, CustomTestStringConvertible {
    var syncEveryLines: Int?
    var lines: Int
    var callsSync: Bool
    /// Reports of the refused `fsync`: one per outage, however many syncs fail.
    var reports: Int
    var testDescription: String { "every \(syncEveryLines.map(String.init) ?? "-"), \(lines) lines, sync \(callsSync)" }
  }

  /// Linux refuses `fsync` on `/dev/null` (EINVAL), which writes succeed on: each report is a
  /// sync that reached the system.
  static let syncCases: [SyncCase] = [
    SyncCase(syncEveryLines: nil, lines: 5, callsSync: false, reports: 0),
    SyncCase(syncEveryLines: nil, lines: 5, callsSync: true, reports: 1),
    SyncCase(syncEveryLines: 3, lines: 2, callsSync: false, reports: 0),
    SyncCase(syncEveryLines: 3, lines: 3, callsSync: false, reports: 1),
    SyncCase(syncEveryLines: 1, lines: 5, callsSync: true, reports: 1),
  ]

  @Test(.enabled(if: Self.refusesSyncOnDevNull), arguments: syncCases)
  func syncsReachTheSystemAsOftenAsAsked(_ sync: SyncCase) {
    let errors = Collected<FileSinkError>()
    let sink = FileEventSink(path: "/dev/null", syncEveryLines: sync.syncEveryLines, onError: errors.append)
    for n in 1...sync.lines { sink.write(#"{"a":\#(n)}"#) }
    if sync.callsSync { sink.sync() }
    let refused = FileSinkError(
      path: "/dev/null", code: EINVAL, reason: String(cString: strerror(EINVAL)), operation: .sync)
    #expect(errors.all == Array(repeating: refused, count: sync.reports))
    #expect(errors.all.allSatisfy { $0.description == "cannot sync events to /dev/null: \(refused.reason)" })
  }

  static var refusesSyncOnDevNull: Bool {
    #if os(Linux)
      true
    #else
      false
    #endif
  }
}
