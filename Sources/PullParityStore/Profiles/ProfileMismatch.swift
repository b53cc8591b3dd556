/// A profile the database's sessions were derived with that differs from the one a command would
/// derive with now: mixing the two would judge one app's sessions by two sets of rules.
package struct ProfileMismatch: Equatable, Sendable, CustomStringConvertible {
  package var name: String
  package var storedVersion: Int
  package var storedHash: String
  /// `nil` when the command has no profile of that name (its sessions would get no app rules).
  package var newVersion: Int?
  package var newHash: String

  package var description: String {
    let now = newVersion.map { $0 == 0 ? "no profile (v0)" : "\(name) v\($0)" } ?? "no profile"
    let same = newVersion == storedVersion ? " with other numbers (\(storedHash) → \(newHash))" : ""
    return "\(name): the database holds sessions derived with \(name) v\(storedVersion); this would use \(now)\(same)"
  }
}
