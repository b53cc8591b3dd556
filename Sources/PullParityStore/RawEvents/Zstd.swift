import CZstd

/// zstd, one frame per block of raw lines. Level 1: on the 1M-event benchmark log in 64 KiB
/// blocks it took 29.8 B a line in 0.4 s of CPU; level 9 29.5 B in 1.7 s, zlib level 6 33.3 B
/// in 2.1 s (bench/README.md, "Compressed raw events").
package enum Zstd {
  static let level: Int32 = 1

  package static func compress(_ input: UnsafeRawBufferPointer) throws -> [UInt8] {
    let bound = ZSTD_compressBound(input.count)
    var size = 0
    // Uninitialized: zeroing the bound first was 5 % of the compressing threads (`perf`).
    let output = [UInt8](unsafeUninitializedCapacity: bound) { out, count in
      size = ZSTD_compress(out.baseAddress, bound, input.baseAddress, input.count, level)
      count = ZSTD_isError(size) == 0 ? size : 0
    }
    guard ZSTD_isError(size) == 0 else { throw failure("compressing a block of raw events", size) }
    return output
  }

  /// `size`: the uncompressed size the block's row records (`raw_bytes`). A frame that does not
  /// decompress to that size is damage (`BlockDamage`).
  static func decompress(_ input: UnsafeRawBufferPointer, size: Int, block: BlockName) throws -> [UInt8] {
    guard size >= 0, size <= 64 << 20 else {
      throw BlockDamage(block: block, problem: "its row says it holds \(size) bytes decompressed")
    }
    var output = [UInt8](repeating: 0, count: size)
    let written = output.withUnsafeMutableBytes { out in
      ZSTD_decompress(out.baseAddress, size, input.baseAddress, input.count)
    }
    guard ZSTD_isError(written) == 0 else {
      throw BlockDamage(block: block, problem: "zstd: " + String(cString: ZSTD_getErrorName(written)))
    }
    guard written == size else {
      throw BlockDamage(block: block, problem: "it holds \(written) bytes, its row says \(size)")
    }
    return output
  }

  private static func failure(_ context: String, _ code: Int) -> StoreError {
    StoreError(context: context, message: "zstd: " + String(cString: ZSTD_getErrorName(code)))
  }
}
