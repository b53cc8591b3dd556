internal import PullParityCore
package import PullParityStore

/// Brings `session_digests` up to date after a write: every stale day's sessions are counted
/// again into digests. Commands that write sessions (ingest, replay, load) call it last; a
/// report never needs it to be exact, only to be fast.
package enum DigestRefresh {
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
