internal import PullParityCore

/// The keys and enumerated values a profile file may hold, built from the profile types' own
/// coding keys, so a field is accepted exactly when the decoder reads it. Decoding alone would
/// skip an unknown key silently: `"arm_treshold": 64` would leave a profile that never arms.
indirect enum ProfileFileShape: Sendable {
  /// An object with a closed set of keys.
  case object([String: ProfileFileShape])
  /// An object whose keys are names the user chooses (`screens`).
  case map(ProfileFileShape)
  /// An object whose keys come from a closed list (`budgets`: rule names).
  case keyed(by: [String], ProfileFileShape)
  /// A string from a closed list.
  case oneOf([String])
  /// A number, string or bool: its type is the decoder's to check.
  case scalar

  /// One profile entry.
  static let profile: ProfileFileShape = .object(
    Dictionary(uniqueKeysWithValues: Profile.CodingKeys.allCases.map { ($0.rawValue, shape(of: $0)) }))

  /// The whole file: `{"profiles": [ … ]}` or a bare array; the array's entries are profiles.
  /// `not_proposed` and `capped` are the notes `pullparity budgets --format json` writes beside
  /// its profiles (which rules kept their budget, which were held below 100 %): read by people.
  static let file: ProfileFileShape = .object(["profiles": .scalar, "not_proposed": .scalar, "capped": .scalar])

  private static func shape(of key: Profile.CodingKeys) -> ProfileFileShape {
    switch key {
    case .indicator:
      .object(
        Dictionary(
          uniqueKeysWithValues: IndicatorConfig.CodingKeys.allCases.map {
            ($0.rawValue, $0 == .kind ? .oneOf(IndicatorKind.allCases.map(\.rawValue)) : .scalar)
          }))
    case .labels: closed(LabelCopy.CodingKeys.allCases.map(\.rawValue))
    case .reveal: closed(RevealRule.CodingKeys.allCases.map(\.rawValue))
    case .unit: .oneOf(DistanceUnit.allCases.map(\.rawValue))
    case .screens: .map(.map(.scalar))
    case .budgets: .keyed(by: ProfileRule.allCases.map(\.rawValue), .scalar)
    case .name, .version, .resistance, .armThreshold, .minHoldMs, .hideSlackMs, .cacheInvalidationScreens,
      .errorMustBeShown, .referencePlatform, .stuckAfterMs, .refreshWithinMs, .repeatWithinMs, .refreshOnThreshold:
      .scalar
    }
  }

  private static func closed(_ keys: [String]) -> ProfileFileShape {
    .object(Dictionary(uniqueKeysWithValues: keys.map { ($0, .scalar) }))
  }

  /// The first place where `value` (from `JSONSerialization`) leaves this shape, as the field
  /// path and the problem, e.g. `("profiles[0].arm_treshold", "is not a profile key: did you
  /// mean arm_threshold? …")`.
  func firstMismatch(in value: Any, at path: String) -> (field: String, problem: String)? {
    switch self {
    case .scalar:
      return nil
    case .oneOf(let allowed):
      guard let text = value as? String, !allowed.contains(text) else { return nil }
      return (path, "\"\(text)\" is not allowed; use one of \(allowed.joined(separator: ", "))")
    case .object(let members):
      return Self.firstUnknownKey(in: value, at: path, known: members.keys.sorted()) { members[$0] }
    case .keyed(let keys, let member):
      return Self.firstUnknownKey(in: value, at: path, known: keys) { keys.contains($0) ? member : nil }
    case .map(let member):
      guard let object = value as? [String: Any] else { return nil }
      for key in object.keys.sorted() {
        if let mismatch = member.firstMismatch(in: object[key]!, at: Self.join(path, key)) { return mismatch }
      }
      return nil
    }
  }

  private static func firstUnknownKey(
    in value: Any, at path: String, known: [String], member: (String) -> ProfileFileShape?
  ) -> (field: String, problem: String)? {
    guard let object = value as? [String: Any] else { return nil }
    for key in object.keys.sorted() {
      guard let shape = member(key) else {
        let guess = NearestName.nearest(key, among: known).map { ": did you mean \($0)?" } ?? "."
        return (join(path, key), "unknown key\(guess) Known keys: \(known.joined(separator: ", ")).")
      }
      if let mismatch = shape.firstMismatch(in: object[key]!, at: join(path, key)) { return mismatch }
    }
    return nil
  }

  private static func join(_ path: String, _ key: String) -> String {
    path.isEmpty ? key : "\(path).\(key)"
  }
}
