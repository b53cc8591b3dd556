import PullParityCore
import PullParityReport
import PullParityStore

/// What a command that reads stored raw events says on a file some of whose sessions have
/// their events in run directories (`load --leave-events`): it cannot see them, and says where
/// they are rather than let an export or a retention look complete.
enum LeftEventsNote {
  /// The note, or nil when every session's events are in the file. `instead`: what the
  /// command does about them.
  static func text(_ database: PullParityDatabase, instead: String) throws -> String? {
    let (sessions, directories) = try database.read { try LeftEvents.overview($0) }
    guard sessions > 0 else { return nil }
    return "Note: the raw events of \(NumberText.thousands(sessions)) sessions are not in "
      + "\(TerminalText.escaped(database.path)): `pullparity load --leave-events` left them in "
      + directories.map(TerminalText.escaped).joined(separator: ", ") + "; \(instead).\n"
  }
}
