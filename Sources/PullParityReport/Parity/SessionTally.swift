internal import PullParityCore

/// How many sessions a rule or checklist item judged, how many of them failed it, and the first
/// few failing ids in id order: counted one session at a time (`add`), without collecting the
/// sessions themselves.
package struct SessionTally: Equatable, Sendable {
  /// Failing session ids a report names, in every format.
  package static let exampleLimit = 3

  package private(set) var judged = 0
  package private(set) var failing = 0
  /// The smallest failing ids in byte order (SQLite's, so that every path names the same ones:
  /// `String`'s order calls `é` and `e` + U+0301 equal), at most `exampleLimit`.
  package private(set) var examples: [String] = []

  /// Nothing counted yet.
  package init() {}

  /// A tally counted before (a stored digest's).
  init(judged: Int, failing: Int, examples: [String]) {
    (self.judged, self.failing, self.examples) = (judged, failing, examples)
  }

  /// Counts one judged session; its id is read only when it failed.
  package mutating func add(failed: Bool, id: @autoclosure () -> String) {
    judged += 1
    guard failed else { return }
    failing += 1
    let id = id()
    if examples.count == Self.exampleLimit {
      guard ByteIdentity(id) < ByteIdentity(examples[Self.exampleLimit - 1]) else { return }
      examples.removeLast()
    }
    // After any equal id, as a stable sort of all failing ids would keep them.
    let position = examples.firstIndex { ByteIdentity(id) < ByteIdentity($0) } ?? examples.endIndex
    examples.insert(id, at: position)
  }

  /// Adds the counts of sessions tallied apart (another day, another cell): the result is
  /// the tally of all of them counted together, examples included.
  package mutating func merge(_ other: SessionTally) {
    // Each example goes through `add`, which counts it as judged and failing once more.
    judged += other.judged - other.examples.count
    failing += other.failing - other.examples.count
    for id in other.examples { add(failed: true, id: id) }
  }

  package var rate: Rate { Rate(numerator: failing, denominator: judged) }
}
