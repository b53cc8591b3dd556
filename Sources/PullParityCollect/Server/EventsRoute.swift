import Hummingbird
import Logging
import NIOCore

/// `POST /events`: a body of JSON lines, kept byte for byte and acknowledged (204) only once it is
/// on disk. Lines are not judged here: ingest quarantines bad ones, losing nothing.
struct EventsRoute: Sendable {
  let spool: Spool
  let maxBodyBytes: Int
  let requestSeconds: Double
  let buffered: BufferedBytes
  let log: LimitedLog

  func post(_ request: Request, context: CollectRequestContext) async throws -> Response {
    let declared = request.headers[.contentLength].flatMap(Int.init)
    if let declared, declared > maxBodyBytes { throw refuse(.contentTooLarge, context) }
    // A body without a length may grow to the limit: it holds that much of the budget.
    let reserved = declared ?? maxBodyBytes
    guard buffered.reserve(reserved) else {
      context.channel.close(mode: .input, promise: nil)
      throw HTTPError(
        .serviceUnavailable, headers: [.retryAfter: "1"],
        message: "The collector holds \(buffered.limit) bytes of bodies already; send it again in a second.")
    }
    defer { buffered.release(reserved) }
    let body = try await collect(request, context)
    do {
      try await spool.append(Array(body.readableBytesView))
    } catch {
      log.error("spool: \(error)")
      throw HTTPError(.serviceUnavailable, message: "The body was not stored; send it again.")
    }
    return Response(status: .noContent)
  }

  /// The whole body, within the size limit and the request deadline.
  private func collect(_ request: Request, _ context: CollectRequestContext) async throws -> ByteBuffer {
    let limit = maxBodyBytes
    let seconds = requestSeconds
    let outcome = await withTaskGroup(of: BodyOutcome.self) { group in
      group.addTask {
        var request = request
        do { return .body(try await request.collectBody(upTo: limit)) } catch is NIOTooManyBytesError {
          return .tooLarge
        } catch { return .failed(error) }
      }
      group.addTask {
        try? await Task.sleep(for: .seconds(seconds))
        return .late
      }
      let first = await group.next()!
      if case .late = first { context.channel.close(mode: .input, promise: nil) }
      group.cancelAll()
      return first
    }
    switch outcome {
    case .body(let body): return body
    case .tooLarge: throw refuse(.contentTooLarge, context)
    case .late: throw HTTPError(.requestTimeout, message: "The body took longer than \(seconds) s.")
    case .failed(let error): throw error
    }
  }

  /// A refused body is not read on: the connection's input is closed, so Hummingbird does not
  /// drain a body that may never end, and the connection closes after the answer.
  private func refuse(_ status: HTTPResponse.Status, _ context: CollectRequestContext) -> HTTPError {
    context.channel.close(mode: .input, promise: nil)
    return HTTPError(status, message: "Bodies are limited to \(maxBodyBytes) bytes.")
  }

  private enum BodyOutcome: Sendable {
    case body(ByteBuffer)
    case tooLarge
    case late
    case failed(any Error)
  }
}
