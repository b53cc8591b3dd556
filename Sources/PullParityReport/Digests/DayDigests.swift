internal import PullParityCore
package import PullParityStore

/// Digests by UTC day and cell, as `session_digests` stores them: what a figure drawn day by day
/// (the HTML report's trends) or from every value (its box plots and histograms) is made from,
/// whether the day's digests were stored or its sessions were read now.
package struct DayDigests {
  package private(set) var byDay: [Int64: CellDigests] = [:]
  private let profiles: SessionProfiles

  package init(profiles: SessionProfiles) {
    self.profiles = profiles
  }

  /// Counts `sessions` into the digests of their days and cells.
  package init(_ sessions: [SessionRecord], profiles: SessionProfiles) {
    self.init(profiles: profiles)
    for session in sessions { add(session) }
  }

  package mutating func add(_ session: SessionRecord) {
    let day = Int64((session.startedAtMs / StoredDigest.dayMs).rounded(.down))
    byDay[day, default: CellDigests(profiles: profiles)].add(session)
  }

  package mutating func add(_ stored: StoredDigest, _ digest: SessionDigest) {
    byDay[stored.day, default: CellDigests(profiles: profiles)].add(digest, of: stored.cell)
  }

  /// Each day's digests, days in order.
  package func forEachDigest(_ body: (_ day: Int64, _ cell: SessionCell, _ digest: SessionDigest) -> Void) {
    for (day, cells) in byDay.sorted(by: { $0.key < $1.key }) {
      for (cell, digest) in cells.byCell { body(day, cell, digest) }
    }
  }
}

extension ParityReport {
  /// The profiles of the report's apps, for sessions handed over whole (a test, a small caller)
  /// rather than read with the database's stored profiles. An app judged with two versions of
  /// its profile gets the last one here; the command line reads the stored ones.
  package var sessionProfiles: SessionProfiles {
    SessionProfiles(stored: [], fallback: ProfileCatalog(apps.map(\.profile)))
  }
}
