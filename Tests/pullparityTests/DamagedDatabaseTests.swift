import Foundation
import GRDB
import PullParityTestSupport
import Testing

/// SQLite's word that the file is damaged (SQLITE_CORRUPT, NOTADB, IOERR) fails the command
/// with exit 2 wherever it comes, never a note: an ingest that wrote around a damaged page and
/// exited 0 left a file every report then failed on.
@Suite struct DamagedDatabaseTests {
  /// A new Padel session with a label on a day the sample already has: its ingest reads no old
  /// event, and the day's digest refresh then reads the old sessions' events (which of them
  /// logged a label).
  static func newSession() throws -> String {
    let events: [[String: Any]] = [
      ["type": "pull_start"], ["type": "label", "text": "Dra", "state": "pulling"],
      ["type": "pull_move", "distance": 40], ["type": "release", "distance": 45],
    ]
    return try events.enumerated().map { index, event in
      var object: [String: Any] = [
        "event_id": "damaged-\(index)", "session_id": "damaged-session", "ts": 1_795_003_600_000 + index * 100,
        "platform": "pwa", "app": "padel",
      ]
      object.merge(event) { $1 }
      return try JSONLine.sorted(object)
    }.joined(separator: "\n") + "\n"
  }

  /// A copy of the sample database whose every leaf page of the raw events' blocks and keys but
  /// the last of each (where new ones go) is damaged, and the page of `labelled_sessions`.
  static func damagedCopy(in dir: TemporaryDirectory) throws -> String {
    let path = dir.path("damaged.sqlite")
    try SampleDatabase.copy(to: path)
    let leaves = "SELECT pageno FROM dbstat WHERE name = ? AND pagetype = 'leaf' ORDER BY path"
    let (pages, pageSize) = try DatabaseQueue(path: path).read { db in
      (
        try ["event_blocks", "event_keys"].map { try Int.fetchAll(db, sql: leaves, arguments: [$0]).dropLast() }
          // What reports read of the events' types: one page, the root.
          + [try Int.fetchAll(db, sql: leaves, arguments: ["labelled_sessions"])[...]],
        try Int.fetchOne(db, sql: "PRAGMA page_size")!
      )
    }
    try #require(pages[0].count > 3 && pages[1].count > 3 && pages[2].count == 1)
    let file = try #require(FileHandle(forUpdatingAtPath: path))
    defer { try? file.close() }
    for page in pages.joined() {
      // Byte 0 of a b-tree page is its type; 0 is none.
      try file.seek(toOffset: UInt64((page - 1) * pageSize))
      try file.write(contentsOf: Data([0]))
    }
    return path
  }

  @Test(arguments: [
    // FFCI logs no label, so only the example sessions' timelines read events.
    ["ingest", "--quiet", "new.jsonl"], ["report", "--format", "html", "--app", "ffci"],
    ["report", "--format", "html"], ["report", "--from-sessions"],
    ["session", "0c20f46e"], ["replay"],
  ])
  func aDamagedPageFailsTheCommand(command: [String]) throws {
    let dir = try TemporaryDirectory()
    let path = try Self.damagedCopy(in: dir)
    try dir.write("new.jsonl", Self.newSession())
    let run = try CommandRun.pullparity(
      [command[0], "--db", path] + command.dropFirst().map { $0 == "new.jsonl" ? dir.path($0) : $0 })
    #expect(run.exitCode == 2, "\(run.stdout)\(run.stderr)")
    #expect(run.stderr.contains("database disk image is malformed (SQLite result code 11)"), "\(run.stderr)")
    #expect(run.stderr.contains("The database file is damaged or unreadable: check it with `sqlite3 FILE"))
    #expect(!run.stderr.contains("Note: the report digests were not brought up to date"), "\(run.stderr)")
  }
}
