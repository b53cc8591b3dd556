/// A line that will be quarantined, with where it came from.
struct RejectedLine: Sendable {
  var rejection: Rejection
  var sourceIndex: Int
  var line: Int
  var byteOffset: Int
  var raw: ArenaSlice
}
