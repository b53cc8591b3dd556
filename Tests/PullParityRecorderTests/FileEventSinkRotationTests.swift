import Foundation
import PullParityCore
import PullParityIngest
import PullParityRecorder
import PullParityStore
import PullParityTestSupport
import Testing

/// `FileEventSink` with a `Rotation`: where each line ends up, what is kept, and what ingest
/// makes of the folder.
@Suite struct FileEventSinkRotationTests {
  /// A JSON line numbered `n`, padded to `bytes` with its `\n`.
  static func line(_ n: Int, bytes: Int) -> String {
    let head = #"{"n":\#(n),"p":""#
    return head + String(repeating: "x", count: bytes - 1 - head.utf8.count - 2) + #""}"#
  }

  /// What the folder must hold after `lines` (name → content): each file takes lines while
  /// they fit the bound (an empty one takes any line), the full ones are numbered from 1, and
  /// only the newest `keptFiles` of those remain.
  static func expectedFiles(_ lines: [String], _ rotation: FileEventSink.Rotation) -> [String: String] {
    var files: [String] = [""]
    for line in lines {
      let size = files[files.count - 1].utf8.count
      if size > 0, size + line.utf8.count + 1 > rotation.maxFileBytes { files.append("") }
      files[files.count - 1] += line + "\n"
    }
    var expected = ["events.jsonl": files.removeLast()]
    for (index, content) in files.enumerated() where index >= files.count - rotation.keptFiles {
      expected[String(format: "events.%08d.jsonl", index + 1)] = content
    }
    return expected
  }

  static func files(in dir: TemporaryDirectory) throws -> [String: String] {
    var files: [String: String] = [:]
    for name in try FileManager.default.contentsOfDirectory(atPath: dir.url.path) {
      files[name] = try String(contentsOfFile: dir.path(name), encoding: .utf8)
    }
    return files
  }

  struct Case: Sendable, CustomTestStringConvertible {
    var name: String
    var maxFileBytes: Int
    var keptFiles: Int
    /// Each line's size with its `\n`.
    var lineBytes: [Int]
    var testDescription: String { name }
  }

  static let cases: [Case] = [
    Case(name: "files filled to the byte", maxFileBytes: 60, keptFiles: 4, lineBytes: Array(repeating: 20, count: 9)),
    Case(name: "a line that would pass the bound", maxFileBytes: 50, keptFiles: 9, lineBytes: [20, 20, 20, 30, 21]),
    Case(name: "the oldest deleted", maxFileBytes: 50, keptFiles: 3, lineBytes: Array(repeating: 20, count: 30)),
    Case(name: "a line longer than any file", maxFileBytes: 40, keptFiles: 5, lineBytes: [15, 15, 100, 15, 15, 15]),
    Case(name: "under the bound", maxFileBytes: 1000, keptFiles: 2, lineBytes: Array(repeating: 20, count: 10)),
  ]

  @Test(arguments: cases)
  func linesStayWholeAndInOrderAcrossTheFilesKept(_ rotationCase: Case) throws {
    let dir = try TemporaryDirectory()
    let rotation = FileEventSink.Rotation(maxFileBytes: rotationCase.maxFileBytes, keptFiles: rotationCase.keptFiles)
    let errors = Collected<FileSinkError>()
    let sink = FileEventSink(path: dir.path("events.jsonl"), rotation: rotation, onError: errors.append)
    let lines = rotationCase.lineBytes.enumerated().map { Self.line($0.offset, bytes: $0.element) }
    lines.forEach(sink.write)
    #expect(try Self.files(in: dir) == Self.expectedFiles(lines, rotation))
    #expect(errors.all.isEmpty)
  }

