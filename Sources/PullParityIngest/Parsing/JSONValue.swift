/// A top-level field's value as the JSON parser found it: enough for the contract's type rules
/// (a string where a number belongs is a different rejection than a missing field).
package enum JSONValue: Equatable, Sendable {
  case null
  case bool(Bool)
  case number(Double)
  case string(String)
  /// Objects other than `indicator` are not looked into.
  case object
  case array

  package var typeName: String {
    switch self {
    case .null: "null"
    case .bool: "a boolean"
    case .number: "a number"
    case .string: "a string"
    case .object: "an object"
    case .array: "an array"
    }
  }
}
