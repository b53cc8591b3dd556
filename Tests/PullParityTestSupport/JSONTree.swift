package import Foundation

/// Parsed JSON that a test reads by path. Every read throws an error naming the path and what
/// was there, so a report shaped other than the test expects fails that one test with a reason,
/// where `as!` would trap and take the whole test process down.
package struct JSONTree: CustomStringConvertible, @unchecked Sendable {
  /// What `JSONSerialization` made of the text: a dictionary, array, string, number or null.
  package let value: Any?
  /// Where `value` is in the document: `$.apps[0].groups`.
  package let path: String

  package init(parsing data: Data) throws {
    value = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
    path = "$"
  }

  package init(parsing text: String) throws {
    try self.init(parsing: Data(text.utf8))
  }

  private init(_ value: Any?, at path: String) {
    self.value = value
    self.path = path
  }

  package struct ShapeError: Error, CustomStringConvertible {
    package let path: String
    package let expected: String
    package let found: String
    package var description: String { "\(path): expected \(expected), found \(found)" }
  }

  package var description: String { "\(path) = \(value.map { "\($0)" } ?? "missing")" }

  /// A member of an object; a missing key reads as missing, not as an error, until it is used.
  package subscript(key: String) -> JSONTree {
    get throws { JSONTree(try cast(to: [String: Any].self, "an object")[key], at: "\(path).\(key)") }
  }

  package subscript(index: Int) -> JSONTree {
    get throws {
      let array = try cast(to: [Any].self, "an array")
      guard array.indices.contains(index) else {
        throw ShapeError(path: "\(path)[\(index)]", expected: "an element", found: "\(array.count) elements")
      }
      return JSONTree(array[index], at: "\(path)[\(index)]")
    }
  }

  package var array: [JSONTree] {
    get throws {
      try cast(to: [Any].self, "an array").enumerated().map { JSONTree($0.element, at: "\(path)[\($0.offset)]") }
    }
  }

  /// An object's members by key.
  package var object: [String: JSONTree] {
    get throws {
      try cast(to: [String: Any].self, "an object").reduce(into: [:]) {
        $0[$1.key] = JSONTree($1.value, at: "\(path).\($1.key)")
      }
    }
  }

  package var string: String { get throws { try cast(to: String.self, "a string") } }

  package var int: Int {
    get throws {
      if let int = value as? Int { return int }
      if let double = value as? Double, let int = Int(exactly: double) { return int }
      throw ShapeError(path: path, expected: "an integer", found: "\(value.map { "\($0)" } ?? "nothing")")
    }
  }

  package var double: Double {
    get throws {
      if let double = value as? Double { return double }
      return Double(try int)
    }
  }

  package var isNull: Bool { value == nil || value is NSNull }

  /// The elements of an array whose member `key` is the string `value`: `platforms` by name.
  package func element(where key: String, is expected: String) throws -> JSONTree {
    for element in try array where try element[key].value as? String == expected { return element }
    throw ShapeError(path: path, expected: "an element with \(key) = \(expected)", found: "none")
  }

  private func cast<T>(to type: T.Type, _ expected: String) throws -> T {
    guard let cast = value as? T else {
      throw ShapeError(path: path, expected: expected, found: value.map { "\(Swift.type(of: $0))" } ?? "nothing")
    }
    return cast
  }
}
