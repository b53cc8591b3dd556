/// The profiles in force: the built-in ones, overridden or extended by a user's file.
public struct ProfileCatalog: Equatable, Sendable {
  public private(set) var profiles: [String: Profile]

  public init(_ profiles: [Profile] = BuiltInProfiles.all) {
    self.profiles = [:]
    for profile in profiles { self.profiles[profile.name] = profile }
  }

  /// Adds profiles, replacing any of the same name.
  public mutating func merge(_ overrides: [Profile]) {
    for profile in overrides { profiles[profile.name] = profile }
  }

  public subscript(name: String) -> Profile? { profiles[name] }

  /// The profile a session is judged by; an unknown name gets the unconstrained profile.
  public func resolve(_ name: String) -> Profile {
    profiles[name] ?? .unconstrained(named: name)
  }

  public var sortedByName: [Profile] { profiles.values.sorted { $0.name < $1.name } }
}
