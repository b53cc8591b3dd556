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
  func anUnwritablePathReachesTheErrorHandlerNotTheApp(_ unwritable: Unwritable) throws {
    let dir = try TemporaryDirectory()
    let (path, code) = try unwritable.path(in: dir)
    let errors = Collected<FileSinkError>()
    let sink = FileEventSink(path: path, onError: errors.append)
    sink.write(#"{"a":1}"#)
    sink.write(#"{"a":2}"#)
    // One report per lost line, naming the file and the system's reason.
    #expect(errors.all.count == 2)
    #expect(errors.all.allSatisfy { $0.path == path && $0.code == code })
    #expect(errors.all.first?.description == "cannot write events to \(path): \(String(cString: strerror(code)))")
  }

  @Test func aSinkRecoversOnceThePathBecomesWritable() throws {
    let dir = try TemporaryDirectory()
    let path = dir.path("later/events.jsonl")
    let errors = Collected<FileSinkError>()
    let sink = FileEventSink(path: path, onError: errors.append)
    sink.write(#"{"lost":true}"#)
    try FileManager.default.createDirectory(atPath: dir.path("later"), withIntermediateDirectories: true)
    sink.write(#"{"kept":true}"#)
    #expect(errors.all.count == 1)
    #expect(try String(contentsOfFile: path, encoding: .utf8) == "{\"kept\":true}\n")
  }
}
