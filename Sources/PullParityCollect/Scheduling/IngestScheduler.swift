import Dispatch
import Logging
import PullParityIngest
import PullParityReport
import PullParityStore
import ServiceLifecycle

/// Every `everySeconds`, closes the open spool file (if it holds anything) and ingests the
/// closed files, in this process, so the collector is the database's one writer and a
/// dashboard is at most about that long behind. A failure is logged and the files stay for the
/// next round.
struct IngestScheduler: Service {
  let spool: Spool
  let plan: ScheduledIngest
  let health: CollectorHealth
  let alerts: GateAlerts?
  let logger: Logger

  func run() async throws {
    await repeating(every: plan.everySeconds) { await ingestOnce() }
  }

  private func ingestOnce() async {
    do {
      try await spool.rotate()
      let ingest = SpoolIngest(directory: spool.directory, plan: plan)
      // An ingest blocks for as long as it takes: off the concurrency pool the server uses.
      let outcome = try await withCheckedThrowingContinuation { continuation in
        DispatchQueue.global().async { continuation.resume(with: Result { try ingest.run() }) }
      }
      health.ingestSucceeded()
      await alerts?.afterRound(ingested: outcome != nil)
      guard let summary = outcome else { return }
      log(summary)
      if let failure = summary.digests?.failure {
        logger.warning("the report digests were not brought up to date, retried next round: \(failure)")
      }
    } catch {
      health.ingestFailed(error)
      logger.error("scheduled ingest failed, retried next round: \(error)")
    }
  }

  private func log(_ summary: IngestSummary) {
    let c = summary.counts
    logger.info(
      "ingested \(summary.sources.count) spool files: \(c.eventsStored) events stored, \(c.duplicates) duplicates, \(c.quarantined) quarantined, \(c.sessionsDerived) sessions derived"
    )
    for error in summary.inputErrors { logger.error("scheduled ingest: \(error)") }
  }
}
