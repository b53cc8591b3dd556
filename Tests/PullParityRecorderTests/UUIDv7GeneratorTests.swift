import Foundation
import PullParityRecorder
import Testing

@Suite struct UUIDv7GeneratorTests {
  /// Lowercase hex 8-4-4-4-12, version 7, RFC variant.
  static func isUUIDv7(_ id: String) -> Bool {
    id.wholeMatch(of: /[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}/) != nil
  }

  /// The 48-bit millisecond field, read back from the text.
  static func milliseconds(_ id: String) -> UInt64 {
    UInt64(id.replacingOccurrences(of: "-", with: "").prefix(12), radix: 16)!
  }

  @Test func idsAreVersion7WithTheTimestampInTheirFirst48Bits() {
    var ids = UUIDv7Generator()
    for timestamp in [0, 1_794_800_000_123.9, 281_474_976_710_655] {
      let id = ids.nextID(at: timestamp)
      #expect(Self.isUUIDv7(id), "\(id)")
      #expect(Self.milliseconds(id) == UInt64(timestamp.rounded(.down)), "\(id)")
    }
  }

  /// A clock out of the field's range (an injected one, or a bad conversion upstream) gives
  /// valid ids at the field's ends instead of a trap.
  @Test(arguments: [(-5.0, 0 as UInt64), (1e20, 0xFFFF_FFFF_FFFF), (.infinity, 0), (-.infinity, 0), (.nan, 0)])
  func aClockOutOfRangeIsClamped(timestamp: Double, milliseconds: UInt64) {
    var ids = UUIDv7Generator()
    let id = ids.nextID(at: timestamp)
    #expect(Self.isUUIDv7(id), "\(id)")
    #expect(Self.milliseconds(id) == milliseconds, "\(id)")
  }

  /// Same millisecond, a clock that steps back, and more ids in one millisecond than the
  /// counter holds: the ids still sort in the order they were made, and never repeat.
  @Test func idsSortInTheOrderTheyWereMade() {
    var ids = UUIDv7Generator.seeded()
    let timestamps =
      Array(repeating: 1_794_800_000_000.5, count: 5_000) + [1_794_799_999_000]
      + (0..<50).map { 1_794_800_000_010 + Double($0) / 10 }
    let made = timestamps.map { ids.nextID(at: $0) }
    #expect(made == made.sorted())
    #expect(Set(made).count == made.count)
    #expect(made.allSatisfy(Self.isUUIDv7))
    // 5,000 ids overflow a 4,096 counter: the generator borrows the next millisecond.
    #expect(Self.milliseconds(made[0]) == 1_794_800_000_000)
    #expect(Self.milliseconds(made[4_999]) > 1_794_800_000_000)
    // A clock stepping back does not take the ids back with it.
    #expect(Self.milliseconds(made[5_000]) >= Self.milliseconds(made[4_999]))
  }

  @Test func aSeededGeneratorRepeatsItself() {
    var first = UUIDv7Generator.seeded(42)
    var second = UUIDv7Generator.seeded(42)
    var other = UUIDv7Generator.seeded(43)
    let a = (0..<10).map { first.nextID(at: 1_794_800_000_000 + Double($0)) }
    let b = (0..<10).map { second.nextID(at: 1_794_800_000_000 + Double($0)) }
    let c = (0..<10).map { other.nextID(at: 1_794_800_000_000 + Double($0)) }
    #expect(a == b)
    #expect(Set(a).isDisjoint(with: c))
  }
}
