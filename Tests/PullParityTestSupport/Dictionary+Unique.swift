/// A key met twice, named: the test that built the dictionary fails with it, where
/// `Dictionary(uniqueKeysWithValues:)` would trap and end the whole test run.
package struct DuplicateKey: Error, CustomStringConvertible {
  /// The key as text: keys need not be `Sendable`, errors must be.
  package let key: String
  package var description: String { "the key \(key) occurs more than once" }
}

extension Dictionary {
  /// The pairs as a dictionary; throws `DuplicateKey` on a key met twice.
  package init(uniquePairs pairs: some Sequence<(Key, Value)>) throws {
    self.init()
    for (key, value) in pairs {
      guard updateValue(value, forKey: key) == nil else { throw DuplicateKey(key: "\(key)") }
    }
  }
}
