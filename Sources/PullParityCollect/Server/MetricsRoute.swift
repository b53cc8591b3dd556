import Hummingbird

/// `GET /metrics`: the collector's figures in Prometheus's text format (`CollectorMetrics`).
struct MetricsRoute: Sendable {
  let parts: CollectorParts

  func get(_ request: Request, context: CollectRequestContext) async throws -> Response {
    let text = parts.spool.metrics.text(
      spool: parts.spool.directory, lastIngest: parts.health.lastIngestSuccess, bufferedBytes: parts.buffered.held,
      connections: parts.connections.count)
    return Response(
      status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
      body: .init(byteBuffer: ByteBuffer(bytes: text)))
  }
}

/// Counts every answer by its status, refusals thrown as errors included.
struct RequestMetricsMiddleware: RouterMiddleware {
  typealias Context = CollectRequestContext
  let metrics: CollectorMetrics

  func handle(
    _ request: Request, context: Context, next: (Request, Context) async throws -> Response
  ) async throws -> Response {
    do {
      let response = try await next(request, context)
      metrics.answered(response.status.code)
      return response
    } catch let error as any HTTPResponseError {
      metrics.answered(error.status.code)
      throw error
    } catch {
      metrics.answered(500)
      throw error
    }
  }
}
