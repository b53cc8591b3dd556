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
}
