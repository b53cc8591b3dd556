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
}
