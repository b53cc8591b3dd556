/// Where the bytes of one input come from: a file, a gzip file, standard input.
package protocol ByteSource: AnyObject {
  /// Reads up to `count` bytes; 0 at the end.
  func read(into buffer: UnsafeMutableRawPointer, count: Int) throws -> Int
  /// Input bytes consumed so far (compressed bytes for gzip).
  var position: Int { get }
  func close()
}
