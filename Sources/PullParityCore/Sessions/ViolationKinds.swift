/// The kinds of violation one session has, as bits: reports ask "did this session break it?"
/// for every rule of every session, and a bit test answers that without keying a dictionary by
/// session id.
package struct ViolationKinds: OptionSet, Hashable, Sendable {
  package let rawValue: Int

  package init(rawValue: Int) {
    self.rawValue = rawValue
  }

  /// One bit per kind, by its position in `ViolationKind.allCases` (a search: make the set
  /// once, outside a loop over sessions).
  package init(_ kind: ViolationKind) {
    self.init(rawValue: 1 << ViolationKind.allCases.firstIndex(of: kind)!)
  }

  package init<S: Sequence>(kinds: S) where S.Element == ViolationKind {
    self.init(rawValue: kinds.reduce(0) { $0 | ViolationKinds($1).rawValue })
  }
}
