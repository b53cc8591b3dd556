public import PullParityCore
public import PullParityStore

/// The kinds of violation each session has, for rules and checklist items that ask "did this
/// session break it?".
public struct ViolationIndex: Sendable {
  private var kinds: [String: Set<ViolationKind>] = [:]

  public init(_ violations: [ViolationRecord]) {
    for violation in violations {
      kinds[violation.sessionID, default: []].insert(violation.kind)
    }
  }

  public func session(_ id: String, has kind: ViolationKind) -> Bool { kinds[id]?.contains(kind) ?? false }
}
