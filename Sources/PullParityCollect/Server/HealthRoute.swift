import Foundation
import Hummingbird

/// `GET /health`: 200 and `"status":"ok"` while bodies can be kept and ingested; 503 and
/// `"status":"failing"` with the problems named when the spool cannot be written, its disk is
/// nearly full, or scheduled ingest keeps failing (a load balancer takes the collector out,
/// an operator reads why). Either way, what the spool has done.
struct HealthRoute: Sendable {
  let spool: Spool
  let health: CollectorHealth

  func get(_ request: Request, context: CollectRequestContext) async throws -> Response {
    let report = health.report(spool: await spool.counts(), directory: spool.directory.path)
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    var body = try encoder.encode(report)
    body.append(UInt8(ascii: "\n"))
    return Response(
      status: report.problems.isEmpty ? .ok : .serviceUnavailable, headers: [.contentType: "application/json"],
      body: .init(byteBuffer: ByteBuffer(bytes: body)))
  }
}
