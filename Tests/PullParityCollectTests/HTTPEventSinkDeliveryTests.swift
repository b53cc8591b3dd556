import Foundation
import PullParityCollect
import PullParityCore
import PullParityIngest
import PullParityRecorder
import PullParityStore
import PullParityTestSupport
import Testing

/// The Swift recorder's `HTTPEventSink` delivering into a real collector started in process:
/// every line arrives once, byte for byte and in order, a POST that failed is sent again with
/// the same lines, and the spool ingests to the sessions the recorder recorded.
@Suite(.timeLimit(.minutes(10))) struct HTTPEventSinkDeliveryTests {
  /// Lines as the recorder wrote them, kept to compare with what the collector spooled.
  final class Written: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []

    func append(_ line: String) { lock.withLock { lines.append(line) } }
    var all: [String] { lock.withLock { lines } }
  }

  final class Heard: @unchecked Sendable {
    private let lock = NSLock()
    private var errors: [HTTPSinkError] = []

    func append(_ error: HTTPSinkError) { lock.withLock { errors.append(error) } }
    var all: [HTTPSinkError] { lock.withLock { errors } }
  }

  static func options(token: String? = nil) -> HTTPEventSink.Options {
    var options = HTTPEventSink.Options()
    options.flushInterval = .milliseconds(20)
    options.maxBatchLines = 5
    options.retryDelay = .milliseconds(50)
    options.maxRetryDelay = .milliseconds(200)
    // No POST times out here: a timed-out POST that did arrive is sent again (at least once, as
    // designed), which would break the exactly-once comparisons when a loaded run is slow.
    options.requestTimeout = .seconds(600)
    options.bearerToken = token
    return options
  }

  /// `count` pull-to-refresh sessions recorded into `sink`, each line also kept in `written`.
  static func record(_ count: Int, into sink: HTTPEventSink, _ written: Written) {
    let recorder = PullParityRecorder(
      app: "padel", appVersion: "3.9.0", screen: "matches",
      sink: ClosureEventSink { line in
        written.append(line)
        sink.write(line)
      })
    for _ in 0..<count {
      recorder.pullStart()
      // Padel arms at 24 pt drawn, 33.3 of finger travel with its 0.72 resistance.
      recorder.pullMove(distance: 50)
      recorder.armed(distance: 50)
      recorder.release(distance: 50)
      recorder.refreshStart()
      recorder.indicatorShown()
      recorder.loadComplete(ok: true)
      recorder.indicatorHidden()
    }
  }

  /// Waits until `condition` holds. The suite's time limit bounds it, not a deadline here: the
  /// collector answers from the same thread pool as the tests that run beside these, which a
  /// loaded full run can keep busy for minutes.
  static func wait(_ condition: () -> Bool) async throws {
    while !condition() { try await Task.sleep(for: .milliseconds(20)) }
  }

  static func start(_ spool: String, port: Int = 0, token: String? = nil) async throws -> RunningCollector {
    var configuration = CollectorConfiguration(spoolDirectory: spool)
    configuration.port = port
    configuration.token = token
    return try await Collector.start(configuration)
  }

  static func spooled(_ collector: RunningCollector) throws -> String {
    try collector.spool.directory.closedFiles().map { try String(contentsOfFile: $0, encoding: .utf8) }.joined()
  }

  static func url(_ port: Int) throws -> URL {
    try #require(URL(string: "http://127.0.0.1:\(port)/events"))
  }

  @Test func recordedSessionsArriveOnceInOrderAndIngestWhole() async throws {
    let dir = try TemporaryDirectory()
    let collector = try await Self.start(dir.path("spool"))
    let sink = HTTPEventSink(url: try Self.url(collector.port), options: Self.options())
    let written = Written()
    Self.record(3, into: sink, written)
    try await Self.wait { sink.pendingLines == 0 }
    try await collector.stop()

    #expect(try Self.spooled(collector) == written.all.map { $0 + "\n" }.joined())
    let database = try PullParityDatabase(path: dir.path("collected.sqlite"))
    let inputs = try collector.spool.directory.closedFiles().map { InputFile(name: $0, isGzip: false) }
    let summary = try Ingestor(database: database, options: IngestOptions(toolVersion: "test")).run(inputs)
    #expect(summary.counts.eventsStored == 24)
    #expect(summary.counts.quarantined == 0)
    let sessions = try ReportQueries(database).sessions(SessionFilter())
    #expect(sessions.map(\.metrics.outcome) == [.completed, .completed, .completed])
  }

  /// The collector is down for the first attempts: each failure is reported, and once it is up
  /// the same lines arrive, once each.
  @Test func aFailedPostIsSentAgainWithTheSameLines() async throws {
    let dir = try TemporaryDirectory()
    // A port known to be free: a collector's, stopped.
    let first = try await Self.start(dir.path("unused"))
    let port = first.port
    try await first.stop()

    let heard = Heard()
    let sink = HTTPEventSink(url: try Self.url(port), options: Self.options(), onError: heard.append)
    let written = Written()
    Self.record(2, into: sink, written)
    try await Self.wait { heard.all.count >= 2 }
    #expect(sink.pendingLines == written.all.count)
    for error in heard.all {
      guard case .transport = error else {
        Issue.record("expected no answer, heard \(error)")
        continue
      }
    }

    let collector = try await Self.start(dir.path("spool"), port: port)
    try await Self.wait { sink.pendingLines == 0 }
    try await collector.stop()
    #expect(try Self.spooled(collector) == written.all.map { $0 + "\n" }.joined())
  }

  /// A collector started with a token refuses a sink without it (401, reported, lines kept)
  /// and takes the same lines from a sink that sends it.
  @Test func theBearerTokenIsSentAndARefusalReportedWithItsStatus() async throws {
    let dir = try TemporaryDirectory()
    let collector = try await Self.start(dir.path("spool"), token: "s3cret")
    let url = try Self.url(collector.port)
    let heard = Heard()
    let refused = HTTPEventSink(url: url, options: Self.options(), onError: heard.append)
    let authorised = HTTPEventSink(url: url, options: Self.options(token: "s3cret"))
    let written = Written()
    Self.record(1, into: refused, Written())
    Self.record(1, into: authorised, written)
    try await Self.wait { !heard.all.isEmpty }
    try await Self.wait { authorised.pendingLines == 0 }
    try await collector.stop()

    #expect(heard.all.first == .status(401, url: url.absoluteString))
    #expect(refused.pendingLines == 8)
    #expect(try Self.spooled(collector) == written.all.map { $0 + "\n" }.joined())
  }
}
