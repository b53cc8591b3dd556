import PullParityCore
import PullParityIngest
import PullParityReport
import PullParityStore

/// Reads what `report`, `qa` and `compare` judge: the selected sessions, their violations and the
/// profiles they were derived with, as the database stores them. A selection that matches no
/// session is an error, never an empty pass.
struct ReportFrontend {
  var database: PullParityDatabase
  /// As named on the command line, for messages and the report's context.
  var databaseName: String
  var tolerances: ParityTolerances = .default
  var policy: VerdictPolicy = .default
  /// Read every selected session, never the stored digests.
  var fromSessions = false
  var nowMs: Double = ReportClock.nowMs()

  var queries: ReportQueries { ReportQueries(database) }
  /// Digests or sessions: Report's choice (`SelectionRead`), not this frontend's.
  var read: SelectionRead { SelectionRead(queries, fromSessions: fromSessions) }

  func context(_ filter: SessionFilter) -> ReportContext {
    var context = ReportContext(
      database: databaseName, filter: filter, toolVersion: PullParity.version, generatedAtMs: nowMs,
      tolerances: tolerances, policy: policy)
    // v1.2: every format says what is pending (a file too old for the query says nothing).
    context.pending = (try? queries.pending(filter)) ?? []
    return context
  }

  func profiles() throws -> SessionProfiles { SessionProfiles(stored: try queries.storedProfiles()) }

  /// The sessions of `filter`; throws `EmptySelectionError` when there are none.
  func sessions(_ filter: SessionFilter, what: String = "the selection") throws -> [SessionRecord] {
    var sessions: [SessionRecord] = []
    try forEachSession(filter, what: what) { sessions.append($0) }
    return sessions
  }

  /// The sessions of `filter`, handed to `body` as they are read; throws `EmptySelectionError`
  /// when there are none.
  func forEachSession(
    _ filter: SessionFilter, what: String = "the selection", _ body: (SessionRecord) -> Void
  ) throws {
    var count = 0
    try queries.forEachSession(filter) { session in
      count += 1
      body(session)
    }
    guard count == 0 else { return }
    throw EmptySelectionError(database: databaseName, filter: filter, values: try queries.filterValues(), what: what)
  }

  /// The QA checklist of `filter`'s sessions.
  func qa(_ filter: SessionFilter) throws -> QAReport {
    try read.qa(QAChecklist(profiles: try profiles()), context: context(filter), filter: filter) { add in
      try forEachSession(filter, add)
    }
  }

  /// The report and, for formats that draw them, the sessions and example timelines behind it.
  func input(filter: SessionFilter, dimension: GroupDimension, format: ReportFormat, style: TextStyle = .plain)
    throws -> ReportRenderInput
  {
    let builder = ParityReportBuilder(profiles: try profiles(), dimension: dimension)
    let report = try withArrivals(
      read.report(builder, context: context(filter), filter: filter) { add in try forEachSession(filter, add) },
      filter)
    guard format.needsSessionDetail else { return ReportRenderInput(report: report, style: style) }
    // The charts are drawn from the digests by day where they serve, never from held sessions.
    var input = ReportRenderInput(report: report, style: style, timelines: try timelines(report, filter: filter))
    input.detail = try read.dayDigests(
      filter, profiles: builder.profiles, sessions: { add in try forEachSession(filter, add) },
      start: { HTMLSessionDetail(report: report) }, add: { $0.add($3, of: $2, day: $1) })
    input.releases = try releases(input.detail.releasePairs, filter: filter)
    return input
  }

  /// Each app's newest version against the one before it on each platform, judged by `compare`
  /// as its command line would with these cohorts (pulls only, its default).
  private func releases(_ pairs: [ReleasePair], filter: SessionFilter) throws -> [CohortComparison] {
    // With compare's own tolerances, so that the panel says what the command it prints says.
    var compare = self
    compare.tolerances = .change
    return try pairs.map { pair in
      var within = filter
      within.app = pair.app
      func cohort(_ name: String, _ version: String) -> Cohort {
        var narrowed = within
        narrowed.platform = pair.platform
        narrowed.appVersion = version
        return Cohort(name: name, selector: "app_version=\(version),platform=\(pair.platform)", filter: narrowed)
      }
      return try CompareFrontend(report: compare).comparison(
        cohort("baseline", pair.previous), cohort("candidate", pair.newest), trigger: .pull, within: within)
    }
  }

  /// Arrivals listed per app and platform in the `unexpected_event` breakdown.
  static let arrivalsShown = 5

  /// The report with its `unexpected_event` breakdown, read only when the rule found any.
  private func withArrivals(_ report: ParityReport, _ filter: SessionFilter) throws -> ParityReport {
    guard report.hasUnexpectedEvents else { return report }
    var report = report
    report.unexpectedArrivals = try queries.unexpectedArrivals(filter, limit: Self.arrivalsShown)
    return report
  }

  /// A session for each failing rule, app and platform (at most `SessionTimeline.maxExamples`),
  /// re-read from its stored raw lines: the first by id with the rule's violation.
  private func timelines(_ report: ParityReport, filter: SessionFilter) throws -> [SessionTimeline] {
    var decoder = LineDecoder()
    var left: [String] = []
    defer { noteLeftExamples(left) }
    return try FailingRule.drawn(report).compactMap { rule in
      guard let session = try exampleSession(rule, filter: filter) else { return nil }
      if let run = try queries.leftEvents(ofSession: session.id)?.run { left.append(run.directory) }
      // A session whose lines no longer decode is still drawn: its violations are stored. Only
      // that is forgiven: a read that fails (a damaged file) fails the report. The lines are
      // read one at a time: an example may be a session of a million events.
      let events: [RecordedEvent]
      do {
        events = try decoder.sessionEvents(sessionID: session.id) {
          try queries.forEachStoredEvent(ofSession: session.ref, $0)
        }
      } catch is StoredSessionError {
        events = []
      }
      var timeline = SessionTimeline(events: events, violations: try queries.violations(ofSession: session.ref))
      timeline.example = rule
      timeline.profileVersion = try queries.profileVersion(ofSession: session.ref)
      return timeline
    }
  }

  /// Examples whose events `load --leave-events` left in a run directory are drawn from their
  /// violations alone: said on stderr, so that an empty timeline is not taken for the session.
  private func noteLeftExamples(_ directories: [String]) {
    guard !directories.isEmpty else { return }
    let note =
      "Note: \(directories.count) example sessions are drawn without their events, which `pullparity load "
      + "--leave-events` left in " + Set(directories).sorted().map(TerminalText.escaped).joined(separator: ", ")
      + " (`pullparity session ID --read-events` reads them).\n"
    try? FileHandleOutput.standardError.write(note)
  }

  /// The first session by id of the rule's app and platform with one of its violations. Found
  /// by ref (two ids equal as Strings may be two sessions; a random id is indexed only with its
  /// key), by a query that stops at the first.
  private func exampleSession(_ rule: FailingRule, filter: SessionFilter) throws -> (id: String, ref: Int64)? {
    var narrowed = filter
    narrowed.app = rule.app
    narrowed.platform = rule.platform
    for kind in rule.violationKinds {
      if let found = try queries.violatingSessions(narrowed, kind: kind, limit: 1).first { return found }
    }
    return nil
  }
}
