import Dispatch

/// One block's encoding and compression, run on a thread of its own from the moment it is made;
/// `result()` waits for it.
final class BlockCompression: @unchecked Sendable {
  /// A block as `event_blocks` stores it: its zstd frame and its size before compression.
  struct Packed {
    var data: [UInt8]
    var plainBytes: Int
  }

  private let done = DispatchSemaphore(value: 0)
  /// Written by the compressing thread before it signals `done`, read after waiting for it:
  /// the semaphore orders the two, hence `@unchecked Sendable`.
  private var outcome: Result<Packed, any Error>?

  init(_ lines: RawBlockBuilder) {
    DispatchQueue.global(qos: .userInitiated).async { [self] in
      outcome = Result { try Self.pack(lines) }
      done.signal()
    }
  }

  /// Waits for the compression; call once.
  func result() throws -> Packed {
    done.wait()
    return try outcome!.get()
  }

  /// Encodes and compresses `lines` on the calling thread.
  static func pack(_ lines: RawBlockBuilder) throws -> Packed {
    let plain = lines.encoded()
    return Packed(data: try plain.withUnsafeBytes { try Zstd.compress($0) }, plainBytes: plain.count)
  }
}
