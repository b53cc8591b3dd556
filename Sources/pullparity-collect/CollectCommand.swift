import ArgumentParser
import Foundation
import PullParityCollect
import PullParityCore
import PullParityIngest
import PullParityReport
import PullParityStore

#if canImport(Glibc)
  import Glibc
#endif

/// `pullparity-collect`, which `pullparity collect` runs: the HTTP collector in an executable of
/// its own, so that `pullparity` never links (or compiles) the HTTP stack.
@main
struct CollectCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "pullparity collect",
    abstract: "Receive the recorders' events over HTTP into a spool directory (and ingest it).",
    discussion: """
      POST /events takes a body of JSON lines (the recorders' HTTP sinks) and answers 204 only once the body is on disk; GET /metrics answers in Prometheus's text format (docs/collector.md lists the figures). GET /health answers 200 with what the spool did, or 503 with the problems named (the spool cannot be written, its disk has less than --min-free-bytes free, scheduled ingest failed three rounds in a row). Connections are capped below the open-file limit (--max-connections: past it the one idle the longest is closed). Bodies held in memory across all requests are capped (--max-buffered-bytes: 503 with Retry-After beyond it), and an error repeated by every request is logged once a second with a count of the ones left out. The open spool file is hidden; closed files are DIR/<UTC time>-<sequence>.jsonl, which `pullparity ingest DIR` takes in order. With --db, closed files are ingested every --ingest-every seconds in this process and then moved to DIR/.ingested; with --alert-webhook too, each app and platform whose verdict turns to fail, or passes again, over the sessions of the last --alert-window seconds of data is posted there once (DIR/.alerts.json keeps what was posted). A bearer token, if wanted, comes from --token-file or the environment variable PULLPARITY_COLLECT_TOKEN. SIGTERM or SIGINT: stop accepting, finish the requests in flight, close the spool file, exit 0.

      Example:
        pullparity collect --listen 127.0.0.1:8787 --spool spool --allow-origin https://app.example --db parity.sqlite --ingest-every 10
      """,
    version: ToolVersion.current)

  @Option(help: ArgumentHelp("Address to listen on; port 0 picks a free one.", valueName: "host:port"))
  var listen = ListenAddress(argument: "127.0.0.1:8787")!

  @Option(help: ArgumentHelp("The spool directory (created if missing).", valueName: "dir"))
  var spool: String

  @Option(help: ArgumentHelp("Larger bodies are refused with 413, unread.", valueName: "bytes"))
  var maxBodyBytes = 1 << 20

  @Option(
    help: ArgumentHelp(
      "Bytes of bodies held in memory at once, across all requests; beyond it a POST gets 503 with Retry-After.",
      valueName: "bytes"))
  var maxBufferedBytes = 64 << 20

  @Option(
    help: ArgumentHelp(
      "Connections held at once; past it the one idle the longest is closed (default: the open-file limit less 256).",
      valueName: "n"))
  var maxConnections: Int?

  @Option(
    help: ArgumentHelp(
      "GET /health answers 503 when the spool's disk has less free space than this.", valueName: "bytes"))
  var minFreeBytes = SpoolLimits.defaultRotateBytes

  @Option(help: ArgumentHelp("Close the spool file once it holds this many bytes.", valueName: "bytes"))
  var rotateBytes = SpoolLimits.defaultRotateBytes

  @Option(help: ArgumentHelp("Close the spool file once it is this old.", valueName: "seconds"))
  var rotateSeconds = SpoolLimits.defaultRotateSeconds

  @Option(help: ArgumentHelp("An origin whose pages may post (CORS); repeatable.", valueName: "origin"))
  var allowOrigin: [String] = []

  @Option(help: ArgumentHelp("A file holding the bearer token POST /events requires.", valueName: "path"))
  var tokenFile: String?

  @Option(help: ArgumentHelp("The longest a request may take to send its body (408 after).", valueName: "seconds"))
  var requestSeconds = 30.0

  @Option(help: ArgumentHelp("Close a connection idle for this long.", valueName: "seconds"))
  var idleSeconds = 30.0

  @Option(
    name: .customLong("db"), help: ArgumentHelp("Ingest closed spool files into this database.", valueName: "file"))
  var database: String?

  @Option(help: ArgumentHelp("With --db: seconds between ingests.", valueName: "seconds"))
  var ingestEvery = 10.0

  @Option(help: ArgumentHelp("With --db: seconds to wait for another writer of the database.", valueName: "seconds"))
  var lockTimeout = PullParityDatabase.defaultLockTimeout

  @Option(
    name: .customLong("profiles"),
    help: ArgumentHelp("A JSON file of profiles that add to or replace the built-in ones.", valueName: "file"))
  var profilesFile: String?

  @Option(
    help: ArgumentHelp(
      "With --db: after each ingest, POST each app and platform whose verdict turned to fail (or back) to this URL, as a Slack-compatible JSON message.",
      valueName: "url"))
  var alertWebhook: String?

  @Option(
    help: ArgumentHelp(
      "With --alert-webhook: judge the sessions started this long before the newest one.", valueName: "seconds"))
  var alertWindow = AlertSettings.defaultWindowSeconds

  @Option(help: ArgumentHelp("With --alert-webhook: a link put in each message (a dashboard).", valueName: "url"))
  var alertLink: String?

  func validate() throws {
    guard maxBodyBytes > 0, rotateBytes > 0, minFreeBytes >= 0 else {
      throw ValidationError("byte limits must be positive")
    }
    if let maxConnections, maxConnections < 1 { throw ValidationError("--max-connections must be at least 1") }
    guard maxBufferedBytes >= maxBodyBytes else {
      throw ValidationError("--max-buffered-bytes must be at least --max-body-bytes, or no body could be read")
    }
    for (name, value) in [
      ("--rotate-seconds", rotateSeconds), ("--request-seconds", requestSeconds), ("--idle-seconds", idleSeconds),
      ("--ingest-every", ingestEvery),
    ] where !(value > 0 && value <= 86_400) {
      throw ValidationError("\(name) must be more than 0 and at most 86400 (seconds)")
    }
    if alertWebhook != nil, database == nil {
      throw ValidationError("--alert-webhook needs --db: alerts follow ingests")
    }
    guard alertWindow > 0 else { throw ValidationError("--alert-window must be more than 0 (seconds)") }
  }

  func run() async throws {
    let frontend = CollectFrontend(configuration: try configuration(), maxConnections: maxConnections)
    try await frontend.run()
  }

  private func configuration() throws -> CollectorConfiguration {
    var configuration = CollectorConfiguration(spoolDirectory: spool)
    configuration.host = listen.host
    configuration.port = listen.port
    configuration.limits = SpoolLimits(rotateBytes: rotateBytes, rotateSeconds: rotateSeconds)
    configuration.maxBodyBytes = maxBodyBytes
    configuration.maxBufferedBytes = maxBufferedBytes
    configuration.minimumFreeBytes = minFreeBytes
    configuration.allowedOrigins = allowOrigin
    configuration.token = try CollectFrontend.token(file: tokenFile)
    configuration.requestSeconds = requestSeconds
    configuration.idleSeconds = idleSeconds
    if let database {
      let options = IngestOptions(profiles: try profiles(), toolVersion: ToolVersion.current)
      configuration.ingest = ScheduledIngest(
        databasePath: database, everySeconds: ingestEvery, options: options, lockTimeout: lockTimeout)
      configuration.ingest?.alerts = alertWebhook.map {
        AlertSettings(webhook: $0, windowSeconds: alertWindow, link: alertLink)
      }
    }
    return configuration
  }

  private func profiles() throws -> ProfileCatalog {
    var catalog = ProfileCatalog()
    if let profilesFile { catalog.merge(try ProfileFile.load(path: profilesFile)) }
    return catalog
  }

  /// As `pullparity`'s: every error exits 2 (1 is kept for "a check failed"), and its message is
  /// printed with the data's escape sequences shown, not obeyed.
  static func main() async {
    do {
      var command = try parseAsRoot()
      if var serving = command as? any AsyncParsableCommand {
        try await serving.run()
      } else {
        try command.run()
      }
    } catch let exit as ExitCode {
      Glibc.exit(exit.rawValue)
    } catch {
      if exitCode(for: error) == .success { self.exit(withError: error) }
      let message = TerminalText.escapedKeepingNewlines(fullMessage(for: error))
      if !message.isEmpty { FileHandle.standardError.write(Data((message + "\n").utf8)) }
      Glibc.exit(2)
    }
  }
}
