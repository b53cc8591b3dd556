/// A line copied as read, not parsed yet (`UnparsedLines`): parsed when its chunk turns out to
/// be new, never when the database has the chunk.
struct UnparsedLine: Sendable {
  var sourceIndex: Int
  var line: Int
  var byteOffset: Int
  var length: Int
  var isTooLong: Bool
  var raw: ArenaSlice
}
