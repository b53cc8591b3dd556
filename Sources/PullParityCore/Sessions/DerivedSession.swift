/// A session as the pipeline stores it: who, judged by which profile, the metrics and findings.
public struct DerivedSession: Equatable, Sendable {
  public var sessionID: String
  public var app: String
  public var platform: String
  public var profileName: String
  public var profileVersion: Int
  public var appVersion: String?
  public var osVersion: String?
  public var device: String?
  public var screen: String?
  /// The first `install_id` its events carry (v1.1).
  public var installID: String?
  /// Any event of the session said the screen was empty.
  public var empty: Bool
  public var eventCount: Int
  public var startedAt: Double
  public var endedAt: Double
  public var finalPhase: SessionPhase
  public var metrics: SessionMetrics
  /// When its refresh started and when it ended (its indicator hid, or v1.2 its screen was
  /// left): what the next refresh on the same install and screen is judged against.
  public var refreshStartedAt: Double?
  public var refreshEndedAt: Double?
  /// The earliest horizon (see ``SessionContext``) at which a judgement still open can be made:
  /// the store derives the session again once its data has moved that far.
  public var judgeAgainAt: Double?
  /// In the order they were found: per event, then the end-of-session findings.
  public var violations: [Violation]
  /// v1.2: the judgements still waiting for the data, each with the time it must reach.
  public var pending: [PendingJudgement] = []
}
