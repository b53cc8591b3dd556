import Foundation
internal import PullParityCore
package import PullParityStore

/// What a report was made from, printed by every format so that a report read later (a CI
/// artifact, a pasted table) says which data, filters, rules and thresholds it judged.
package struct ReportContext: Equatable, Sendable, Encodable {
  /// The database file as named on the command line.
  package var database: String
  package var filter: SessionFilter
  /// Start times (epoch ms) of the first and last session selected.
  package var firstSessionMs: Double?
  package var lastSessionMs: Double?
  /// The profiles the selected sessions were derived and judged with.
  package var profiles: [ProfileStamp]
  package var toolVersion: String
  /// When the report was made, epoch ms (injected: tests and reproducible builds fix it).
  package var generatedAtMs: Double
  package var tolerances: ParityTolerances
  package var policy: VerdictPolicy
  /// Selected sessions with more events than any gesture has, biggest first.
  package var suspectSessions: [SuspectSession] = []
  /// How many figures the gate judged together, once they are (`FamilyJudgement`).
  package var family: FamilyJudgement.Summary?
  /// v1.2: selected sessions whose judgement waits for the data, by app and platform.
  package var pending: [PendingCell] = []

  package init(
    database: String, filter: SessionFilter, toolVersion: String, generatedAtMs: Double,
    tolerances: ParityTolerances = .default, policy: VerdictPolicy = .default
  ) {
    self.database = database
    self.filter = filter
    self.profiles = []
    self.toolVersion = toolVersion
    self.generatedAtMs = generatedAtMs
    self.tolerances = tolerances
    self.policy = policy
  }

  /// Fills in what the selected sessions say: their time range and the suspect ones.
  mutating func span(_ sessions: [SessionRecord]) {
    for session in sessions { include(session) }
  }

  /// Counts one selected session into the time range, and among the suspects (biggest first,
  /// then in id order) when it is one.
  mutating func include(_ session: SessionRecord) {
    include(startedAtMs: session.startedAtMs)
    guard session.eventCount > SessionSize.suspectEventCount else { return }
    SuspectSession.insert(
      SuspectSession(sessionID: session.sessionID, events: session.eventCount), into: &suspectSessions)
  }

  /// Counts the sessions of a digest, as `include` counts each of them.
  mutating func include(_ digest: SessionDigest) {
    if let first = digest.firstStartedMs { include(startedAtMs: first) }
    if let last = digest.lastStartedMs { include(startedAtMs: last) }
    for suspect in digest.suspects { SuspectSession.insert(suspect, into: &suspectSessions) }
  }

  private mutating func include(startedAtMs: Double) {
    firstSessionMs = min(firstSessionMs ?? startedAtMs, startedAtMs)
    lastSessionMs = max(lastSessionMs ?? startedAtMs, startedAtMs)
  }

  enum CodingKeys: String, CodingKey {
    case database, filter, profiles, tolerances
    case firstSession = "first_session"
    case lastSession = "last_session"
    case toolVersion = "tool_version"
    case generatedAt = "generated_at"
    case minSessions = "min_sessions"
    case requireData = "require_data"
    case budgets = "budget_overrides"
    case suspectSessions = "suspect_sessions"
    case family = "figures_judged"
    case falseAlarmRate = "false_alarm_rate"
    case pending
  }

  package func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(database, forKey: .database)
    try container.encode(filter, forKey: .filter)
    try container.encode(firstSessionMs.map(Self.rfc3339), forKey: .firstSession)
    try container.encode(lastSessionMs.map(Self.rfc3339), forKey: .lastSession)
    try container.encode(profiles, forKey: .profiles)
    try container.encode(toolVersion, forKey: .toolVersion)
    try container.encode(Self.rfc3339(generatedAtMs), forKey: .generatedAt)
    try container.encode(tolerances, forKey: .tolerances)
    try container.encode(policy.minSessions, forKey: .minSessions)
    try container.encode(policy.requireData, forKey: .requireData)
    try container.encode(policy.budgets, forKey: .budgets)
    if let family {
      try container.encode(family, forKey: .family)
      try container.encode(FamilyJudgement.alpha, forKey: .falseAlarmRate)
    }
    if !suspectSessions.isEmpty { try container.encode(suspectSessions, forKey: .suspectSessions) }
    if !pending.isEmpty { try container.encode(pending, forKey: .pending) }
  }

  /// UTC with milliseconds: `2026-11-20T10:15:02.345Z`.
  package static func rfc3339(_ ms: Double) -> String {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    return formatter.string(from: Date(timeIntervalSince1970: ms / 1000))
  }
}
