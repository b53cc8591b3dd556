import Foundation
import Logging
import PullParityIngest
import PullParityReport
import PullParityStore

/// After each ingest round, judges the database's recent sessions per app and platform and
/// posts each change (`AlertLedger`) to the webhook, once: the ledger, kept in the spool
/// directory, is written after each message the webhook took, so neither a failed post nor a
/// restart loses or repeats one (a crash between the post and the write repeats that one).
actor GateAlerts {
  private let settings: AlertSettings
  private let webhook: Webhook
  private let databasePath: String
  private let ledgerPath: String
  private let logger: Logger
  private let metrics: CollectorMetrics
  /// Whether the verdicts may have changed, or a change is still unannounced, since the last
  /// round that announced everything.
  private var due = true

  init(
    _ settings: AlertSettings, databasePath: String, spool: SpoolDirectory, metrics: CollectorMetrics, logger: Logger
  ) throws {
    self.settings = settings
    webhook = try Webhook(settings.webhook)
    self.databasePath = databasePath
    ledgerPath = spool.path + "/.alerts.json"
    self.logger = logger
    self.metrics = metrics
  }

  /// Called after each round; `ingested`: whether it stored anything.
  func afterRound(ingested: Bool) async {
    due = due || ingested
    guard due else { return }
    do {
      try await announce()
      due = false
    } catch {
      metrics.alertFailed()
      logger.error("alerts: \(error); tried again after the next round")
    }
  }

  private func announce() async throws {
    let window = GateWindow(seconds: settings.windowSeconds)
    let (path, version) = (databasePath, ToolVersion.current)
    let reading = try await Self.offThePool {
      let database = try PullParityDatabase(path: path, readOnly: true)
      return try window.read(database, name: path, toolVersion: version, nowMs: Date().timeIntervalSince1970 * 1000)
    }
    guard let reading else { return }
    var ledger = try loadLedger()
    for change in ledger.changes(reading.readings) {
      let message = AlertMessage(
        change, sinceMs: reading.sinceMs, untilMs: reading.untilMs, database: databasePath, link: settings.link)
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
      try await webhook.post(try encoder.encode(message))
      ledger.record(change)
      try save(ledger)
      metrics.alertPosted(change.kind.rawValue)
      logger.info("alert posted: \(change.reading.gate.app) on \(change.reading.gate.platform) \(change.kind.rawValue)")
    }
  }

  /// A database read blocks: off the concurrency pool the server uses.
  private static func offThePool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
      DispatchQueue.global().async { continuation.resume(with: Result { try work() }) }
    }
  }

  private func loadLedger() throws -> AlertLedger {
    guard let data = FileManager.default.contents(atPath: ledgerPath) else { return AlertLedger() }
    do { return try JSONDecoder().decode(AlertLedger.self, from: data) } catch {
      throw WebhookError(message: "\(ledgerPath) is not an alert ledger: \(error)")
    }
  }

  /// Written whole, then renamed over the old one: a crash leaves one or the other.
  private func save(_ ledger: AlertLedger) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    try encoder.encode(ledger).write(to: URL(fileURLWithPath: ledgerPath), options: .atomic)
  }
}
