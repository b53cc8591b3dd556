internal import CZlib

/// A gzip stream (a `.gz` file, or gzip on standard input), inflated member by member.
///
/// zlib's `gzread` is not used: it skips bytes after the last member without a word, calls a
/// header of garbage a cut stream, and drops what it inflated in the call that met damage.
/// Here every byte inflated before a problem is handed out first, and the problem is raised
/// on the next read as an error that ends only this input, so the lines before it are kept.
/// Input that does not start with the gzip magic passes through unchanged, as with `gzread`
/// (standard input may be plain text).
final class GzipByteSource: ByteSource {
  private static let inputCapacity = 1 << 20
  private let input: any ByteSource
  private let name: String
  /// zlib keeps a pointer to its stream, so the stream must not move: allocated, not a property.
  private let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
  private let header = UnsafeMutablePointer<gz_header>.allocate(capacity: 1)
  private let inputBuffer = UnsafeMutableRawPointer.allocate(byteCount: inputCapacity, alignment: 16)
  private var inputEnded = false
  private var isPlain = false
  private var memberEnded = false
  /// The problem met while inflating, raised once the bytes inflated before it are handed out.
  private var pending: IngestError?

  convenience init(path: String) throws {
    try self.init(input: try FileByteSource(path: path), name: path)
  }

  /// Reads an already open descriptor (standard input).
  convenience init(descriptor: Int32, name: String) throws {
    try self.init(input: FileByteSource(descriptor: descriptor, name: name), name: name)
  }

  private init(input: any ByteSource, name: String) throws {
    self.input = input
    self.name = name
    stream.initialize(to: z_stream())
    header.initialize(to: gz_header())
    // 15 + 16: a window of 32 KiB, gzip framing only (a zlib or raw stream is not gzip).
    // A failed init leaves the stream empty, which inflateEnd in deinit accepts.
    guard inflateInit2_(stream, 15 + 16, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
      throw IngestError.readFailed(path: name, reason: "gzip: zlib could not start (out of memory)")
    }
    inflateGetHeader(stream, header)
    try fill(atLeast: 2)
    isPlain = !startsWithMagic()
  }

  deinit {
    inflateEnd(stream)
    stream.deallocate()
    header.deallocate()
    inputBuffer.deallocate()
  }

  /// Compressed bytes consumed so far.
  var position: Int { input.position - Int(stream.pointee.avail_in) }

  func read(into buffer: UnsafeMutableRawPointer, count: Int) throws -> Int {
    if let pending { throw pending }
    if isPlain { return try readPlain(into: buffer, count: count) }
    let capacity = UInt32(min(count, Int(UInt32.max)))
    stream.pointee.next_out = buffer.assumingMemoryBound(to: Bytef.self)
    stream.pointee.avail_out = capacity
    do {
      while stream.pointee.avail_out == capacity, try inflateMore() {}
    } catch let error as IngestError {
      pending = error
    }
    let produced = Int(capacity - stream.pointee.avail_out)
    if produced == 0, let pending { throw pending }
    return produced
  }

  func close() { input.close() }

  /// One step of inflating into the output `read` set up; false at the clean end of the input.
  private func inflateMore() throws -> Bool {
    if memberEnded {
      guard try startNextMember() else { return false }
    }
    if stream.pointee.avail_in == 0, !inputEnded { try fill() }
    let noMoreInput = inputEnded && stream.pointee.avail_in == 0
    let code = inflate(stream, Z_NO_FLUSH)
    switch code {
    case Z_STREAM_END: memberEnded = true
    case Z_BUF_ERROR where noMoreInput:
      // No progress is possible and no input is left: the member was cut short.
      guard header.pointee.done == 1 else { throw damage("the input ends inside a gzip header") }
      throw IngestError.truncated(path: name)
    case Z_OK, Z_BUF_ERROR: break
    case Z_MEM_ERROR: throw IngestError.readFailed(path: name, reason: "gzip: out of memory")
    default: throw damage(stream.pointee.msg.map { String(cString: $0) } ?? "zlib error \(code)")
    }
    return true
  }

  /// After a member's end: true when another member follows (a concatenation of gzip files is
  /// one gzip file), false at the end of the input. Anything else after a member is damage.
  private func startNextMember() throws -> Bool {
    if stream.pointee.avail_in < 2 { try fill(atLeast: 2) }
    if stream.pointee.avail_in == 0 { return false }
    guard startsWithMagic() else { throw IngestError.trailingData(path: name, offset: position) }
    inflateReset(stream)
    // A reset forgets the header to fill in.
    inflateGetHeader(stream, header)
    memberEnded = false
    return true
  }

  private func damage(_ reason: String) -> IngestError {
    .damaged(path: name, reason: reason, offset: position)
  }

  private func startsWithMagic() -> Bool {
    guard stream.pointee.avail_in >= 2, let next = stream.pointee.next_in else { return false }
    return next[0] == 0x1F && next[1] == 0x8B
  }

  /// Moves the unread input to the buffer's start and reads until `wanted` bytes are there or
  /// the input ends.
  private func fill(atLeast wanted: Int = 1) throws {
    var available = Int(stream.pointee.avail_in)
    if available > 0, let next = stream.pointee.next_in {
      inputBuffer.copyMemory(from: next, byteCount: available)
    }
    while available < wanted, !inputEnded {
      let n = try input.read(into: inputBuffer + available, count: Self.inputCapacity - available)
      if n == 0 { inputEnded = true } else { available += n }
    }
    stream.pointee.next_in = inputBuffer.assumingMemoryBound(to: Bytef.self)
    stream.pointee.avail_in = UInt32(available)
  }

  /// Plain input: first the bytes read to look for the magic, then straight from the input.
  private func readPlain(into buffer: UnsafeMutableRawPointer, count: Int) throws -> Int {
    let available = Int(stream.pointee.avail_in)
    guard available > 0, let next = stream.pointee.next_in else {
      return try input.read(into: buffer, count: count)
    }
    let n = min(available, count)
    buffer.copyMemory(from: next, byteCount: n)
    stream.pointee.next_in = next + n
    stream.pointee.avail_in = UInt32(available - n)
    return n
  }
}
