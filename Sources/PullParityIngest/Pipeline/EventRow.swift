internal import PullParityStore

/// An event as the writer stores it: numbers and arena slices only, no Swift objects, so the
/// writer's per-event work is binding bytes, not retaining and releasing strings.
struct EventRow: Sendable {
  var eventID: ArenaSlice
  var sessionID: ArenaSlice
  var platform: ArenaSlice
  var app: ArenaSlice
  var type: ArenaSlice
  var raw: ArenaSlice
  var timestamp: Double
  var seq: Int?
  var idKey: IDKey
  /// Index of its session in the chunk's `sessions`.
  var sessionIndex: Int
  var sourceIndex: Int
  var line: Int
  var byteOffset: Int
  /// Another line of the chunk has the same id key (a re-sent line, a conflict).
  var idRepeatsInChunk = false
}
