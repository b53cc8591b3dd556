/// One line of `pullparity derive`'s output: a row and the table it belongs to.
package struct TableLine<Row: Codable & Sendable>: Codable, Sendable {
  package var table: String
  package var row: Row

  package init(table: String, row: Row) {
    self.table = table
    self.row = row
  }
}
