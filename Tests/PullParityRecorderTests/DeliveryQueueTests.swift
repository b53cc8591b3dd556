import Testing

@testable import PullParityRecorder

/// What each POST of an HTTP sink carries and what an answer does to its queue: the web sink's
/// rules (clients/web `HttpEventSink.batch`), case by case.
@Suite struct DeliveryQueueTests {
  static let limits = DeliveryQueue.Limits(maxBatchLines: 3, maxBatchBytes: 20, maxQueueLines: 5)

  /// A line of `bytes` bytes (its `\n` not counted), marked with `n`.
  static func line(_ n: Int, bytes: Int = 4) -> String {
    "\(n)" + String(repeating: "x", count: bytes - "\(n)".count)
  }

  struct BatchCase: Sendable, CustomTestStringConvertible {
    var name: String
    var lineBytes: [Int]
    var expected: Int
    var testDescription: String { name }
  }

  static let batchCases: [BatchCase] = [
    .init(name: "every line while under both bounds", lineBytes: [4, 4], expected: 2),
    .init(name: "at most maxBatchLines", lineBytes: [4, 4, 4, 4], expected: 3),
    .init(name: "stops before the line that passes maxBatchBytes", lineBytes: [9, 9, 4], expected: 2),
    .init(name: "a body exactly at maxBatchBytes", lineBytes: [9, 9], expected: 2),
    .init(name: "a first line over the budget goes alone", lineBytes: [30, 4], expected: 1),
    .init(name: "a later line over the budget waits for its own POST", lineBytes: [4, 30], expected: 1),
  ]

  @Test(arguments: batchCases)
  func batchTakesTheOldestLinesThatFit(_ batch: BatchCase) {
    var queue = DeliveryQueue(limits: Self.limits)
    let lines = batch.lineBytes.enumerated().map { Self.line($0.offset, bytes: $0.element) }
    for line in lines { _ = queue.append(line) }
    #expect(queue.takeBatch() == Array(lines.prefix(batch.expected)))
    #expect(queue.inFlight == batch.expected)
    #expect(queue.waiting == lines.count - batch.expected)
  }

  @Test func noSecondBatchWhileOneIsOutAndNoneWhenEmpty() {
    var queue = DeliveryQueue(limits: Self.limits)
    #expect(queue.takeBatch() == nil)
    _ = queue.append(Self.line(0))
    #expect(queue.takeBatch() == [Self.line(0)])
    _ = queue.append(Self.line(1))
    #expect(queue.takeBatch() == nil)
  }

  @Test func anAcknowledgementRemovesExactlyTheLinesItCarried() {
    var queue = DeliveryQueue(limits: Self.limits)
    for n in 0..<2 { _ = queue.append(Self.line(n)) }
    _ = queue.takeBatch()
    _ = queue.append(Self.line(2))
    queue.acknowledged()
    #expect(queue.lines == [Self.line(2)])
    #expect(queue.inFlight == 0)
  }

  @Test func aFailureKeepsTheLinesAndTheRetryCarriesTheSameOnes() {
    var queue = DeliveryQueue(limits: Self.limits)
    for n in 0..<2 { _ = queue.append(Self.line(n)) }
    let first = queue.takeBatch()
    queue.failed()
    #expect(queue.lines == [Self.line(0), Self.line(1)])
    #expect(queue.takeBatch() == first)
  }

  @Test func aFullQueueDropsTheOldestAndSaysSoOncePerOutage() {
    var queue = DeliveryQueue(limits: Self.limits)
    let reports = (0..<7).map { queue.append(Self.line($0)) }
    #expect(reports == [nil, nil, nil, nil, nil, 1, nil])
    #expect(queue.lines == (2..<7).map { Self.line($0) })
    #expect(queue.dropped == 2)
    _ = queue.takeBatch()
    queue.acknowledged()
    // After a delivery the outage is over: the next overflow is news again.
    let after = (7..<11).map { queue.append(Self.line($0)) }
    #expect(after == [nil, nil, nil, 1])
  }

  @Test func linesDroppedWhileInFlightAreNotCountedTwice() {
    var queue = DeliveryQueue(limits: Self.limits)
    for n in 0..<5 { _ = queue.append(Self.line(n)) }
    #expect(queue.takeBatch()?.count == 3)
    for n in 5..<7 { _ = queue.append(Self.line(n)) }
    // Lines 0 and 1 were dropped from under the POST; its acknowledgement covers line 2 only.
    #expect(queue.inFlight == 1)
    queue.acknowledged()
    #expect(queue.lines == (3..<7).map { Self.line($0) })
  }

  @Test func backoffDoublesUpToItsMaximumAndResetsOnSuccess() {
    var backoff = RetryBackoff(first: .milliseconds(100), maximum: .milliseconds(500))
    let delays = (0..<5).map { _ in backoff.failed() }
    #expect(delays == [100, 200, 400, 500, 500].map { Duration.milliseconds($0) })
    backoff.succeeded()
    #expect(backoff.failed() == .milliseconds(100))
  }
}
