internal import PullParityCore
package import PullParityStore

/// An app's newest version on one platform and the version before it: the two cohorts a release
/// review compares (`pullparity compare`). Per platform, because a release ships per platform and
/// two platforms' versions compared would be a platform comparison, which the report makes.
package struct ReleasePair: Equatable, Sendable {
  package var app: String
  package var platform: String
  package var previous: String
  package var newest: String

  /// For each app and platform (in name order) with two versions or more among `sessions`, its
  /// two highest versions (`precedes`). Sessions without a version are left out.
  package static func pairs(_ sessions: [SessionRecord]) -> [ReleasePair] {
    var versions = Versions()
    for session in sessions { versions.add(SessionCell(session)) }
    return versions.pairs
  }

  /// The versions seen per app and platform, gathered cell by cell.
  package struct Versions: Sendable {
    private var seen: [ByteIdentity: [ByteIdentity: Set<ByteIdentity>]] = [:]

    package init() {}

    /// Notes the version of `cell`'s sessions; a cell without one is left out.
    package mutating func add(_ cell: SessionCell) {
      guard let version = cell.appVersion else { return }
      seen[ByteIdentity(cell.app), default: [:]][ByteIdentity(cell.platform), default: []].insert(
        ByteIdentity(version))
    }

    /// `ReleasePair.pairs` of the sessions added.
    package var pairs: [ReleasePair] {
      seen.sorted { $0.key < $1.key }.flatMap { app, platforms in
        platforms.sorted { $0.key < $1.key }.compactMap { platform, versions in
          let ordered = versions.map(\.text).sorted(by: precedes)
          guard ordered.count >= 2 else { return nil }
          return ReleasePair(
            app: app.text, platform: platform.text, previous: ordered[ordered.count - 2],
            newest: ordered[ordered.count - 1])
        }
      }
    }
  }

  /// Version order: dot-separated parts compared as numbers where both are digits (so 1.10 comes
  /// after 1.9), else byte by byte; a version that is a prefix of another comes first.
  package static func precedes(_ a: String, _ b: String) -> Bool {
    let left = a.split(separator: ".", omittingEmptySubsequences: false)
    let right = b.split(separator: ".", omittingEmptySubsequences: false)
    for (x, y) in zip(left, right) where ByteIdentity(String(x)) != ByteIdentity(String(y)) {
      if let p = UInt64(x), let q = UInt64(y), p != q { return p < q }
      return ByteIdentity(String(x)) < ByteIdentity(String(y))
    }
    return left.count != right.count ? left.count < right.count : ByteIdentity(a) < ByteIdentity(b)
  }
}
