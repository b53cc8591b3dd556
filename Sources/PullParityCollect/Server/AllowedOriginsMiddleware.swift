import Hummingbird

/// CORS for a list of origins: a request from one of them goes through Hummingbird's
/// `CORSMiddleware` (preflight answered, `Access-Control-Allow-Origin` added); any other gets no
/// grant at all. (`CORSMiddleware`'s own `oneOf` takes its origins as literal arguments only.)
struct AllowedOriginsMiddleware<Context: RequestContext>: RouterMiddleware {
  let origins: Set<String>
  let cors = CORSMiddleware<Context>(
    allowOrigin: .originBased, allowHeaders: [.contentType, .authorization], allowMethods: [.post, .options],
    maxAge: .seconds(600))

  func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
    -> Response
  {
    guard let origin = request.headers[.origin], origins.contains(origin) else {
      return try await next(request, context)
    }
    return try await cors.handle(request, context: context, next: next)
  }
}
