internal import GRDB

/// A statement's columns by name, looked up once: hot loops read cells by position without
/// depending on the order of the SELECT list.
struct ColumnPositions {
  private let positions: [String: Int]

  init(_ statement: Statement) {
    var positions: [String: Int] = [:]
    for (index, name) in statement.columnNames.enumerated() { positions[name] = index }
    self.positions = positions
  }

  /// The column's position; a name the statement does not select is a programming error.
  subscript(_ name: String) -> Int {
    guard let position = positions[name] else { preconditionFailure("no column \(name) in the statement") }
    return position
  }
}
