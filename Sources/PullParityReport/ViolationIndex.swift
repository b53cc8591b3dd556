package import PullParityCore
package import PullParityStore

/// The kinds of violation each session has, for rules and checklist items that ask "did this
/// session break it?".
package struct ViolationIndex: Sendable {
  private var kinds: [ByteIdentity: Set<ViolationKind>] = [:]

  package init(_ violations: [ViolationRecord]) {
    for violation in violations {
      kinds[ByteIdentity(violation.sessionID), default: []].insert(violation.kind)
    }
  }

  package func session(_ id: String, has kind: ViolationKind) -> Bool { kinds[ByteIdentity(id)]?.contains(kind) ?? false }
}
