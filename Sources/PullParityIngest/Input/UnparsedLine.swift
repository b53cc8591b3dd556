/// A line copied but not parsed yet: while a re-sent file streams by, the reader only hashes
/// chunks, and lines are parsed (by the writer) only if their chunk turns out to be new.
struct UnparsedLine: Sendable {
  var sourceIndex: Int
  var line: Int
  var byteOffset: Int
  var length: Int
  var isTooLong: Bool
  var raw: ArenaSlice
}
