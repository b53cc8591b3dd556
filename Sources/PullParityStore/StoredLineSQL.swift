/// The one join that finds a session's stored lines: its spans of consecutive `event_pk`
/// (`session_spans`), their events and the events' sources. Ingest re-deriving a session,
/// replay and `pullparity session` read through it, each adding its own WHERE or ORDER BY.
enum StoredLineSQL {
  /// Columns `session_ref`, `raw`, `source` (the file's name) and `line`.
  static let select = """
    SELECT sp.session_ref, e.raw, s.name AS source, e.line
    FROM session_spans sp
    JOIN events e ON e.event_pk BETWEEN sp.first_event_pk AND sp.last_event_pk
    JOIN sources s ON s.source_id = e.source_id
    """

  /// Hands `body` each row of `statement` (a `select` already bound) as (raw bytes, source,
  /// line): a session of a million events is never held as text and as events at once.
  static func forEachLine(
    _ statement: RawStatement, _ context: @autoclosure () -> String,
    _ body: (UnsafeRawBufferPointer, String, Int) throws -> Void
  ) throws {
    var source = ""
    let (rawColumn, sourceColumn, lineColumn) = (
      statement.column("raw"), statement.column("source"), statement.column("line")
    )
    try statement.forEachRow(context()) { row in
      // Consecutive events mostly share a source: its name is made once per run of them.
      let name = row.bytes(sourceColumn)
      if !source.utf8.elementsEqual(name) { source = String(decoding: name, as: UTF8.self) }
      try body(row.bytes(rawColumn), source, Int(row.int64(lineColumn)))
    }
  }
}
