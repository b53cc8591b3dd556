package import Foundation
package import PullParityCore

/// Loads user profiles from JSON: `{"profiles": [ … ]}` or a bare array of profiles, keyed as
/// `pullparity profiles --format json` prints them. A profile named like a built-in one
/// replaces it whole.
package enum ProfileFile {
  package static func load(path: String) throws -> [Profile] {
    guard let data = FileManager.default.contents(atPath: path) else {
      throw ProfileFileError(path: path, field: "", problem: "cannot read the file")
    }
    return try parse(data, path: path)
  }

  package static func parse(_ data: Data, path: String) throws -> [Profile] {
    try checkStrictJSON(data, path: path)
    let profiles: [Profile]
    do {
      let decoder = JSONDecoder()
      if try checkShape(data, path: path) {
        profiles = try decoder.decode([Profile].self, from: data)
      } else {
        profiles = try decoder.decode(Wrapper.self, from: data).profiles
      }
    } catch let error as DecodingError {
      throw describe(error, path: path)
    }
    var names = Set<String>()
    for (index, profile) in profiles.enumerated() {
      try validate(profile, at: "profiles[\(index)]", path: path)
      guard names.insert(profile.name).inserted else {
        throw ProfileFileError(
          path: path, field: "profiles[\(index)].name", problem: "\"\(profile.name)\" is defined twice")
      }
    }
    return profiles
  }

  /// Foundation's reader accepts trailing commas, so the file first goes through simdjson, which
  /// holds to RFC 8259: no trailing commas, no comments, no NaN.
  private static func checkStrictJSON(_ data: Data, path: String) throws {
    var parser = SimdjsonLineParser()
    let result = data.withUnsafeBytes { parser.extractFields($0, readableCount: $0.count) }
    if case .failure(let rejection) = result, rejection.reason != .notAnObject {
      throw ProfileFileError(
        path: path, field: "",
        problem: "not valid JSON (RFC 8259: no trailing commas, comments or NaN)")
    }
  }

  /// Rejects keys the decoder would skip and enumerated values it would not know, naming the
  /// path and the allowed values. Returns whether the file is a bare array of profiles.
  private static func checkShape(_ data: Data, path: String) throws -> Bool {
    let root: Any
    do {
      root = try JSONSerialization.jsonObject(with: data)
    } catch {
      // RFC 8259 sets no depth limit, so simdjson passed it; Foundation stops at 512 levels.
      let detail = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? "\(error)"
      throw ProfileFileError(path: path, field: "", problem: "not a profile file: \(detail)")
    }
    let entries: [Any]
    if let array = root as? [Any] {
      entries = array
    } else {
      if let mismatch = ProfileFileShape.file.firstMismatch(in: root, at: "") {
        throw ProfileFileError(path: path, field: mismatch.field, problem: mismatch.problem)
      }
      entries = ((root as? [String: Any])?["profiles"] as? [Any]) ?? []
    }
    for (index, entry) in entries.enumerated() {
      if let mismatch = ProfileFileShape.profile.firstMismatch(in: entry, at: "profiles[\(index)]") {
        throw ProfileFileError(path: path, field: mismatch.field, problem: mismatch.problem)
      }
    }
    return root is [Any]
  }

  private struct Wrapper: Decodable {
    var profiles: [Profile]
  }

  private static func validate(_ p: Profile, at prefix: String, path: String) throws {
    func fail(_ field: String, _ problem: String) -> ProfileFileError {
      ProfileFileError(path: path, field: "\(prefix).\(field)", problem: problem)
    }
    guard !p.name.isEmpty else { throw fail("name", "must not be empty") }
    guard p.version >= 1 else { throw fail("version", "must be 1 or more, got \(p.version)") }
    if let threshold = p.armThreshold, !(threshold > 0) {
      throw fail(
        "arm_threshold", "must be more than 0 (or null to trust the client), got \(NumberText.format(threshold))")
    }
    if let problem = p.resistance.problem { throw fail("resistance", problem) }
    for (field, value) in [
      ("stuck_after_ms", p.stuckAfterMs), ("refresh_within_ms", p.refreshWithinMs),
      ("repeat_within_ms", p.repeatWithinMs),
    ] where !(value > 0 && value.isFinite) {
      throw fail(field, "must be more than 0, got \(NumberText.format(value))")
    }
    guard p.minHoldMs >= 0, p.minHoldMs.isFinite else {
      throw fail("min_hold_ms", "must be 0 or more, got \(NumberText.format(p.minHoldMs))")
    }
    guard p.hideSlackMs >= 0, p.hideSlackMs.isFinite else {
      throw fail("hide_slack_ms", "must be 0 or more, got \(NumberText.format(p.hideSlackMs))")
    }
    if let indicator = p.indicator {
      if let count = indicator.count, count < 1 { throw fail("indicator.count", "must be 1 or more, got \(count)") }
      if let stagger = indicator.staggerMs, stagger < 0 { throw fail("indicator.stagger_ms", "must be 0 or more") }
      if let cycle = indicator.cycleMs, !(cycle > 0) { throw fail("indicator.cycle_ms", "must be more than 0") }
    }
    if let labels = p.labels {
      for state in LabelState.allCases where labels.text(for: state).isEmpty {
        throw fail("labels.\(state.rawValue)", "must not be empty")
      }
    }
    try validatePlatforms(p, fail)
    if let reveal = p.reveal {
      guard reveal.bars >= 1 else { throw fail("reveal.bars", "must be 1 or more, got \(reveal.bars)") }
      guard reveal.progressStep > 0, reveal.progressStep <= 1 else {
        throw fail("reveal.progress_step", "must be in (0, 1], got \(NumberText.format(reveal.progressStep))")
      }
      guard reveal.fullPullDistance > 0 else { throw fail("reveal.full_pull_distance", "must be more than 0") }
    }
  }

  /// The reference platform and the platforms `screens` names must be platforms an event can
  /// carry (a lowercase token), like the events' own `platform`.
  private static func validatePlatforms(_ p: Profile, _ fail: (String, String) -> ProfileFileError) throws {
    let problem = "must be a lowercase token, as events name platforms (pwa, ios, android, …)"
    if let reference = p.referencePlatform, !PlatformToken.isValid(reference) {
      throw fail("reference_platform", problem)
    }
    for (screen, names) in p.screens.sorted(by: { $0.key < $1.key }) {
      for platform in names.keys.sorted() where !PlatformToken.isValid(platform) {
        throw fail("screens.\(screen)", "platform \"\(platform)\" " + problem)
      }
    }
  }

  private static func describe(_ error: DecodingError, path: String) -> ProfileFileError {
    func field(_ codingPath: [any CodingKey]) -> String {
      var text = ""
      for key in codingPath {
        if let index = key.intValue {
          text += "[\(index)]"
        } else {
          text += text.isEmpty ? key.stringValue : ".\(key.stringValue)"
        }
      }
      return text
    }
    switch error {
    case .keyNotFound(let key, let context):
      let parent = field(context.codingPath)
      return ProfileFileError(
        path: path, field: parent.isEmpty ? key.stringValue : "\(parent).\(key.stringValue)",
        problem: "is required")
    case .typeMismatch(let type, let context), .valueNotFound(let type, let context):
      return ProfileFileError(path: path, field: field(context.codingPath), problem: "must be \(typeName(type))")
    case .dataCorrupted(let context):
      if context.codingPath.isEmpty {
        return ProfileFileError(path: path, field: "", problem: "not valid JSON")
      }
      return ProfileFileError(path: path, field: field(context.codingPath), problem: context.debugDescription)
    @unknown default:
      return ProfileFileError(path: path, field: "", problem: "\(error)")
    }
  }

  private static func typeName(_ type: Any.Type) -> String {
    switch type {
    case is Double.Type, is Int.Type: "a number"
    case is String.Type: "a string"
    case is Bool.Type: "true or false"
    case is [String].Type: "an array of strings"
    default: "\(type)".lowercased()
    }
  }
}
