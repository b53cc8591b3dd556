internal import PullParityCore
package import PullParityStore

/// Brings `session_digests` up to date after a write: every stale day's sessions are counted
/// again into digests. The libraries that write sessions (`Ingestor`, `Replayer`, `RunLoader`)
/// call `afterWrite` last, once each; a report never needs it to be exact, only to be fast.
package enum DigestRefresh {
  /// What a writer's refresh did.
  package struct Outcome: Sendable {
    package var seconds: Double
    /// Why the digests were not brought up to date, when that was not damage: it costs reports
    /// speed, not correctness (they read those days' sessions), so the write stands and its
    /// caller says so (a note on stderr, the collector's log).
    package var failure: String?
  }

  /// Refreshes after a write; throws only when the file is damaged (`StoreError.isDamage`),
  /// as every report on it would then fail too.
  package static func afterWrite(_ database: PullParityDatabase) throws -> Outcome {
    let start = database.clock.elapsed()
    var failure: String?
    do {
      try run(database)
    } catch let error as StoreError where error.isDamage {
      throw error
    } catch {
      failure = "\(error)"
    }
    return Outcome(seconds: database.clock.seconds(since: start), failure: failure)
  }

  /// Rebuilds the digests of every stale day, one transaction per day; returns the days.
  @discardableResult
  package static func run(_ database: PullParityDatabase) throws -> Int {
    let writer = DigestWriter(database)
    let days = try writer.staleDays(version: SessionDigestCoding.version)
    guard !days.isEmpty else { return 0 }
    let profiles = SessionProfiles(stored: try ReportQueries(database).storedProfiles())
    for day in days {
      try writer.rebuild(day: day) { sessions in
        var digests = CellDigests(profiles: profiles)
        try sessions { digests.add($0) }
        return digests.byCell.map { cell, digest in
          StoredDigest(
            day: day, cell: cell, sessions: digest.sessions,
            outcomes: [
              .completed: digest.completed, .cancelled: digest.cancelled, .incomplete: digest.incomplete,
              .abandoned: digest.abandoned,
            ],
            version: SessionDigestCoding.version, bytes: SessionDigestCoding.encode(digest))
        }
      }
    }
    return days.count
  }
}
