import Hummingbird

/// Refuses a request without `Authorization: Bearer <token>` (401). Runs after CORS, so a
/// browser's preflight, which never carries credentials, is still answered.
struct BearerTokenMiddleware<Context: RequestContext>: RouterMiddleware {
  let expected: [UInt8]

  init(token: String) {
    expected = Array(("Bearer " + token).utf8)
  }

  func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
    -> Response
  {
    guard let given = request.headers[.authorization], Self.same(Array(given.utf8), expected) else {
      throw HTTPError(.unauthorized, headers: [.wwwAuthenticate: "Bearer"])
    }
    return try await next(request, context)
  }

  /// Compares every byte whatever the first difference, so the time taken tells nothing.
  static func same(_ a: [UInt8], _ b: [UInt8]) -> Bool {
    guard a.count == b.count else { return false }
    return zip(a, b).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
  }
}
