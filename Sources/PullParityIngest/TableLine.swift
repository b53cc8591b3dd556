/// One line of `pullparity derive`'s output: a row and the table it belongs to.
public struct TableLine<Row: Codable & Sendable>: Codable, Sendable {
  public var table: String
  public var row: Row

  public init(table: String, row: Row) {
    self.table = table
    self.row = row
  }
}
