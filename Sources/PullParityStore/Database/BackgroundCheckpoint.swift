import Dispatch
import Foundation
internal import GRDB

/// One PASSIVE checkpoint of a file's write-ahead log, on a connection and thread of its own.
///
/// An ingest of a million events ends with about 90 MB of log that the file's last close would
/// otherwise copy into the file while nothing else runs (0.1–0.15 s, the second core idle);
/// started when the run's last transaction commits, the copy runs beside the cross-session
/// judge instead. A PASSIVE checkpoint never waits for the writer or a reader, and one that
/// fails loses nothing: the log keeps what it did not copy, and the close copies it.
package final class BackgroundCheckpoint: Sendable {
  private let done = DispatchSemaphore(value: 0)

  init(path: String) {
    let thread = Thread { [done] in
      var configuration = Configuration()
      configuration.label = "pullparity checkpoint"
      _ = try? DatabaseQueue(path: path, configuration: configuration)
        .writeWithoutTransaction { try $0.checkpoint(.passive) }
      done.signal()
    }
    thread.start()
  }

  /// Waits until the checkpoint is over and its connection closed.
  package func wait() { done.wait() }
}
