import Foundation
import PullParityCollect
import PullParityTestSupport
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Started in process on port 0, as the Swift recorder's sink tests do: the bound port is
/// known, a POST is acknowledged once spooled, and `stop()` closes the spool file.
@Suite struct InProcessCollectorTests {
  @Test func startsOnPortZeroTakesAPostAndStops() async throws {
    let directory = try TemporaryDirectory()
    var configuration = CollectorConfiguration(spoolDirectory: directory.path("spool"))
    configuration.port = 0
    let collector = try await Collector.start(configuration)
    #expect(collector.port > 0)
    var request = URLRequest(url: try #require(URL(string: "http://127.0.0.1:\(collector.port)/events")))
    request.httpMethod = "POST"
    // The handler runs on the cooperative pool, which a loaded full run shares with blocking
    // tests: URLSession's 60 s default timed out there once (load 27), so wait as the sink tests do.
    request.timeoutInterval = 600
    request.httpBody = Data("{\"event_id\":\"e1\"}\n".utf8)
    let (_, response) = try await URLSession.shared.data(for: request)
    #expect((response as? HTTPURLResponse)?.statusCode == 204)
    try await collector.stop()
    let closed = try collector.spool.directory.closedFiles()
    #expect(try closed.map { try String(contentsOfFile: $0, encoding: .utf8) } == ["{\"event_id\":\"e1\"}\n"])
  }
}
