import PullParityStore
import PullParityTestSupport
import Testing

/// The Bloom filter in front of closed key epochs: it may say "maybe" for an absent key, never
/// "no" for a present one, and reads back what it wrote.
@Suite struct KeyFilterTests {
  /// Deterministic keys spread like hashes (splitmix64's sequence).
  static func keys(_ count: Int, seed: UInt64) -> [Int64] {
    var random = SplitMix64(seed: seed)
    return (0..<count).map { _ in Int64(bitPattern: random.next()) }
  }

  @Test func everyKeyPutInIsFoundAndFewOthersAre() {
    let present = Self.keys(50_000, seed: 1)
    var filter = KeyFilter(capacity: present.count)
    for key in present { filter.insert(KeyFilter.probe(key)) }
    #expect(present.allSatisfy { filter.mayContain(KeyFilter.probe($0)) })
    let absent = Self.keys(50_000, seed: 2)
    let falsePositives = absent.filter { filter.mayContain(KeyFilter.probe($0)) }.count
    // 24 bits a key: about 0.02 %; 0.05 % would mean the blocks or bits are chosen badly.
    #expect(falsePositives < 25, "\(falsePositives) of 50,000 absent keys reported")
  }

  /// Keys of one epoch differ in their low bits only (small consecutive numbers here): the
  /// filter must still spread them.
  @Test func consecutiveKeysAreSpreadAsWellAsRandomOnes() {
    var filter = KeyFilter(capacity: 20_000)
    for key in Int64(0)..<20_000 { filter.insert(KeyFilter.probe(key)) }
    let falsePositives = (Int64(1_000_000)..<1_020_000).filter { filter.mayContain(KeyFilter.probe($0)) }.count
    #expect(falsePositives < 10, "\(falsePositives) of 20,000 absent keys reported")
  }

  @Test func readsBackWhatItWrote() throws {
    var filter = KeyFilter(capacity: 1_000)
    for key in Self.keys(1_000, seed: 3) { filter.insert(KeyFilter.probe(key)) }
    let bytes = filter.bytes
    #expect(bytes.count == 3_008)  // 94 blocks of 32 bytes for 24,000 bits
    #expect(try #require(KeyFilter(bytes: bytes)) == filter)
    #expect(KeyFilter(bytes: bytes)?.bytes == bytes)
  }

  /// Filters side by side answer as each one alone: the matrix is a layout, not a new filter.
  @Test func aMatrixAnswersAsItsFiltersDo() {
    let filters = (0..<3).map { column -> KeyFilter in
      var filter = KeyFilter(capacity: 2_000)
      for key in Self.keys(2_000, seed: UInt64(10 + column)) { filter.insert(KeyFilter.probe(key)) }
      return filter
    }
    var matrix = KeyFilterMatrix(blockCount: filters[0].blockCount)
    // One added alone, then two at once: the layout grows either way.
    matrix.add([(7, filters[0])])
    matrix.add([(8, filters[1]), (9, filters[2])])
    // Keys of each filter, and keys of none.
    let probes = (10..<14).flatMap { Self.keys(2_000, seed: UInt64($0)) }.map(KeyFilter.probe)
    for probe in probes {
      var found: [Int64] = []
      matrix.forEachMayHold(probe) { found.append($0) }
      let expected = filters.indices.filter { filters[$0].mayContain(probe) }.map { Int64($0 + 7) }
      #expect(found == expected)
    }
  }

  /// The open epoch's column changes in place while closed ones are added one at a time past
  /// the room a row has: after each change the matrix answers as its filters would, with no
  /// trace of a removed column's bits.
  @Test func aMatrixChangedColumnByColumnAnswersAsItsFiltersDo() {
    func filter(seed: UInt64) -> KeyFilter {
      var filter = KeyFilter(capacity: 500)
      for key in Self.keys(500, seed: seed) { filter.insert(KeyFilter.probe(key)) }
      return filter
    }
    var model: [(epoch: Int64, filter: KeyFilter)] = []
    var matrix = KeyFilterMatrix(blockCount: filter(seed: 0).blockCount)
    let probes = (20..<32).flatMap { Self.keys(500, seed: UInt64($0)) }.map(KeyFilter.probe)
    func expectSameAnswers() {
      for probe in probes {
        var found: [Int64] = []
        matrix.forEachMayHold(probe) { found.append($0) }
        #expect(found == model.filter { $0.filter.mayContain(probe) }.map(\.epoch))
      }
    }
    for epoch in Int64(1)...9 {
      // The open epoch: a column filled key by key, then removed and added whole, then closed.
      var open = KeyFilter(capacity: 500)
      model.append((epoch, open))
      matrix.add([(epoch, open)])
      for key in Self.keys(200, seed: UInt64(20 + epoch)) {
        open.insert(KeyFilter.probe(key))
        matrix.insertIntoLast(KeyFilter.probe(key))
      }
      model[model.count - 1].filter = open
      expectSameAnswers()
      matrix.removeLast()
      model.removeLast()
      expectSameAnswers()
      // Added again empty where the removed column's bits were, then closed with its keys.
      matrix.add([(epoch, KeyFilter(capacity: 500))])
      model.append((epoch, KeyFilter(capacity: 500)))
      expectSameAnswers()
      let closed = filter(seed: UInt64(20 + epoch))
      matrix.replaceLast(epoch: epoch, with: closed)
      model[model.count - 1].filter = closed
      expectSameAnswers()
    }
  }

  @Test(arguments: [0, 1, 31, 33, 100])
  func bytesThatCannotBeAFilterAreRefused(count: Int) {
    #expect(KeyFilter(bytes: [UInt8](repeating: 0xff, count: count)) == nil)
  }
}
