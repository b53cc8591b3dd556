/// A profile the database's sessions were derived with that differs from the one a command would
/// derive with now: mixing the two would judge one app's sessions by two sets of rules.
public struct ProfileMismatch: Equatable, Sendable, CustomStringConvertible {
  public var name: String
  public var storedVersion: Int
  public var storedHash: String
  /// `nil` when the command has no profile of that name (its sessions would get no app rules).
  public var newVersion: Int?
  public var newHash: String

  public var description: String {
    let now = newVersion.map { $0 == 0 ? "no profile (v0)" : "\(name) v\($0)" } ?? "no profile"
    let same = newVersion == storedVersion ? " with other numbers (\(storedHash) → \(newHash))" : ""
    return "\(name): the database holds sessions derived with \(name) v\(storedVersion); this would use \(now)\(same)"
  }
}
