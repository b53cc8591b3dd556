import Foundation

/// Hand-made padel logs for the failures users file: forty pulls a platform and app version,
/// each a correct refresh unless its variant plants one failure. The correct refresh keeps
/// every padel rule (drawn offsets exact, samples 2 px apart, hidden 1300 ms after shown and
/// 800 ms after the load), so a report on a log of correct ones alone passes.
struct FieldFailureLog {
  enum Variant: String, Sendable, CaseIterable {
    case correct
    /// The indicator never hides: `refresh_start`, `indicator_shown`, then nothing.
    case stuck
    /// Released past the threshold, no `refresh_start` ever.
    case dropped
    /// `refresh_start` while the finger is still down, past the threshold.
    case early
    /// A second `pull_start` while the refresh runs.
    case unexpected
    /// Every pull's refresh is fired again by the app (`onRefresh` twice, no gesture) 610 ms
    /// after it started, while it still runs, on the same install: v1.2's repeated refresh.
    case repeated
  }

  private(set) var lines: [String] = []
  private var counter = 0

  /// Forty sessions of `variant` for `platform` at `version`, a minute apart from `startMs`.
  mutating func add(_ variant: Variant, platform: String, version: String, startMs: Double, count: Int = 40) {
    for index in 0..<count {
      let start = startMs + Double(index) * 60_000
      let install = "\(platform)-\(version)-install-\(index % 10)"
      pull(variant, platform: platform, version: version, at: start, install: install)
      if variant == .repeated {
        // The same install and screen refreshes again, without a pull, while the first runs.
        refresh(platform: platform, version: version, at: start + 1_040, install: install, session: nil)
      }
    }
  }

  private mutating func pull(_ variant: Variant, platform: String, version: String, at t: Double, install: String) {
    let session = nextID("s")
    var events: [(Double, String)] = [(t, #""type":"pull_start""#)]
    // 0 → 50 px in 2 px steps every 16 ms; 34 px (24.48 drawn) arms.
    for step in 1...25 {
      let distance = Double(step * 2)
      events.append(
        (t + Double(step) * 16, #""type":"pull_move","distance":\#(distance),"offset":\#(distance * 0.72)"#))
    }
    let released = t + 25 * 16 + 10
    if variant == .early { events.append((released - 5, #""type":"refresh_start","trigger":"pull""#)) }
    events.append((released, #""type":"release","distance":50"#))
    write(events, session: session, platform: platform, version: version, install: install)
    switch variant {
    case .dropped: return
    case .early:
      refresh(platform: platform, version: version, at: released + 5, install: install, session: session, started: true)
    case .stuck: stuck(platform: platform, version: version, at: released + 20, install: install, session: session)
    case .unexpected:
      refresh(platform: platform, version: version, at: released + 20, install: install, session: session)
      write(
        [(released + 100, #""type":"pull_start""#)], session: session, platform: platform, version: version,
        install: install)
    case .correct, .repeated:
      refresh(platform: platform, version: version, at: released + 20, install: install, session: session)
    }
  }

  /// A refresh held 1300 ms; a new session (started from the app's callback) when `session` is nil.
  private mutating func refresh(
    platform: String, version: String, at t: Double, install: String, session: String?, started: Bool = false
  ) {
    let id = session ?? nextID("s")
    var events: [(Double, String)] = []
    if !started {
      let observed = session == nil ? #","gesture_observed":false"# : ""
      events.append((t, #""type":"refresh_start","trigger":"pull""# + observed))
    }
    events += [
      (t + 10, #""type":"indicator_shown","indicator":{"kind":"balls","count":4,"stagger_ms":120,"cycle_ms":800}"#),
      (t + 510, #""type":"load_complete","ok":true"#), (t + 1310, #""type":"indicator_hidden""#),
    ]
    write(events, session: id, platform: platform, version: version, install: install)
  }

  private mutating func stuck(platform: String, version: String, at t: Double, install: String, session: String) {
    write(
      [
        (t, #""type":"refresh_start","trigger":"pull""#),
        (t + 10, #""type":"indicator_shown","indicator":{"kind":"balls","count":4,"stagger_ms":120,"cycle_ms":800}"#),
      ], session: session, platform: platform, version: version, install: install)
  }

  private mutating func write(
    _ events: [(Double, String)], session: String, platform: String, version: String, install: String
  ) {
    for (t, body) in events {
      let id = nextID("e")
      lines.append(
        #"{"event_id":"\#(id)","session_id":"\#(session)","ts":\#(t),"platform":"\#(platform)","app":"padel","#
          + body + #","app_version":"\#(version)","screen":"feed","install_id":"\#(install)"}"#)
    }
  }

  private mutating func nextID(_ prefix: String) -> String {
    counter += 1
    return "\(prefix)\(counter)"
  }
}
