internal import PullParityCore

/// The `session_digests` columns a report reads, found by name once per read.
struct StoredDigestColumns {
  private let day, app, profile, profileVersion, platform, trigger, screen, appVersion, sessions, digest: Int32
  private let outcomes: [(SessionOutcome, Int32)]

  init(_ s: RawStatement) {
    (day, app, profile, profileVersion) = (
      s.column("day"), s.column("app"), s.column("profile"), s.column("profile_version")
    )
    (platform, trigger, screen) = (s.column("platform"), s.column("trigger"), s.column("screen"))
    (appVersion, sessions, digest) = (s.column("app_version"), s.column("sessions"), s.column("digest"))
    outcomes = SessionOutcome.allCases.map { ($0, s.column($0.rawValue)) }
  }

  func digest(_ s: RawStatement, version: Int) -> StoredDigest {
    let cell = SessionCell(
      app: s.string(app), profile: s.string(profile), profileVersion: Int(s.int64(profileVersion)),
      platform: s.string(platform), trigger: s.optionalString(trigger), screen: s.optionalString(screen),
      appVersion: s.optionalString(appVersion))
    return StoredDigest(
      day: s.int64(day), cell: cell, sessions: Int(s.int64(sessions)),
      outcomes: Dictionary(uniqueKeysWithValues: outcomes.map { ($0.0, Int(s.int64($0.1))) }), version: version,
      bytes: Array(s.bytes(digest)))
  }
}
