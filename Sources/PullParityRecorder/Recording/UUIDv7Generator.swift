/// Time-ordered UUIDs (RFC 9562 version 7): 48 bits of epoch milliseconds, a 12-bit counter in
/// `rand_a` (the RFC's method 1) and 62 random bits.
///
/// Ids from one generator sort, as strings, in the order they were made, even within one
/// millisecond or when the clock steps back: the store then only ever appends.
public struct UUIDv7Generator<Random: RandomNumberGenerator & Sendable>: EventIDSource {
  private var random: Random
  private var lastMilliseconds: UInt64 = 0
  private var counter: UInt64 = 0

  private static var counterLimit: UInt64 { 0xFFF }
  private static var largestMilliseconds: Double { Double(0xFFFF_FFFF_FFFF as UInt64) }

  public init(random: Random) {
    self.random = random
  }

  public mutating func nextID(at timestamp: Double) -> String {
    // Clamped to the 48-bit field: an injected clock far out of range (1e20 ms) gives the last
    // millisecond the field holds instead of trapping in the conversion.
    let milliseconds =
      timestamp.isFinite ? UInt64(min(max(0, timestamp.rounded(.down)), Self.largestMilliseconds)) : 0
    if milliseconds > lastMilliseconds {
      lastMilliseconds = milliseconds
      // Start low in the counter's range so that many ids in one millisecond still fit.
      counter = random.next() & 0x7FF
    } else if counter < Self.counterLimit {
      counter += 1
    } else {
      // 4096 ids in one millisecond: borrow the next one rather than lose the order.
      lastMilliseconds += 1
      counter = random.next() & 0x7FF
    }
    let high = lastMilliseconds << 16 | 0x7000 | counter
    let low = 0x8000_0000_0000_0000 | random.next() >> 2
    return Self.format(high, low)
  }

  private static func format(_ high: UInt64, _ low: UInt64) -> String {
    let hex = hex16(high) + hex16(low)
    var text = ""
    text.reserveCapacity(36)
    for (index, character) in hex.enumerated() {
      if index == 8 || index == 12 || index == 16 || index == 20 { text.append("-") }
      text.append(character)
    }
    return text
  }

  private static func hex16(_ value: UInt64) -> String {
    let digits = String(value, radix: 16)
    return String(repeating: "0", count: 16 - digits.count) + digits
  }
}

extension UUIDv7Generator where Random == SystemRandomNumberGenerator {
  public init() {
    self.init(random: SystemRandomNumberGenerator())
  }
}
