import Foundation
import PullParityIngest
import PullParityStore
import PullParityTestSupport
import Testing

/// Sessions that cross chunk boundaries: the reading thread carries their events on, and the
/// writer stores its derivation rather than reading the session back from the blocks, unless
/// the database holds other events of it than those carried (a repeated or edited line, events
/// of an earlier run). Either way the sessions are those of a one-chunk ingest.
@Suite struct ChunkBoundaryTests {
  static let sampleFiles = ["padel-ios-1.jsonl", "padel-ios-2.jsonl", "padel-pwa.jsonl", "phlock-ios.jsonl"]

  /// Each sample file's lines, each event once (the samples repeat three and edit one on
  /// purpose): only the changes below make a session's stored events differ from what the
  /// reader saw.
  static func sampleLines() throws -> [[Data]] {
    var seen = Set<String>()
    return try sampleFiles.map { name in
      try Data(contentsOf: RepositoryPaths.sampleEvents.appendingPathComponent(name))
        .split(separator: UInt8(ascii: "\n")).map { Data($0) }
        .filter { seen.insert(Self.field("event_id", of: $0) ?? "").inserted }
    }
  }

  /// The sample files' lines taken in turn, one from each, as a collector's log of several apps
  /// at once: sessions interleave, and chunks of 400 lines cut through about a hundred of them.
  static func interleaved(_ files: [[Data]]) -> [Data] {
    (0..<(files.map(\.count).max() ?? 0)).flatMap { i in files.compactMap { i < $0.count ? $0[i] : nil } }
  }

  /// Sessions with events in two files (six in the samples): in the interleaved log their two
  /// parts lie thousands of lines apart, too far for the reader to carry the first part on.
  static func splitSessions(_ files: [[Data]]) -> Int {
    let perFile = files.map(sessionIDs)
    return perFile.reduce(Set<String>(), { $0.union($1) }).count { id in perFile.count { $0.contains(id) } > 1 }
  }

  /// Sessions with events in more than one chunk of `chunkLines`.
  static func crossing(_ lines: [Data], chunkLines: Int) -> Int {
    var chunks: [String: Set<Int>] = [:]
    for (index, line) in lines.enumerated() {
      chunks[field("session_id", of: line) ?? "", default: []].insert(index / chunkLines)
    }
    return chunks.values.count { $0.count > 1 }
  }

  static func field(_ name: String, of line: Data) -> String? {
    ((try? JSONSerialization.jsonObject(with: line)) as? [String: Any])?[name] as? String
  }

  static func write(_ lines: [Data], to name: String, in dir: TemporaryDirectory) throws -> String {
    try dir.write(name, lines.reduce(into: Data()) { $0 += $1 + [UInt8(ascii: "\n")] })
  }

  /// A change to the log's end, and the sessions the chunked ingest reads back because of it.
  enum Change: String, CaseIterable, CustomTestStringConvertible {
    case none
    /// The last line twice: its session's stored events are fewer than the reader's.
    case lastLineRepeated
    /// The last line again with another distance (same event id): a conflict, quarantined.
    case lastLineEdited

    var testDescription: String { rawValue }

    func apply(to lines: [Data]) -> [Data] {
      let last = String(
        decoding: lines.last(where: { $0.range(of: Data(#""type":"pull_move""#.utf8)) != nil })!, as: UTF8.self)
      switch self {
      case .none: return lines
      case .lastLineRepeated: return lines + [Data(last.utf8)]
      case .lastLineEdited:
        return lines + [Data(last.replacingOccurrences(of: #""distance":"#, with: #""distance":1"#).utf8)]
      }
    }

    var readBack: Int { self == .none ? 0 : 1 }
  }

  func ingest(_ path: String, _ db: PullParityDatabase, chunkLines: Int) throws -> IngestSummary {
    var options = IngestOptions(transactionLines: 100_000, toolVersion: "test")
    options.maxChunkLines = chunkLines
    return try Ingestor(database: db, options: options).run(try InputCatalog.expand([path]))
  }

  static let derived: Set<String> = ["sessions", "violations", "quarantine"]

  @Test(arguments: Change.allCases)
  func sessionsAcrossChunksAreDerivedAsInOneChunk(change: Change) throws {
    let dir = try TemporaryDirectory()
    let files = try Self.sampleLines()
    let lines = change.apply(to: Self.interleaved(files))
    let path = try Self.write(lines, to: "log.jsonl", in: dir)
    let clean = try PullParityDatabase(path: dir.path("clean.sqlite"))
    let whole = try ingest(path, clean, chunkLines: 100_000)
    let db = try PullParityDatabase(path: dir.path("chunks.sqlite"))
    let chunked = try ingest(path, db, chunkLines: 400)

    #expect(try DatabaseDump.all(db, only: Self.derived) == DatabaseDump.all(clean, only: Self.derived))
    #expect(chunked.counts == whole.counts)
    #expect(chunked.counts.conflicts == (change == .lastLineEdited ? 1 : 0))
    // Of the sessions that cross a chunk boundary, only those split across files are read back.
    #expect(Self.crossing(lines, chunkLines: 400) > 80)
    #expect(chunked.stageTimes.sessionsReadBack == Self.splitSessions(files) + change.readBack)
  }

  /// The log in two runs, the second in chunks: a session begun in the first has stored events
  /// the second's reader never saw, so each such session is read back (once, in its one
  /// transaction), and only those.
  @Test func sessionsBegunInAnEarlierRunAreReadBack() throws {
    let dir = try TemporaryDirectory()
    let lines = Self.interleaved(try Self.sampleLines())
    let (head, tail) = (Array(lines[..<5_000]), Array(lines[5_000...]))
    let clean = try PullParityDatabase(path: dir.path("clean.sqlite"))
    _ = try ingest(try Self.write(lines, to: "all.jsonl", in: dir), clean, chunkLines: 100_000)

    let db = try PullParityDatabase(path: dir.path("runs.sqlite"))
    let first = try ingest(try Self.write(head, to: "head.jsonl", in: dir), db, chunkLines: 400)
    let second = try ingest(try Self.write(tail, to: "tail.jsonl", in: dir), db, chunkLines: 400)

    #expect(
      try DatabaseDump.all(db, only: ["sessions", "violations"])
        == DatabaseDump.all(clean, only: ["sessions", "violations"]))
    #expect(first.stageTimes.sessionsReadBack == 0)
    let continued = Self.sessionIDs(head).intersection(Self.sessionIDs(tail))
    #expect(continued.count > 3)
    #expect(second.stageTimes.sessionsReadBack == continued.count)
  }

  static func sessionIDs(_ lines: [Data]) -> Set<String> {
    Set(lines.compactMap { field("session_id", of: $0) })
  }
}
