import GRDB
import PullParityStore
import PullParityTestSupport
import Testing

/// `--cache-size` reaches SQLite: the page cache is what bounds an ingest's memory beyond its
/// chunks in flight.
@Suite struct PageCacheTests {
  @Test(
    arguments: [(nil, false, -262_144), (8, false, -8192), (nil, true, -65_536), (3, true, -3072)]
      as [(Int?, Bool, Int)])
  func theCacheSizeIsTheOneAskedFor(cacheMiB: Int?, readOnly: Bool, pragma: Int) throws {
    let dir = try TemporaryDirectory()
    let path = dir.path("cache.sqlite")
    _ = try PullParityDatabase(path: path)
    let database = try PullParityDatabase(path: path, readOnly: readOnly, cacheMiB: cacheMiB)
    #expect(try database.read { db in try Int.fetchOne(db, sql: "PRAGMA cache_size") } == pragma)
  }
}
