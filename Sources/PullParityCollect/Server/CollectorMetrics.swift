import Foundation
import Metrics
import Prometheus

/// The collector's figures for `GET /metrics` in Prometheus's text format: swift-metrics objects
/// made by a Prometheus factory over the collector's own registry (not the process-wide
/// `MetricsSystem`, which can be bootstrapped once: two collectors in one process, as in the
/// tests, keep their own figures). docs/collector.md lists them.
final class CollectorMetrics: Sendable {
  let registry = PrometheusCollectorRegistry()
  private let factory: PrometheusMetricsFactory
  private let bodies: Metrics.Counter
  private let bytes: Metrics.Counter
  private let sync: Metrics.Timer
  private let spoolBytes: Metrics.Gauge
  private let ingestLag: Metrics.Gauge
  private let lastIngest: Metrics.Gauge
  private let buffered: Metrics.Gauge
  private let connections: Metrics.Gauge
  private let alertFailures: Metrics.Counter

  init() {
    var factory = PrometheusMetricsFactory(registry: registry)
    // fdatasync takes a millisecond on a quiet SSD and a second on a struggling disk.
    factory.defaultDurationHistogramBuckets = [1, 2, 5, 10, 25, 50, 100, 250, 500, 1000, 2500].map {
      Duration.milliseconds($0)
    }
    self.factory = factory
    bodies = Metrics.Counter(label: "pullparity_collect_bodies_acknowledged_total", factory: factory)
    bytes = Metrics.Counter(label: "pullparity_collect_body_bytes_acknowledged_total", factory: factory)
    sync = Metrics.Timer(label: "pullparity_collect_spool_sync_seconds", factory: factory)
    spoolBytes = Metrics.Gauge(label: "pullparity_collect_spool_bytes", factory: factory)
    ingestLag = Metrics.Gauge(label: "pullparity_collect_ingest_lag_seconds", factory: factory)
    lastIngest = Metrics.Gauge(label: "pullparity_collect_last_ingest_success_timestamp_seconds", factory: factory)
    buffered = Metrics.Gauge(label: "pullparity_collect_buffered_body_bytes", factory: factory)
    connections = Metrics.Gauge(label: "pullparity_collect_connections", factory: factory)
    alertFailures = Metrics.Counter(label: "pullparity_collect_alert_failures_total", factory: factory)
  }

  func synced(in duration: Duration) {
    let (seconds, attoseconds) = duration.components
    sync.recordNanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
  }

  func acknowledged(bodies count: Int, bytes: Int) {
    bodies.increment(by: count)
    self.bytes.increment(by: bytes)
  }

  /// Counts a change of an app's platform verdict the webhook took (`GateAlerts`).
  func alertPosted(_ change: String) {
    Metrics.Counter(
      label: "pullparity_collect_alerts_posted_total", dimensions: [("change", change)], factory: factory
    )
    .increment()
  }

  /// Counts a round whose alerts could not all be posted (they are posted again next round).
  func alertFailed() { alertFailures.increment() }

  /// Counts one answer by its status.
  func answered(_ status: Int) {
    Metrics.Counter(
      label: "pullparity_collect_requests_total", dimensions: [("status", String(status))], factory: factory
    )
    .increment()
  }

  /// The figures read from disk and from the scheduler when scraped, then the whole registry.
  func text(
    spool directory: SpoolDirectory, lastIngest success: Date?, bufferedBytes: Int, connections held: Int,
    now: Date = Date()
  ) -> [UInt8] {
    buffered.record(bufferedBytes)
    connections.record(held)
    let waiting = (try? directory.closedFiles()) ?? []
    let sizes = (waiting + [directory.openFile]).compactMap { Self.attributes($0)?[.size] as? Int }
    spoolBytes.record(sizes.reduce(0, +))
    // The lag of the data: the age of the oldest closed file no ingest has taken yet.
    let oldest = waiting.compactMap { Self.attributes($0)?[.modificationDate] as? Date }.min()
    ingestLag.record(oldest.map { max(0, now.timeIntervalSince($0)) } ?? 0)
    lastIngest.record(success?.timeIntervalSince1970 ?? 0)
    var buffer: [UInt8] = []
    registry.emit(into: &buffer)
    return buffer
  }

  private static func attributes(_ path: String) -> [FileAttributeKey: Any]? {
    try? FileManager.default.attributesOfItem(atPath: path)
  }
}
