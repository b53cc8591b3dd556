public import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Batches lines and POSTs them as JSON lines (`text/plain;charset=UTF-8`) to a collector such
/// as `pullparity collect`, as the web recorder's `HttpEventSink` does.
///
/// Delivery is at least once: a line leaves the queue only when a POST carrying it is answered
/// with a 2xx, which `pullparity collect` gives only once the body is on its disk. A POST that
/// fails (no answer within `requestTimeout`, or another status) is reported to `onError` and
/// sent again with the same lines, byte for byte, after a delay that doubles from
/// `retryDelay` up to `maxRetryDelay`; ingest skips an event id it already stored, so a line
/// that arrived twice costs nothing. Lines wait at most `flushInterval` before a POST, or go at
/// once when `maxBatchLines` are waiting. The queue holds at most `maxQueueLines`; beyond that
/// the oldest are dropped, and `onError` hears so once per outage.
///
/// `write` only queues (the recorder calls it under its lock, from gesture callbacks); requests
/// and timers run on a private queue. Call ``flush()`` when the app moves to the background,
/// inside a background task, to send what waits without the interval.
public final class HTTPEventSink: EventSink {
  public struct Options: Sendable {
    public var flushInterval: Duration = .seconds(2)
    public var maxBatchLines = 200
    /// Bytes of body per POST (the web sink's default, under collectors' usual maximum).
    public var maxBatchBytes = 60_000
    public var maxQueueLines = 10_000
    public var retryDelay: Duration = .seconds(1)
    public var maxRetryDelay: Duration = .seconds(30)
    /// A POST not answered by then counts as failed, so a stalled network never holds the queue.
    public var requestTimeout: Duration = .seconds(15)
    /// Sent as `Authorization: Bearer …` when the collector was started with a token.
    public var bearerToken: String?

    public init() {}
  }

  public let url: URL
  private let options: Options
  private let onError: (@Sendable (HTTPSinkError) -> Void)?
  private let session: URLSession
  private let timers = DispatchQueue(label: "PullParityRecorder.HTTPEventSink")
  private let state: Locked<State>

  private struct State {
    var queue: DeliveryQueue
    var backoff: RetryBackoff
    /// Bumped to cancel the timer that is armed: a timer fires only if its number is current.
    var timer: (number: Int, armed: Bool) = (0, false)
    /// Whether the armed timer is a retry's: until it fires, writes only queue.
    var retrying = false
  }

  public init(url: URL, options: Options = Options(), onError: (@Sendable (HTTPSinkError) -> Void)? = nil) {
    self.url = url
    self.options = options
    self.onError = onError
    let limits = DeliveryQueue.Limits(
      maxBatchLines: max(1, options.maxBatchLines), maxBatchBytes: max(1, options.maxBatchBytes),
      maxQueueLines: max(1, options.maxQueueLines))
    state = Locked(
      State(
        queue: DeliveryQueue(limits: limits),
        backoff: RetryBackoff(first: options.retryDelay, maximum: options.maxRetryDelay)))
    let configuration = URLSessionConfiguration.ephemeral
    configuration.timeoutIntervalForRequest = options.requestTimeout.seconds
    configuration.timeoutIntervalForResource = options.requestTimeout.seconds
    session = URLSession(configuration: configuration)
  }

  deinit {
    // Not `invalidateAndCancel`: Foundation on Linux cancels a task asynchronously and then
    // finds it gone from the session's registry if it completed meanwhile, a fatal error
    // (seen once in this package's tests). An upload under way ends within `requestTimeout`.
    session.finishTasksAndInvalidate()
  }

  /// Lines not yet acknowledged by the collector.
  public var pendingLines: Int { state.withLock { $0.queue.lines.count } }

  public func write(_ line: String) {
    let (overflow, batch) = state.withLock { state -> (Int?, [String]?) in
      let overflow = state.queue.append(line)
      // A scheduled retry sends the queue; sending before it would undo the backoff.
      guard !state.retrying else { return (overflow, nil) }
      if state.queue.waiting >= state.queue.limits.maxBatchLines { return (overflow, state.queue.takeBatch()) }
      arm(after: options.flushInterval, &state)
      return (overflow, nil)
    }
    if let overflow { report(.queueFull(maxQueueLines: options.maxQueueLines, dropped: overflow)) }
    if let batch { post(batch) }
  }

  /// Sends what waits now, unless a POST is out or a retry is scheduled (it will send it).
  public func flush() {
    let batch = state.withLock { state in state.retrying ? nil : state.queue.takeBatch() }
    if let batch { post(batch) }
  }

  private func arm(after delay: Duration, _ state: inout State) {
    guard !state.timer.armed else { return }
    state.timer = (state.timer.number + 1, true)
    let number = state.timer.number
    timers.asyncAfter(deadline: .now() + delay.seconds) { [weak self] in self?.timerFired(number) }
  }

  private func timerFired(_ number: Int) {
    let batch = state.withLock { state -> [String]? in
      guard state.timer == (number, true) else { return nil }
      state.timer.armed = false
      state.retrying = false
      return state.queue.takeBatch()
    }
    if let batch { post(batch) }
  }

  private func post(_ lines: [String]) {
    var request = URLRequest(url: url)
    request.httpMethod = "POST"
    request.setValue("text/plain;charset=UTF-8", forHTTPHeaderField: "Content-Type")
    if let token = options.bearerToken { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
    let body = Data((lines.joined(separator: "\n") + "\n").utf8)
    let url = url.absoluteString
    session.uploadTask(with: request, from: body) { [weak self] _, response, error in
      let status = (response as? HTTPURLResponse)?.statusCode
      if let status, (200..<300).contains(status) {
        self?.acknowledged()
      } else if let status {
        self?.failed(.status(status, url: url))
      } else {
        self?.failed(.transport(reason: error.map { "\($0)" } ?? "no response", url: url))
      }
    }.resume()
  }

  private func acknowledged() {
    state.withLock { state in
      state.queue.acknowledged()
      state.backoff.succeeded()
      if !state.queue.lines.isEmpty { arm(after: .zero, &state) }
    }
  }

  private func failed(_ error: HTTPSinkError) {
    report(error)
    state.withLock { state in
      state.queue.failed()
      state.timer = (state.timer.number + 1, false)
      arm(after: state.backoff.failed(), &state)
      state.retrying = true
    }
  }

  /// Outside the lock: the handler may log, or write to the recorder (whose lock calls `write`).
  private func report(_ error: HTTPSinkError) {
    onError?(error)
  }
}

extension Duration {
  /// In seconds, for Foundation's and Dispatch's `TimeInterval`s.
  fileprivate var seconds: Double {
    let (seconds, attoseconds) = components
    return Double(seconds) + Double(attoseconds) / 1e18
  }
}
