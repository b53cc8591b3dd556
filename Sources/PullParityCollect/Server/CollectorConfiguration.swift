/// Everything `pullparity collect` is started with.
package struct CollectorConfiguration: Sendable {
  /// Loopback by default: exposing the collector is a choice made with `--listen`.
  package var host = "127.0.0.1"
  /// 0 lets the system choose; `RunningCollector.port` tells which it chose.
  package var port = 8_787
  package var spoolDirectory: String
  package var limits = SpoolLimits()
  /// Far above the web sink's 60,000-byte batches, and room for the one long line it may send alone.
  package var maxBodyBytes = 1 << 20
  /// Origins whose pages may post (CORS); an empty list grants none.
  package var allowedOrigins: [String] = []
  /// When set, `POST /events` needs `Authorization: Bearer <token>`.
  package var token: String?
  /// The bytes of bodies held in memory at once across all requests; beyond it a POST gets 503
  /// with `Retry-After`. 64 bodies of the largest size.
  package var maxBufferedBytes = 64 << 20
  /// Connections held at once; past it the one idle the longest is closed (`ConnectionCap`).
  /// The command sets it below the descriptor limit.
  package var maxConnections = 4_096
  /// `/health` fails when the spool's file system has less free space than this: room for one
  /// spool file of the default size.
  package var minimumFreeBytes = SpoolLimits.defaultRotateBytes
  /// The longest a request may take to send its body, however steadily it dribbles.
  package var requestSeconds = 30.0
  /// A connection that sends nothing for this long is closed.
  package var idleSeconds = 30.0
  /// Given, closed spool files are ingested into this database every `ingestEverySeconds`.
  package var ingest: ScheduledIngest?

  package init(spoolDirectory: String) {
    self.spoolDirectory = spoolDirectory
  }
}
