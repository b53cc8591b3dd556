package import PullParityStore

/// How a report or the QA checklist reads its selection, chosen here for every caller (the
/// command line and a library caller alike): the stored day digests, with the sessions of days
/// whose digests are stale, where they serve; else every selected session.
package struct SelectionRead {
  package var queries: ReportQueries
  /// Read every selected session, never the stored digests.
  package var fromSessions: Bool

  package init(_ queries: ReportQueries, fromSessions: Bool = false) {
    self.queries = queries
    self.fromSessions = fromSessions
  }

  /// The parity report of `filter`, from the digests where they serve, else from the sessions
  /// `sessions` hands over.
  package func report(
    _ builder: ParityReportBuilder, context: ReportContext, filter: SessionFilter,
    sessions: (_ add: (SessionRecord) -> Void) throws -> Void
  ) throws -> ParityReport {
    if let digests = try digests(filter, profiles: builder.profiles) {
      return builder.build(context: context, digests: digests)
    }
    return try builder.build(context: context, sessions: sessions)
  }

  /// The QA checklist of `filter`, from the digests where they serve, else from the sessions
  /// `sessions` hands over.
  package func qa(
    _ checklist: QAChecklist, context: ReportContext, filter: SessionFilter,
    sessions: (_ add: (SessionRecord) -> Void) throws -> Void
  ) throws -> QAReport {
    if let digests = try digests(filter, profiles: checklist.profiles),
      let report = checklist.evaluate(context: context, digests: digests)
    {
      return report
    }
    return try checklist.evaluate(context: context, sessions: sessions)
  }

  /// The selection's digests by cell, from the stored day digests and the sessions of days
  /// whose digests are stale; nil when they cannot be used: a time range that cuts a day
  /// (digests are by whole UTC day), no current digest, one that does not decode, or
  /// `fromSessions`.
  package func digests(_ filter: SessionFilter, profiles: SessionProfiles) throws -> [SessionCell: SessionDigest]? {
    guard !fromSessions, StoredDigest.days(of: filter) != nil else { return nil }
    var digests = CellDigests(profiles: profiles)
    var undecodable = false
    let used = try queries.forEachDigestOrSession(
      filter, version: SessionDigestCoding.version,
      digest: { stored in
        guard let digest = SessionDigestCoding.decode(stored.bytes) else {
          undecodable = true
          return
        }
        digests.add(digest, of: stored.cell)
      },
      session: { digests.add($0) })
    return used && !undecodable ? digests.byCell : nil
  }

  /// Hands the selection's digests by day and cell to a sink that `start` makes: the stored
  /// day digests one at a time as they are decoded (never all held at once), then those of the
  /// sessions of days whose digests are stale; else, where stored digests do not serve (as
  /// `digests`), every selected session that `sessions` hands over, counted by day and cell into
  /// a new sink (one that does not decode starts the sink over).
  package func dayDigests<Sink>(
    _ filter: SessionFilter, profiles: SessionProfiles, sessions: (_ add: (SessionRecord) -> Void) throws -> Void,
    start: () -> Sink, add: (inout Sink, _ day: Int64, SessionCell, SessionDigest) -> Void
  ) throws -> Sink {
    var sink = start()
    if !fromSessions, StoredDigest.days(of: filter) != nil {
      var stale = DayDigests(profiles: profiles)
      var undecodable = false
      let used = try queries.forEachDigestOrSession(
        filter, version: SessionDigestCoding.version,
        digest: { stored in
          guard !undecodable, let digest = SessionDigestCoding.decode(stored.bytes) else {
            undecodable = true
            return
          }
          add(&sink, stored.day, stored.cell, digest)
        },
        session: { stale.add($0) })
      if used && !undecodable {
        stale.forEachDigest { add(&sink, $0, $1, $2) }
        return sink
      }
      sink = start()
    }
    var all = DayDigests(profiles: profiles)
    try sessions { all.add($0) }
    all.forEachDigest { add(&sink, $0, $1, $2) }
    return sink
  }
}
