/// What each app's platform was last announced as, so that a change is announced once: a
/// platform that starts failing, and one announced failing that passes again. Kept between
/// rounds (and restarts) by its owner; a reading without a verdict (too few sessions) changes
/// nothing, so a quiet hour neither recovers nor fails a platform.
package struct AlertLedger: Equatable, Sendable, Codable {
  /// Only platforms announced failing are kept: one never announced is as good as passing.
  package private(set) var failing: [PlatformGate] = []

  package init(failing: [PlatformGate] = []) {
    self.failing = failing.sorted()
  }

  /// The changes `readings` announce, in gate order.
  package func changes(_ readings: [GateReading]) -> [GateChange] {
    readings.compactMap { reading in
      let announced = failing.contains(reading.gate)
      switch reading.status {
      case .failing? where !announced: return GateChange(kind: .failing, reading: reading)
      case .passing? where announced: return GateChange(kind: .recovered, reading: reading)
      default: return nil
      }
    }
  }

  /// Notes `change` as announced.
  package mutating func record(_ change: GateChange) {
    failing.removeAll { $0 == change.reading.gate }
    if change.kind == .failing { failing = (failing + [change.reading.gate]).sorted() }
  }
}

/// An app's platform that started failing, or passes again after it was announced failing.
package struct GateChange: Equatable, Sendable {
  package enum Kind: String, Sendable, Codable {
    case failing
    case recovered
  }

  package var kind: Kind
  package var reading: GateReading
}
