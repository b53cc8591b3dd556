internal import PullParityCore
internal import PullParityIngest
internal import PullParityStore

/// Event rows of one part file on their way from `load`'s reading thread to its loading thread,
/// as ingest hands its chunks over: numbers and slices of one arena, no strings. A row of
/// strings cost both threads an allocation, a release and reference counting per column, and
/// the frees of one thread's allocations on the other contended for the allocator's lock.
struct EventBatch: Sendable {
  struct Row: Sendable {
    /// Its columns; its session and source index the batch's `sessions` and `sources`.
    var event: EventRow
    /// The id's hash, for the run's own check that it keeps one version of each event.
    var idHash: Int64
    /// Where the row is in the part file.
    var fileLine: Int
  }

  let file: String
  private(set) var rows: [Row] = []
  private(set) var arena: [UInt8] = []
  private(set) var sessions = BatchTexts()
  private(set) var sources = BatchTexts()
  /// The scanner's scratch, from line to line.
  private var scanScratch: [UInt8] = []

  init(file: String, expectedRows: Int) {
    self.file = file
    rows.reserveCapacity(expectedRows)
    arena.reserveCapacity(expectedRows * 640)
  }

  func location(of row: Row) -> PipeLocation { PipeLocation(input: file, line: row.fileLine) }

  /// The row as `JSONDecoder` reads it from its line (for tests, and for what is rare enough
  /// to need the strings).
  func decoded(_ row: Row) -> EventTableRow {
    arena.withUnsafeBytes { arena in
      let text = { (slice: ArenaSlice) in String(decoding: slice.bytes(in: arena), as: UTF8.self) }
      let event = row.event
      return EventTableRow(
        eventID: text(event.eventID), sessionID: text(event.sessionID), tsMs: event.timestamp, seq: event.seq,
        platform: text(event.platform), app: text(event.app), type: text(event.type),
        source: sources.texts[event.sourceIndex], line: event.line, byteOffset: event.byteOffset, raw: text(event.raw))
    }
  }

  /// Adds the row `JSONDecoder` read from line `fileLine`.
  mutating func append(_ row: EventTableRow, fileLine: Int) {
    var columns = ScannedEventColumns()
    (columns.eventID, columns.sessionID) = (copy(row.eventID), copy(row.sessionID))
    (columns.platform, columns.app, columns.type) = (copy(row.platform), copy(row.app), copy(row.type))
    (columns.source, columns.raw) = (copy(row.source), copy(row.raw))
    (columns.tsMs, columns.seq, columns.line, columns.byteOffset) = (row.tsMs, row.seq, row.line, row.byteOffset)
    _ = append(columns, fileLine: fileLine)
  }

  /// Adds the row of `line` read without `JSONDecoder` (`FlatRowScanner`); false, and the batch
  /// as it was, when the line is not a flat object holding every column in its plain form:
  /// `JSONDecoder` then reads it, and names what is wrong.
  mutating func append(scanning line: UnsafeRawBufferPointer, fileLine: Int) -> Bool {
    let mark = arena.count
    var columns = ScannedEventColumns()
    var reused: [UInt8] = []
    swap(&reused, &scanScratch)
    var scanner = FlatRowScanner(line, reusing: consume reused)
    let read = scanner.forEachField { key, value in columns.take(key, value) { copy($0) } }
    scanScratch = scanner.scratch
    guard read, append(columns, fileLine: fileLine) else {
      arena.removeSubrange(mark...)
      return false
    }
    return true
  }

  private mutating func copy(_ bytes: UnsafeRawBufferPointer) -> ArenaSlice {
    defer { arena.append(contentsOf: bytes) }
    return ArenaSlice(start: arena.count, count: bytes.count)
  }

  private mutating func copy(_ text: String) -> ArenaSlice {
    var text = text
    return text.withUTF8 { copy(UnsafeRawBufferPointer($0)) }
  }

  /// Adds the row when every column is there.
  private mutating func append(_ columns: ScannedEventColumns, fileLine: Int) -> Bool {
    guard let eventID = columns.eventID, let sessionID = columns.sessionID, let platform = columns.platform,
      let app = columns.app, let type = columns.type, let source = columns.source, let raw = columns.raw,
      let tsMs = columns.tsMs, let line = columns.line, let byteOffset = columns.byteOffset
    else { return false }
    let row = arena.withUnsafeBytes { arena in
      let id = eventID.bytes(in: arena)
      let event = EventRow(
        eventID: eventID, sessionID: sessionID, platform: platform, app: app, type: type, raw: raw, timestamp: tsMs,
        seq: columns.seq, idKey: EventKey.idKey(of: id), sessionIndex: sessions.index(of: sessionID, in: arena),
        sourceIndex: sources.index(of: source, in: arena), line: line, byteOffset: byteOffset)
      return Row(event: event, idHash: StableHash.fnv1a64(id), fileLine: fileLine)
    }
    rows.append(row)
    return true
  }
}

/// The distinct values of a text column in a batch (session ids, sources) in first-seen order:
/// the loading thread resolves each once, not once a row. Rows come grouped by session, so a
/// row's value is only looked up when it differs from the row before's.
struct BatchTexts: Sendable {
  private(set) var texts: [String] = []
  private var indices: [ByteIdentity: Int] = [:]
  private var last: (slice: ArenaSlice, index: Int)?

  mutating func index(of slice: ArenaSlice, in arena: UnsafeRawBufferPointer) -> Int {
    let bytes = slice.bytes(in: arena)
    if let last, FlatRowScanner.same(bytes, last.slice.bytes(in: arena)) {
      return last.index
    }
    let text = String(decoding: bytes, as: UTF8.self)
    let index = indices[ByteIdentity(text)] ?? texts.count
    if index == texts.count {
      texts.append(text)
      indices[ByteIdentity(text)] = index
    }
    last = (slice, index)
    return index
  }
}
