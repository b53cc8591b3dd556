import Foundation

/// When a report is made. `SOURCE_DATE_EPOCH` (seconds, the reproducible-builds convention) fixes
/// it, so that the same database gives a byte-identical report in tests and archived builds.
enum ReportClock {
  static func nowMs(environment: [String: String] = ProcessInfo.processInfo.environment) -> Double {
    if let fixed = environment["SOURCE_DATE_EPOCH"].flatMap(Double.init) { return fixed * 1000 }
    return Date().timeIntervalSince1970 * 1000
  }
}
