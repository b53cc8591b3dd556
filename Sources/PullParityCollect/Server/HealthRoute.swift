import Hummingbird

/// `GET /health`: 200 and what the spool has done, as a small JSON object.
struct HealthRoute: Sendable {
  let spool: Spool

  func get(_ request: Request, context: CollectRequestContext) async throws -> Response {
    let counts = await spool.counts()
    let json =
      "{\"status\":\"ok\",\"bodies\":\(counts.bodies),\"bytes\":\(counts.bytes),"
      + "\"syncs\":\(counts.syncs),\"files_closed\":\(counts.filesClosed)}\n"
    return Response(
      status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: json)))
  }
}
