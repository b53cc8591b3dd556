public import PullParityCore

/// An event as one line of the contract's JSON (docs/events.md §1–2), without the line end.
public enum EventLineEncoder {
  public static func line(for event: Event) -> String {
    var json = JSONObjectWriter()
    json.string("event_id", event.eventID)
    json.string("session_id", event.sessionID)
    json.number("ts", event.timestamp)
    json.integer("seq", event.seq)
    json.string("platform", event.platform)
    json.string("app", event.app)
    json.string("type", event.type.rawValue)
    appendPayload(event.payload, to: &json)
    json.string("profile", event.profile)
    json.string("app_version", event.appVersion)
    json.string("os_version", event.osVersion)
    json.string("device", event.device)
    json.string("screen", event.screen)
    json.bool("empty", event.empty)
    json.string("install_id", event.installID)
    return json.finished
  }

  private static func appendPayload(_ payload: EventPayload, to json: inout JSONObjectWriter) {
    switch payload {
    case .pullStart, .indicatorHidden, .scrollToTop, .fetchStart, .contentCleared:
      break
    case .pullMove(let distance, let offset):
      json.number("distance", distance)
      json.number("offset", offset)
    case .armed(let distance), .disarmed(let distance), .release(let distance):
      json.number("distance", distance)
    case .cancel(let reason), .screenLeft(let reason):
      json.string("reason", reason)
    case .label(let text, let state):
      json.string("text", text)
      json.string("state", state.rawValue)
    case .refreshStart(let trigger, let observed):
      json.string("trigger", trigger.rawValue)
      if !observed { json.bool("gesture_observed", false) }
    case .indicatorShown(let config):
      guard let config else { break }
      json.object("indicator", indicator(config))
    case .reveal(let progress, let visible):
      json.number("progress", progress)
      json.integer("visible", visible)
    case .cacheInvalidated(let key):
      json.string("key", key)
    case .loadComplete(let ok, let error):
      json.bool("ok", ok)
      json.string("error", error)
    case .errorShown(let message):
      json.string("message", message)
    }
  }

  private static func indicator(_ config: IndicatorConfig) -> JSONObjectWriter {
    var json = JSONObjectWriter()
    json.string("kind", config.kind?.rawValue)
    json.integer("count", config.count)
    json.number("stagger_ms", config.staggerMs)
    json.number("cycle_ms", config.cycleMs)
    return json
  }
}
