public import PullParityCore
public import PullParityStore

/// The kinds of violation each session has, for rules and checklist items that ask "did this
/// session break it?".
public struct ViolationIndex: Sendable {
  private var kinds: [ByteIdentity: Set<ViolationKind>] = [:]

  public init(_ violations: [ViolationRecord]) {
    for violation in violations {
      kinds[ByteIdentity(violation.sessionID), default: []].insert(violation.kind)
    }
  }

  public func session(_ id: String, has kind: ViolationKind) -> Bool { kinds[ByteIdentity(id)]?.contains(kind) ?? false }
}
