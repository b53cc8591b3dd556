internal import PullParityStore

/// Decodes a row of a run's table from a line `FlatRowScanner` takes, through the row's own
/// `Decodable` conformance and without `JSONDecoder`, which was most of what reading a run's
/// sessions cost. Only a value in its plain form is taken: a text for a `String`, digits for an
/// `Int`, a normal number (or a zero) for a `Double`, null or nothing for an optional, each key
/// once. Anything else is nil, and the line is then decoded by `JSONDecoder`, which decides
/// what such a value is or names what is wrong, so the row read is the row it reads.
enum FlatRowDecoder {
  static func decode<Row: PlainDecodableRow>(_ type: Row.Type, from line: UnsafeRawBufferPointer) -> Row? {
    var fields: [Field] = []
    fields.reserveCapacity(48)
    var scanner = FlatRowScanner(line)
    let read = scanner.forEachField { key, value in
      // A key met twice: `JSONDecoder` keeps the first value; left to it.
      guard !fields.contains(where: { FlatRowScanner.same($0.key, key) }) else { return false }
      fields.append(Field(key: key, value: value))
      return true
    }
    guard read else { return nil }
    return try? Row(from: RowDecoder(fields: fields))
  }

  /// A field of the line: the key's bytes (in the line: keys have no escapes), the value's.
  fileprivate struct Field {
    enum Value {
      case text(String)
      /// The number's bytes, in the line.
      case number(UnsafeRawBufferPointer)
      case null
      case other
    }

    let key: UnsafeRawBufferPointer
    let value: Value

    init(key: UnsafeRawBufferPointer, value: FlatRowScanner.Value) {
      self.key = key
      switch value {
      // Lent for this call only: kept as a `String`, which the row holds anyway.
      case .string(let bytes): self.value = .text(FlatRowScanner.text(bytes))
      case .number(let bytes): self.value = .number(bytes)
      case .null: self.value = .null
      case .bool: self.value = .other
      }
    }
  }

  /// Thrown for a value this decoder does not take.
  fileprivate struct NotPlain: Error {}
}

/// A row whose `Decodable` conformance only asks its container for a keyed value of a plain
/// type and catches nothing (the synthesized one), so that `FlatRowDecoder`'s refusals reach
/// the caller, who then asks `JSONDecoder`.
protocol PlainDecodableRow: Decodable {}

extension SessionRow: PlainDecodableRow {}
extension ViolationRow: PlainDecodableRow {}

private struct RowDecoder: Decoder {
  let fields: [FlatRowDecoder.Field]
  var codingPath: [any CodingKey] { [] }
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedDecodingContainer<Key> {
    KeyedDecodingContainer(RowContainer<Key>(fields: fields))
  }

  func unkeyedContainer() throws -> any UnkeyedDecodingContainer { throw FlatRowDecoder.NotPlain() }
  func singleValueContainer() throws -> any SingleValueDecodingContainer { throw FlatRowDecoder.NotPlain() }
}

private struct RowContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
  typealias NotPlain = FlatRowDecoder.NotPlain
  let fields: [FlatRowDecoder.Field]
  var codingPath: [any CodingKey] { [] }
  var allKeys: [Key] { fields.compactMap { Key(stringValue: String(decoding: $0.key, as: UTF8.self)) } }

  private func value(_ key: Key) -> FlatRowDecoder.Field.Value? {
    var name = key.stringValue
    return name.withUTF8 { name in
      fields.first { FlatRowScanner.same($0.key, UnsafeRawBufferPointer(name)) }?.value
    }
  }

  func contains(_ key: Key) -> Bool { value(key) != nil }

  func decodeNil(forKey key: Key) throws -> Bool {
    guard let value = value(key) else { throw NotPlain() }
    if case .null = value { return true }
    return false
  }

  func decode(_ type: String.Type, forKey key: Key) throws -> String {
    guard case .text(let text)? = value(key) else { throw NotPlain() }
    return text
  }

  func decode(_ type: Int.Type, forKey key: Key) throws -> Int {
    guard case .number(let bytes)? = value(key), let number = FlatRowScanner.int(bytes) else { throw NotPlain() }
    return number
  }

  func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
    guard case .number(let bytes)? = value(key), let number = FlatRowScanner.double(bytes) else { throw NotPlain() }
    return number
  }

  // The types no row of a run's tables holds: left to `JSONDecoder`.
  func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { throw NotPlain() }
  func decode(_ type: Float.Type, forKey key: Key) throws -> Float { throw NotPlain() }
  func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { throw NotPlain() }
  func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { throw NotPlain() }
  func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { throw NotPlain() }
  func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { throw NotPlain() }
  func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { throw NotPlain() }
  func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { throw NotPlain() }
  func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { throw NotPlain() }
  func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { throw NotPlain() }
  func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { throw NotPlain() }
  func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { throw NotPlain() }

  func nestedContainer<NestedKey: CodingKey>(
    keyedBy type: NestedKey.Type, forKey key: Key
  ) throws -> KeyedDecodingContainer<NestedKey> { throw NotPlain() }
  func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer { throw NotPlain() }
  func superDecoder() throws -> any Decoder { throw NotPlain() }
  func superDecoder(forKey key: Key) throws -> any Decoder { throw NotPlain() }
}
