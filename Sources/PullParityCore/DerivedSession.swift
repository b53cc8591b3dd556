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
  /// Any event of the session said the screen was empty.
  public var empty: Bool
  public var eventCount: Int
  public var startedAt: Double
  public var endedAt: Double
  public var finalPhase: SessionPhase
  public var metrics: SessionMetrics
  /// In the order they were found: per event, then the end-of-session findings.
  public var violations: [Violation]
}
