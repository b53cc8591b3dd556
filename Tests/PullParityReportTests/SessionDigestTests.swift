import GRDB
import PullParityCore
import PullParityTestSupport
import Testing

@testable import PullParityReport
@testable import PullParityStore

/// Digests of disjoint groups of sessions merge into the digest of all of them, survive their
/// stored encoding, and an upgraded file gets them at its first write.
@Suite struct SessionDigestTests {
  static let sessions =
    ReportFormatFixture.sessions + [
      SuspectSessionTests.record("zz-suspect", events: SessionSize.suspectEventCount + 1),
      SuspectSessionTests.record("aa-suspect", events: SessionSize.suspectEventCount + 1),
    ]

  static func digest(_ sessions: some Sequence<SessionRecord>) -> SessionDigest {
    var digest = SessionDigest()
    let profile = DigestProfile(ReportFormatFixture.profiles.resolve("padel"))
    for session in sessions { digest.add(session, profile: profile) }
    return digest
  }

  /// Values in order, so that digests counted in another order compare equal.
  static func normalized(_ digest: SessionDigest) -> SessionDigest {
    var digest = digest
    digest.values = digest.values.map { $0.sorted() }
    return digest
  }

  @Test(arguments: [1, 4, 9, 14]) func mergedDigestsAreTheDigestOfAllTheirSessions(split: Int) {
    var merged = Self.digest(Self.sessions.suffix(from: split))
    merged.merge(Self.digest(Self.sessions.prefix(split)))
    let whole = Self.digest(Self.sessions)
    #expect(Self.normalized(merged) == Self.normalized(whole))
    #expect(whole.sessions == Self.sessions.count)
    #expect(whole.suspects.map(\.sessionID) == ["aa-suspect", "zz-suspect"])
    #expect(whole.tally(of: .labelText).examples == ["i2"])
  }

  @Test func aDigestSurvivesItsEncoding() {
    let digest = Self.digest(Self.sessions)
    #expect(SessionDigestCoding.decode(SessionDigestCoding.encode(digest)) == digest)
    #expect(SessionDigestCoding.decode(SessionDigestCoding.encode(SessionDigest())) == SessionDigest())
  }

  /// Cut short anywhere, or followed by anything, the bytes are not a digest.
  @Test func truncatedOrPaddedBytesAreNotADigest() {
    let bytes = SessionDigestCoding.encode(Self.digest(Self.sessions))
    for length in [0, 1, 8, 40, bytes.count / 2, bytes.count - 1] {
      #expect(SessionDigestCoding.decode(Array(bytes.prefix(length))) == nil, "\(length) bytes")
    }
    #expect(SessionDigestCoding.decode(bytes + [0]) == nil)
  }

  /// The report built from digests counted per cell is the report built from the sessions.
  @Test func aReportFromDigestsIsTheReportFromSessions() {
    let builder = ParityReportBuilder(profiles: SessionProfiles(stored: []))
    var digests = CellDigests(profiles: builder.profiles)
    // One digest per session, merged in reverse order, each counted with its app's profile.
    for session in Self.sessions.reversed() {
      var digest = SessionDigest()
      let profile = ReportFormatFixture.profiles.resolve(session.app)
      digest.add(session, profile: DigestProfile(profile))
      digests.add(digest, of: SessionCell(session))
    }
    let fromDigests = builder.build(context: ReportFormatFixture.context, digests: digests.byCell)
    #expect(fromDigests == builder.build(Self.sessions, context: ReportFormatFixture.context))
  }

  /// The checklist judges an app with the profile of its first session, which digests do not
  /// record: digests of one app under two profile versions are refused (the caller then reads
  /// the sessions), and under one version give the checklist of the sessions.
  @Test func theChecklistTakesDigestsOfOneProfileVersionPerApp() {
    let checklist = QAChecklist(profiles: SessionProfiles(stored: []))
    var digests = CellDigests(profiles: checklist.profiles)
    for session in Self.sessions { digests.add(session) }
    let fromDigests = checklist.evaluate(context: ReportFormatFixture.context, digests: digests.byCell)
    #expect(fromDigests == checklist.evaluate(sessions: Self.sessions, context: ReportFormatFixture.context))

    var second = Self.sessions[0]
    second.profileVersion = 3
    digests.add(second)
    #expect(checklist.evaluate(context: ReportFormatFixture.context, digests: digests.byCell) == nil)
  }

  /// A version 4 file: every day with a session is stale after the upgrade, and the first
  /// refresh counts it and leaves nothing stale.
  @Test func anUpgradedFileIsDigestedAtItsFirstRefresh() throws {
    let dir = try TemporaryDirectory()
    let path = dir.path("v4.sqlite")
    let queue = try OldSchemaFile.create(path, version: 4)
    try queue.write { db in
      for (ref, day) in [(1, 20_000), (2, 20_000), (3, 20_002)] {
        try db.execute(
          sql: """
            INSERT INTO sessions (session_ref, session_id, app, profile, profile_version, platform, empty, outcome,
                                  final_state, violation_count, event_count, started_at_ms, ended_at_ms)
            VALUES (?, ?, 'padel', 'padel', 1, 'ios', 0, 'cancelled', 'idle', 0, 3, ?, ?)
            """, arguments: [ref, "s\(ref)", Double(day) * 86_400_000 + 5, Double(day) * 86_400_000 + 9])
      }
    }
    let database = try PullParityDatabase(path: path)
    let stale = {
      try database.read { db in try Int64.fetchAll(db, sql: "SELECT day FROM stale_digest_days ORDER BY day") }
    }
    #expect(try stale() == [20_000, 20_002])
    #expect(try DigestRefresh.run(database) == DigestRefresh.Days(whole: 2))
    #expect(try stale() == [])
    let rows = try database.read { db in
      try Row.fetchAll(db, sql: "SELECT day, sessions, digest_version FROM session_digests ORDER BY day")
    }
    #expect(
      rows.map { [$0["day"], $0["sessions"], $0["digest_version"]] as [Int] } == [
        [20_000, 2, SessionDigestCoding.version], [20_002, 1, SessionDigestCoding.version],
      ])
    #expect(try DigestRefresh.run(database) == DigestRefresh.Days())
  }
}
