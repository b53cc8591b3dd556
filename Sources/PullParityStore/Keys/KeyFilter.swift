/// A Bloom filter over event keys: "certainly not stored" for almost every new key, so that a
/// new random id is not looked up in every closed key epoch (`KeyEpochs`).
///
/// The layout is the split-block Bloom filter of Parquet's specification: 256-bit blocks of
/// eight 32-bit words, one bit set in each word of the one block a key maps to. A lookup reads
/// one cache line, which is what keeps checking several filters per event affordable. At
/// `bitsPerKey` (24) about 0.02 % of absent keys are reported as maybe present; each of those
/// costs one index probe into a closed epoch, a page that is rarely cached (a disk read once
/// the history outgrows memory), never a wrong answer. 16 bits a key gave 0.15 %: against ten
/// epochs, 15,000 such reads a day.
package struct KeyFilter: Equatable, Sendable {
  private(set) var blocks: [SIMD8<UInt32>]

  package static let bitsPerKey = 24

  package var blockCount: Int { blocks.count }

  /// A key, mixed once and then tested against any number of filters.
  package struct Probe {
    let hash: UInt64
  }

  /// An empty filter sized for `capacity` keys.
  package init(capacity: Int) {
    blocks = Array(repeating: .zero, count: Self.blockCount(capacity: capacity))
  }

  /// The blocks of a filter sized for `capacity` keys.
  static func blockCount(capacity: Int) -> Int { max(1, (max(capacity, 1) * bitsPerKey + 255) / 256) }

  /// A filter read back from `bytes` (as `bytes` wrote it), or nil when they cannot be one.
  package init?(bytes: [UInt8]) {
    guard !bytes.isEmpty, bytes.count % 32 == 0 else { return nil }
    blocks = [SIMD8<UInt32>](repeating: .zero, count: bytes.count / 32)
    blocks.withUnsafeMutableBytes { target in bytes.withUnsafeBytes { target.copyMemory(from: $0) } }
    // Stored little-endian: a big-endian machine swaps each word (a no-op elsewhere).
    for index in blocks.indices { blocks[index] = Self.littleEndian(blocks[index]) }
  }

  /// The words little-endian, whatever the machine: a file written on one reads on another.
  package var bytes: [UInt8] {
    let words = blocks.map(Self.littleEndian)
    return words.withUnsafeBytes { [UInt8]($0) }
  }

  private static func littleEndian(_ block: SIMD8<UInt32>) -> SIMD8<UInt32> {
    var block = block
    for lane in 0..<8 { block[lane] = block[lane].littleEndian }
    return block
  }

  package static func probe(_ key: Int64) -> Probe { Probe(hash: mix(UInt64(bitPattern: key))) }

  package mutating func insert(_ probe: Probe) {
    blocks[Self.block(of: probe, among: blocks.count)] |= Self.mask(probe)
  }

  package func mayContain(_ probe: Probe) -> Bool {
    let mask = Self.mask(probe)
    return all(blocks[Self.block(of: probe, among: blocks.count)] & mask .== mask)
  }

  /// The probe's block: the high half of the hash, scaled to the block count.
  static func block(of probe: Probe, among count: Int) -> Int {
    Int(((probe.hash >> 32) &* UInt64(count)) >> 32)
  }

  /// One bit per word, chosen by the low half of the hash times that word's odd constant.
  static func mask(_ probe: Probe) -> SIMD8<UInt32> {
    let bit = (SIMD8(repeating: UInt32(truncatingIfNeeded: probe.hash)) &* salts) &>> 27
    return SIMD8(repeating: 1) &<< bit
  }

  private static let salts = SIMD8<UInt32>(
    0x47b6_137b, 0x4497_4d91, 0x8824_ad5b, 0xa2b7_289d, 0x7054_95c7, 0x2df1_424b, 0x9efc_4947, 0x5c6b_fb31)

  /// MurmurHash3's 64-bit finalizer: keys within an epoch differ in their low bits only, and
  /// the block and bit choices need every bit of the key to reach both halves of the hash.
  private static func mix(_ value: UInt64) -> UInt64 {
    var x = value
    x ^= x >> 33
    x &*= 0xff51_afd7_ed55_8ccd
    x ^= x >> 33
    x &*= 0xc4ce_b9fe_1a85_ec53
    x ^= x >> 33
    return x
  }
}
