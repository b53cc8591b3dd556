import Hummingbird
package import Logging
import NIOCore
import ServiceLifecycle
import UnixSignals

/// The collector: receives the recorders' event bodies over HTTP and keeps each one durably in a
/// spool directory before acknowledging it, optionally ingesting closed spool files as it goes.
package enum Collector {
  /// Binds, starts serving and returns once the server listens. `stopsOnSignals`: SIGTERM and
  /// SIGINT stop it gracefully (the command); an in-process user calls `RunningCollector.stop()`.
  package static func start(
    _ configuration: CollectorConfiguration, stopsOnSignals: Bool = false,
    logger: Logger = Logger(label: "pullparity.collect")
  ) async throws -> RunningCollector {
    let parts = CollectorParts(
      spool: try Spool(directory: configuration.spoolDirectory, limits: configuration.limits),
      health: CollectorHealth(minimumFreeBytes: configuration.minimumFreeBytes),
      buffered: BufferedBytes(limit: configuration.maxBufferedBytes),
      connections: ConnectionCap(limit: configuration.maxConnections))
    let spool = parts.spool
    let (ports, listening) = AsyncStream.makeStream(of: Int.self)
    let app = application(configuration, parts, logger: logger) { listening.yield($0) }
    let group = ServiceGroup(
      configuration: .init(
        services: try services(configuration, parts, logger: logger) + [app],
        gracefulShutdownSignals: stopsOnSignals ? [.sigterm, .sigint] : [], logger: logger))
    let task = Task {
      defer { listening.finish() }
      do { try await group.run() } catch {
        try? await spool.close()
        throw error
      }
      try await spool.close()
    }
    for await port in ports { return RunningCollector(port: port, spool: spool, group: group, task: task) }
    try await task.value
    throw CancellationError()
  }

  private static func application(
    _ configuration: CollectorConfiguration, _ parts: CollectorParts, logger: Logger,
    listening: @escaping @Sendable (Int) -> Void
  ) -> some ApplicationProtocol {
    Application(
      router: router(configuration, parts, logger: logger),
      server: .http1(
        configuration: .init(
          additionalChannelHandlers: [ConnectionCapHandler(cap: parts.connections)],
          idleTimeout: timeAmount(configuration.idleSeconds))),
      configuration: .init(
        address: .hostname(configuration.host, port: configuration.port), serverName: nil, backlog: 4_096),
      onServerRunning: { listening($0.localAddress?.port ?? 0) },
      logger: logger)
  }

  private static func router(
    _ configuration: CollectorConfiguration, _ parts: CollectorParts, logger: Logger
  ) -> Router<CollectRequestContext> {
    let router = Router(context: CollectRequestContext.self)
    router.add(middleware: RequestMetricsMiddleware(metrics: parts.spool.metrics))
    router.add(middleware: AllowedOriginsMiddleware(origins: Set(configuration.allowedOrigins)))
    router.get("/health", use: HealthRoute(spool: parts.spool, health: parts.health).get)
    router.get("/metrics", use: MetricsRoute(parts: parts).get)
    let events = EventsRoute(
      spool: parts.spool, maxBodyBytes: configuration.maxBodyBytes, requestSeconds: configuration.requestSeconds,
      buffered: parts.buffered, log: LimitedLog(logger))
    if let token = configuration.token {
      router.group("/events").add(middleware: BearerTokenMiddleware(token: token)).post(use: events.post)
    } else {
      router.post("/events", use: events.post)
    }
    return router
  }

  /// Age rotation always runs; scheduled ingest only with a database, and its alerts with a webhook.
  private static func services(
    _ configuration: CollectorConfiguration, _ parts: CollectorParts, logger: Logger
  ) throws -> [any Service] {
    var services: [any Service] = [AgeRotation(spool: parts.spool, logger: logger)]
    if let ingest = configuration.ingest {
      let alerts = try ingest.alerts.map {
        try GateAlerts(
          $0, databasePath: ingest.databasePath, spool: parts.spool.directory, metrics: parts.spool.metrics,
          logger: logger)
      }
      services.append(
        IngestScheduler(spool: parts.spool, plan: ingest, health: parts.health, alerts: alerts, logger: logger))
    }
    return services
  }

  static func timeAmount(_ seconds: Double) -> TimeAmount {
    .nanoseconds(Int64(seconds * 1_000_000_000))
  }
}
