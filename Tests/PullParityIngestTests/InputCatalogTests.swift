import Foundation
import PullParityTestSupport
import Testing

@testable import PullParityIngest

/// Which files a directory given to `ingest` stands for.
@Suite struct InputCatalogTests {
  @Test func aDirectoryListsItsLogsButNothingHidden() throws {
    let dir = try TemporaryDirectory()
    for name in [
      "a.jsonl", "sub/b.ndjson", "sub/c.jsonl.gz", "notes.txt", ".hidden.jsonl", ".staging/d.jsonl",
      "sub/.cache/e.jsonl",
    ] {
      try dir.write(name, "")
    }
    let files = try InputCatalog.expand([dir.url.path])
    let base = InputCatalog.normalized(dir.url.path) + "/"
    #expect(files.map(\.name) == ["a.jsonl", "sub/b.ndjson", "sub/c.jsonl.gz"].map { base + $0 })
    #expect(files.map(\.isGzip) == [false, false, true])
  }

  /// File names are compared as bytes, as SQLite compares `sources.name`: "é" as one code point
  /// and as "e" + U+0301 are two files, and both are read.
  @Test func namesThatOnlyLookTheSameAreTwoFiles() throws {
    let dir = try TemporaryDirectory()
    let names = ["\u{E9}.jsonl", "e\u{301}.jsonl"]
    for name in names { try dir.write(name, "") }
    let files = try InputCatalog.expand(names.map { dir.path($0) })
    #expect(Set(files.map { Array($0.name.utf8) }) == Set(names.map { Array(dir.path($0).utf8) }))
  }
}
