/// A CSV document read as RFC 4180 says (fields split on commas outside quotes, `""` a quote,
/// records on CRLF or LF outside quotes), whose rows a test reads by column name: a test that
/// reads by position keeps passing on the wrong column when one is added.
package struct CSVTable {
  package let header: [String]
  package let rows: [Row]

  package struct Row {
    let fields: [String: String]
    /// How many fields the record had: the header's count in a well-formed file.
    package let fieldCount: Int
    /// The field under `column`, or `nil` for a column the header lacks.
    package subscript(column: String) -> String? { fields[column] }
  }

  package init(parsing text: String) {
    let records = Self.records(text)
    let header = records.first ?? []
    self.header = header
    rows = records.dropFirst().map { record in
      Row(fields: Dictionary(zip(header, record), uniquingKeysWith: { first, _ in first }), fieldCount: record.count)
    }
  }

  static func records(_ text: String) -> [[String]] {
    var records: [[String]] = []
    var record: [String] = []
    var field = ""
    var quoted = false
    var characters = Array(text)[...]
    while let character = characters.popFirst() {
      switch (quoted, character) {
      case (true, "\""):
        if characters.first == "\"" { field.append(characters.removeFirst()) } else { quoted = false }
      case (true, _): field.append(character)
      case (false, "\""): quoted = true
      case (false, ","):
        record.append(field)
        field = ""
      case (false, "\r\n"), (false, "\n"):
        records.append(record + [field])
        (record, field) = ([], "")
      default: field.append(character)
      }
    }
    if !field.isEmpty || !record.isEmpty { records.append(record + [field]) }
    return records
  }
}
