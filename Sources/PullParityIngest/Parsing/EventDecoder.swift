package import PullParityCore

/// Applies the contract's field rules (§1–2, §9) to what a parser extracted, whichever parser
/// it was. Every rejection names the field and what was wrong with it.
package enum EventDecoder {
  /// Timestamps outside this window are rejected as absurd: they are almost always seconds
  /// sent as milliseconds, or a zeroed clock. 2000-01-01 to 2100-01-01, UTC.
  package static let plausibleTimestamps: Range<Double> = 946_684_800_000..<4_102_444_800_000
  package static let maxIdentifierLength = 128
  /// The longest dimension (`app`, `platform`, `profile`, `screen`, `app_version`, `os_version`,
  /// `device`: what reports group, filter and print by), in Unicode code points. Names are
  /// short (the longest Android build fingerprint is under 100); without a bound, 40 lines of
  /// 1 MiB names made a 755 MB report. Code points, not characters, because one character may
  /// carry any number of combining marks: 128 code points are at most 512 bytes, and JSON
  /// Schema's `maxLength` counts the same way.
  package static let maxDimensionLength = 128
  /// Bump whenever a rule here changes what a line turns into: chunks ingested under other
  /// rules are then read afresh instead of being skipped as already seen. 2: the parsers'
  /// limits no longer reject lines for unknown fields; lines over the length limit; a leading
  /// byte order mark. 3: dimensions longer than `maxDimensionLength`; `install_id` and
  /// `refresh_start`'s `gesture_observed` (v1.1).
  package static let rulesVersion = 3

  package static func decode(_ fields: some EventFieldSource) -> Result<Event, Rejection> {
    do {
      return .success(try decodeEvent(fields))
    } catch let rejection as Rejection {
      return .failure(rejection)
    } catch {
      return .failure(Rejection(.invalidValue, "\(error)"))
    }
  }

  private static func decodeEvent(_ f: some EventFieldSource) throws -> Event {
    let eventID = try identifier(f, .eventID)
    let sessionID = try identifier(f, .sessionID)
    let typeName = try requiredString(f, .type)
    guard let type = eventType(named: typeName) else {
      throw Rejection(.unknownType, "`type` \(quoted(typeName)) is not an event type")
    }
    let timestamp = try decodeTimestamp(f[.ts])
    let platform = try requiredString(f, .platform)
    guard PlatformToken.isValid(platform) else {
      throw Rejection(.invalidValue, "`platform` \(quoted(platform)) must be a non-empty lowercase token")
    }
    let app = try requiredString(f, .app)
    guard !app.isEmpty else { throw Rejection(.invalidValue, "`app` must not be empty") }
    try checkDimension(platform, .platform)
    try checkDimension(app, .app)

    return Event(
      eventID: eventID,
      sessionID: sessionID,
      timestamp: timestamp,
      seq: try optionalInteger(f, .seq),
      platform: platform,
      app: app,
      profile: try checkDimension(optionalString(f, .profile), .profile),
      appVersion: try checkDimension(descriptiveText(f, .appVersion), .appVersion),
      osVersion: try checkDimension(descriptiveText(f, .osVersion), .osVersion),
      device: try checkDimension(descriptiveText(f, .device), .device),
      screen: try checkDimension(optionalString(f, .screen), .screen),
      empty: try optionalBool(f, .empty),
      installID: try optionalIdentifier(f, .installID),
      payload: try decodePayload(type, f)
    )
  }

  private static func decodePayload(_ type: EventType, _ f: some EventFieldSource) throws -> EventPayload {
    switch type {
    case .pullStart: return .pullStart
    case .pullMove: return .pullMove(distance: try distance(f), offset: try optionalNumber(f, .offset))
    case .armed: return .armed(distance: try distance(f))
    case .disarmed: return .disarmed(distance: try distance(f))
    case .release: return .release(distance: try distance(f))
    case .cancel: return .cancel(reason: descriptiveText(f, .reason))
    case .label:
      let text = try requiredString(f, .text)
      let state: LabelState = try requiredEnum(f, .state)
      return .label(text: text, state: state)
    case .refreshStart:
      let trigger: RefreshTrigger? = try optionalEnum(f, .trigger)
      let observed = try optionalBool(f, .gestureObserved) ?? true
      return .refreshStart(trigger: trigger ?? .pull, gestureObserved: observed)
    case .indicatorShown: return .indicatorShown(try indicator(f))
    case .indicatorHidden: return .indicatorHidden
    case .reveal:
      let progress = try requiredNumber(f, .progress)
      guard progress >= 0, progress <= 1 else {
        throw Rejection(.invalidValue, "`progress` \(NumberText.format(progress)) must be between 0 and 1")
      }
      guard let visible = try optionalInteger(f, .visible) else {
        throw Rejection(.missingField, "missing field `visible` (required for reveal)")
      }
      guard visible >= 0 else { throw Rejection(.invalidValue, "`visible` must be ≥ 0") }
      return .reveal(progress: progress, visible: visible)
    case .scrollToTop: return .scrollToTop
    case .cacheInvalidated: return .cacheInvalidated(key: try requiredString(f, .key))
    case .fetchStart: return .fetchStart
    case .loadComplete:
      guard let ok = try optionalBool(f, .ok) else {
        throw Rejection(.missingField, "missing field `ok` (required for load_complete)")
      }
      return .loadComplete(ok: ok, error: descriptiveText(f, .error))
    case .errorShown: return .errorShown(message: descriptiveText(f, .message))
    case .contentCleared: return .contentCleared
    case .screenLeft: return .screenLeft(reason: descriptiveText(f, .reason))
    }
  }

  // MARK: - Field rules

  private static func decodeTimestamp(_ value: JSONValue?) throws -> Double {
    let ms: Double
    switch value {
    case nil: throw Rejection(.missingField, "missing field `ts`")
    case .number(let number): ms = number
    case .string(let text):
      guard let parsed = RFC3339Timestamp.epochMilliseconds(text) else {
        throw Rejection(
          .badTimestamp, "`ts` \(quoted(text)) is not an RFC 3339 timestamp with a UTC offset")
      }
      ms = parsed
    case .some(let other):
      throw Rejection(.wrongType, "`ts` must be a number (epoch ms) or an RFC 3339 string, got \(other.typeName)")
    }
    guard plausibleTimestamps.contains(ms) else {
      throw Rejection(
        .badTimestamp,
        "`ts` \(NumberText.format(ms)) is outside 2000–2100 in epoch milliseconds (seconds sent as ms?)")
    }
    return ms
  }

  private static func identifier(_ f: some EventFieldSource, _ field: EventField) throws -> String {
    let value = try requiredString(f, field)
    guard !value.isEmpty else { throw Rejection(.invalidValue, "`\(field.path)` must not be empty") }
    // Counting characters is only needed when the bytes could exceed the limit.
    if value.utf8.count > maxIdentifierLength, value.count > maxIdentifierLength {
      throw Rejection(
        .invalidValue, "`\(field.path)` is \(value.count) characters, more than \(maxIdentifierLength)")
    }
    return value
  }

  /// An identifier the contract makes optional (`install_id`): absent or null is none, anything
  /// else obeys the same rules as the required ones.
  private static func optionalIdentifier(_ f: some EventFieldSource, _ field: EventField) throws -> String? {
    switch f[field] {
    case nil, .null: return nil
    default: return try identifier(f, field)
    }
  }

  /// `value` when it is at most `maxDimensionLength` code points long.
  @discardableResult
  private static func checkDimension(_ value: String?, _ field: EventField) throws -> String? {
    // Counting code points is only needed when the bytes could exceed the limit.
    guard let value, value.utf8.count > maxDimensionLength else { return value }
    let count = value.unicodeScalars.count
    guard count <= maxDimensionLength else {
      throw Rejection(
        .invalidValue, "`\(field.path)` is \(count) code points long, more than \(maxDimensionLength)")
    }
    return value
  }

  private static func distance(_ f: some EventFieldSource) throws -> Double {
    let value = try requiredNumber(f, .distance)
    guard value >= 0 else {
      throw Rejection(.invalidValue, "`distance` \(NumberText.format(value)) must be ≥ 0")
    }
    return value
  }

  private static func requiredString(_ f: some EventFieldSource, _ field: EventField) throws -> String {
    switch f[field] {
    case .string(let value): return value
    case nil: throw Rejection(.missingField, "missing field `\(field.path)`")
    case .some(let other): throw wrongType(field, "a string", other)
    }
  }

  private static func optionalString(_ f: some EventFieldSource, _ field: EventField) throws -> String? {
    switch f[field] {
    case .string(let value): return value
    case nil, .null: return nil
    case .some(let other): throw wrongType(field, "a string", other)
    }
  }

  /// Fields that only describe (versions, device, error texts) and decide nothing: a number
  /// is kept as its text (`"app_version": 2`), any other type is left to the raw line rather
  /// than costing the event (`"error": {"code": 500}`).
  private static func descriptiveText(_ f: some EventFieldSource, _ field: EventField) -> String? {
    switch f[field] {
    case .string(let value): value
    case .number(let value): NumberText.format(value)
    default: nil
    }
  }

  private static func requiredNumber(_ f: some EventFieldSource, _ field: EventField) throws -> Double {
    guard let value = try optionalNumber(f, field) else {
      throw Rejection(.missingField, "missing field `\(field.path)`")
    }
    return value
  }

  private static func optionalNumber(_ f: some EventFieldSource, _ field: EventField) throws -> Double? {
    switch f[field] {
    case .number(let value): return value
    case nil, .null: return nil
    case .some(let other): throw wrongType(field, "a number", other)
    }
  }

  private static func optionalInteger(_ f: some EventFieldSource, _ field: EventField) throws -> Int? {
    guard let value = try optionalNumber(f, field) else { return nil }
    guard value == value.rounded(), abs(value) < 9.0e15 else {
      throw Rejection(.wrongType, "`\(field.path)` must be an integer, got \(NumberText.format(value))")
    }
    return Int(value)
  }

  private static func optionalBool(_ f: some EventFieldSource, _ field: EventField) throws -> Bool? {
    switch f[field] {
    case .bool(let value): return value
    case nil, .null: return nil
    case .some(let other): throw wrongType(field, "a boolean", other)
    }
  }

  private static func requiredEnum<T: RawRepresentable & CaseIterable>(
    _ f: some EventFieldSource, _ field: EventField
  ) throws -> T where T.RawValue == String {
    guard let value: T = try optionalEnum(f, field) else {
      throw Rejection(.missingField, "missing field `\(field.path)`")
    }
    return value
  }

  private static func optionalEnum<T: RawRepresentable & CaseIterable>(
    _ f: some EventFieldSource, _ field: EventField
  ) throws -> T? where T.RawValue == String {
    guard let text = try optionalString(f, field) else { return nil }
    guard let value = T(rawValue: text) else {
      let allowed = T.allCases.map(\.rawValue).joined(separator: ", ")
      throw Rejection(.invalidValue, "`\(field.path)` \(quoted(text)) is not one of \(allowed)")
    }
    return value
  }

  private static func indicator(_ f: some EventFieldSource) throws -> IndicatorConfig? {
    switch f[.indicator] {
    case nil, .null: return nil
    case .object: break
    case .some(let other): throw wrongType(.indicator, "an object", other)
    }
    let count = try optionalInteger(f, .indicatorCount)
    return IndicatorConfig(
      kind: try optionalEnum(f, .indicatorKind),
      count: count,
      staggerMs: try optionalNumber(f, .indicatorStaggerMs),
      cycleMs: try optionalNumber(f, .indicatorCycleMs)
    )
  }

  private static func wrongType(_ field: EventField, _ expected: String, _ got: JSONValue) -> Rejection {
    Rejection(.wrongType, "`\(field.path)` must be \(expected), got \(got.typeName)")
  }

  /// `EventType(rawValue:)` hashes the name on every call (1 % of an ingest's CPU in `perf`); the
  /// names are few and short, so they are compared in turn, the commonest first.
  private static let typesByName = ([.pullMove] + EventType.allCases.filter { $0 != .pullMove })
    .map { (name: $0.rawValue, type: $0) }

  private static func eventType(named name: String) -> EventType? {
    typesByName.first { $0.name == name }?.type
  }

  private static func quoted(_ text: String) -> String {
    let shown = text.count > 40 ? String(text.prefix(40)) + "…" : text
    return "\"\(shown)\""
  }
}