  @Test func aFileLeftByAnEarlierLaunchIsRotatedAfterTheLastNumber() throws {
    let dir = try TemporaryDirectory()
    let old = (0..<4).map { Self.line($0, bytes: 20) + "\n" }.joined()
    try dir.write("events.jsonl", old)
    try dir.write("events.00000007.jsonl", "seven\n")
    try dir.write("events.00000006.jsonl", "six\n")
    // Not the sink's names: never counted, never deleted.
    try dir.write("events.7.jsonl", "other\n")
    try dir.write("events.backup.jsonl", "other\n")
    let sink = FileEventSink(path: dir.path("events.jsonl"), rotation: .init(maxFileBytes: 90, keptFiles: 2))
    sink.write(Self.line(4, bytes: 20))
    #expect(
      try Self.files(in: dir) == [
        "events.jsonl": Self.line(4, bytes: 20) + "\n", "events.00000008.jsonl": old,
        "events.00000007.jsonl": "seven\n",
        "events.7.jsonl": "other\n", "events.backup.jsonl": "other\n",
      ])
  }

  @Test func twoSinksTakingTurnsOnOneFileRotateItAsOne() throws {
    let dir = try TemporaryDirectory()
    let rotation = FileEventSink.Rotation(maxFileBytes: 70, keptFiles: 100)
    let sinks = (0..<2).map { _ in FileEventSink(path: dir.path("events.jsonl"), rotation: rotation) }
    let lines = (0..<25).map { Self.line($0, bytes: 20 + $0 % 3) }
    for (n, line) in lines.enumerated() { sinks[n % 3 == 0 ? 0 : 1].write(line) }
    // Each sees the other's lines in the size and the other's rotations at the path.
    #expect(try Self.files(in: dir) == Self.expectedFiles(lines, rotation))
  }

  @Test func twoSinksWritingAtOnceLoseAndSplitNoLine() throws {
    let dir = try TemporaryDirectory()
    let rotation = FileEventSink.Rotation(maxFileBytes: 300, keptFiles: 10_000)
    let errors = Collected<FileSinkError>()
    let sinks = (0..<2).map { _ in
      FileEventSink(path: dir.path("events.jsonl"), rotation: rotation, onError: errors.append)
    }
    let perSink = 400
    DispatchQueue.concurrentPerform(iterations: 2) { writer in
      for n in 0..<perSink { sinks[writer].write(Self.line(writer * perSink + n, bytes: 25 + n % 7)) }
    }
    let names = try FileManager.default.contentsOfDirectory(atPath: dir.url.path).sorted()
    let read = try names.flatMap { name in
      try String(contentsOfFile: dir.path(name), encoding: .utf8).split(
        separator: "\n", omittingEmptySubsequences: false
      )
      .dropLast().map(String.init)
    }
    let numbers = read.map { line in Int(line.dropFirst(5).prefix { $0 != "," }) ?? -1 }
    // Read in path order (ingest's): each writer's lines once, whole, in the order written.
    for writer in 0..<2 {
      let mine = (writer * perSink)..<((writer + 1) * perSink)
      #expect(numbers.filter(mine.contains) == Array(mine))
    }
    #expect(zip(read, numbers).allSatisfy { $0 == Self.line($1, bytes: 25 + $1 % perSink % 7) })
    #expect(read.count == 2 * perSink)
    #expect(names.count > 10)
    #expect(errors.all.isEmpty)
  }

  /// Events of `sessions` cancelled pulls, as the recorder's lines.
  static func eventLines(sessions: Range<Int>) -> [String] {
    sessions.flatMap { n in
      var factory = EventFactory(sessionID: "s\(n)", origin: 1_795_000_000_000 + Double(n) * 10_000)
      let payloads: [EventPayload] = [
        .pullStart, .pullMove(distance: 10, offset: 7.2), .pullMove(distance: 20, offset: 14.4), .cancel(reason: nil),
      ]
      return payloads.enumerated().map { EventLineEncoder.line(for: factory.at(Double($0.offset) * 16, $0.element)) }
    }
  }

  @Test func aFolderIngestedAgainAfterARotationHoldsEveryEventOnce() throws {
    let logs = try TemporaryDirectory()
    let store = try TemporaryDirectory()
    let db = try PullParityDatabase(path: store.path("events.sqlite"))
    let ingest = {
      try Ingestor(database: db, options: IngestOptions(toolVersion: "test")).run(InputCatalog.expand([logs.url.path]))
    }
    let sink = FileEventSink(path: logs.path("events.jsonl"), rotation: .init(maxFileBytes: 1200, keptFiles: 1000))
    let before = Self.eventLines(sessions: 0..<15)
    before.forEach(sink.write)
    let ingestedAsCurrent = try String(contentsOfFile: logs.path("events.jsonl"), encoding: .utf8).split(
      separator: "\n")
    let first = try ingest()
    // The next lines rotate `events.jsonl`, read above under that name, to a numbered one.
    let after = Self.eventLines(sessions: 15..<30)
    after.forEach(sink.write)
    #expect(try !String(contentsOfFile: logs.path("events.jsonl"), encoding: .utf8).contains(ingestedAsCurrent[0]))
    let second = try ingest()

    #expect(first.counts.eventsStored == before.count)
    #expect(second.counts.eventsStored == after.count)
    // Under its new name the renamed file is new input: its lines are read again and found
    // to be events stored already, like the files that kept their names.
    #expect(second.counts.duplicates == before.count)
    #expect(first.counts.quarantined + second.counts.quarantined + second.counts.conflicts == 0)
    let ids = try DatabaseDump.rows(db, table: "events", columns: "event_id", order: "event_id")
    let written = (before + after).map { line in String(line.split(separator: "\"")[3]) }
    #expect(ids.map { $0.split(separator: "\"")[1] } == written.sorted().map { Substring($0) })
    #expect(try FileManager.default.contentsOfDirectory(atPath: logs.url.path).count > 4)
  }
}
