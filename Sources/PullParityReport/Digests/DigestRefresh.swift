internal import PullParityCore
package import PullParityStore

/// Brings `session_digests` up to date after a write: every stale day's sessions are counted
/// again into digests, and the dashboard's tables are written again from them
/// (`DashboardTables`). The libraries that write sessions (`Ingestor`, `Replayer`, `RunLoader`)
/// call `afterWrite` last, once each; a report never needs it to be exact, only to be fast.
package enum DigestRefresh {
  /// What a writer's refresh did.
  package struct Outcome: Sendable {
    package var seconds: Double
    /// The days brought up to date, by how.
    package var days = Days()
    /// Why the digests were not brought up to date, when that was not damage: it costs reports
    /// speed, not correctness (they read those days' sessions), so the write stands and its
    /// caller says so (a note on stderr, the collector's log). The dashboard's tables then
    /// show the file as the last refresh that wrote them left it.
    package var failure: String?
  }

  /// Refreshes after a write; throws only when the file is damaged (`StoreError.isDamage`),
  /// as every report on it would then fail too.
  package static func afterWrite(_ database: PullParityDatabase) throws -> Outcome {
    let start = database.clock.elapsed()
    var failure: String?
    var days = Days()
    do {
      days = try run(database)
      try DashboardTables.refresh(database, daysChanged: days != Days())
    } catch let error as StoreError where error.isDamage {
      throw error
    } catch {
      failure = "\(error)"
    }
    return Outcome(seconds: database.clock.seconds(since: start), days: days, failure: failure)
  }

  /// The stale days brought up to date by a `run`, by how (`DigestWriter.Count`).
  package struct Days: Equatable, Sendable {
    package var extended = 0
    package var whole = 0

    package init(extended: Int = 0, whole: Int = 0) {
      (self.extended, self.whole) = (extended, whole)
    }
  }

  /// Rebuilds the digests of every stale day, one transaction per day: a day whose sessions
  /// were only added to has its stored digests extended by the new ones, which gives the same
  /// bytes as counting it whole (`DigestRefreshTests`) at the cost of the new sessions alone.
  @discardableResult
  package static func run(_ database: PullParityDatabase) throws -> Days {
    let writer = DigestWriter(database)
    let stale = try writer.staleDays(version: SessionDigestCoding.version)
    var days = Days()
    guard !stale.isEmpty else { return days }
    let profiles = SessionProfiles(stored: try ReportQueries(database).storedProfiles())
    for day in stale {
      let how = try writer.rebuild(day: day, version: SessionDigestCoding.version) { stored, sessions in
        try count(day: day, extending: stored, with: sessions, profiles: profiles)
      }
      if how == .extended { days.extended += 1 } else { days.whole += 1 }
    }
    return days
  }

  /// The day's digests: `stored` (counted before, in `session_ref` order) extended by
  /// `sessions`, which come after them; nil when one of `stored` does not decode.
  private static func count(
    day: Int64, extending stored: [StoredDigest], with sessions: DigestWriter.Sessions, profiles: SessionProfiles
  ) throws -> [StoredDigest]? {
    var digests = CellDigests(profiles: profiles)
    for digest in stored {
      guard let decoded = SessionDigestCoding.decode(digest.bytes) else { return nil }
      digests.add(decoded, of: digest.cell)
    }
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
