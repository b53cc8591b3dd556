import Foundation
import Logging
import PullParityCollect
import PullParityReport

/// A value the collector cannot start with: exit 2, the message without the usage text.
struct CollectError: Error, CustomStringConvertible {
  var description: String

  init(_ description: String) { self.description = description }
}

/// Runs the collector for the command line: logs to standard error, says where it listens, and
/// returns once a signal has stopped it gracefully.
struct CollectFrontend {
  static let tokenVariable = "PULLPARITY_COLLECT_TOKEN"

  var configuration: CollectorConfiguration
  /// `--max-connections`; nil: the open-file limit less `reservedFiles`.
  var maxConnections: Int?
  /// Descriptors kept for what is not a connection: spool files, the database and its WAL, the
  /// ingest's inputs, the logs.
  static let reservedFiles = 256

  func run() async throws {
    // Before the first accept: every idle connection holds a descriptor.
    let openFiles = OpenFileLimit.raiseToHardLimit()
    var configuration = configuration
    configuration.maxConnections = maxConnections ?? max(16, Int(clamping: openFiles) - Self.reservedFiles)
    LoggingSystem.bootstrap(StreamLogHandler.standardError)
    let running = try await Collector.start(configuration, stopsOnSignals: true)
    if let recovery = running.spool.recovery { FileHandle.standardError.write(Data(describe(recovery).utf8)) }
    let listening =
      "Collecting on http://\(hostForURL):\(running.port)/events into \(TerminalText.escaped(configuration.spoolDirectory)) "
      + "(up to \(openFiles) open files, \(configuration.maxConnections) connections)\n"
    FileHandle.standardOutput.write(Data(listening.utf8))
    try await running.wait()
  }

  private var hostForURL: String {
    configuration.host.contains(":") ? "[\(configuration.host)]" : configuration.host
  }

  func describe(_ recovery: SpoolRecovery) -> String {
    let kept =
      recovery.closedFile.map { "kept \(recovery.keptBytes) bytes as \(TerminalText.escaped($0))" } ?? "nothing kept"
    return "Closed the spool file a previous run left open: \(kept), cut \(recovery.cutBytes) bytes of a torn body.\n"
  }

  /// The token from `file`, else from the environment (never a visible argument); surrounding
  /// white space (a file's last newline) is not part of it.
  static func token(file: String?) throws -> String? {
    let text: String
    if let file {
      do { text = try String(contentsOfFile: file, encoding: .utf8) } catch {
        throw CollectError("cannot read the token file \(file): \(error.localizedDescription)")
      }
    } else if let value = ProcessInfo.processInfo.environment[tokenVariable] {
      text = value
    } else {
      return nil
    }
    let token = text.trimmingCharacters(in: .whitespacesAndNewlines)
    guard !token.isEmpty, token.allSatisfy({ $0.isASCII && !$0.isWhitespace }) else {
      throw CollectError("the bearer token must be printable ASCII without spaces, and not empty")
    }
    return token
  }
}
