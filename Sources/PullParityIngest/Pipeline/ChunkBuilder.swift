internal import PullParityCore
internal import PullParityStore

/// Fills a chunk on the reading thread: rows for the writer, plus the chunk's sessions derived
/// from its own events (which are dropped once derived: the chunk carries no `Event`).
struct ChunkBuilder {
  let profiles: ProfileCatalog
  let sourceNames: [String]
  /// The line limit, for the message of a line over it.
  let maxLineBytes: Int
  private(set) var chunk: IngestChunk
  /// Derive the chunk's sessions here (off the writer's thread); off when the writer says the
  /// input is a re-sent one, whose sessions it will not need.
  var derivesSessions = true
  /// Parse lines as they come; off while a re-sent file streams by (see `UnparsedLine`).
  var parsesLines = true
  private var firstLine: (sourceIndex: Int, number: Int)?
  private var contentHash = ChunkContentHash()
  private var byteCount = 0
  /// Each session's events, grouped as they arrive so deriving needs no further copies.
  private var sessionEvents: [[RecordedEvent]] = []
  private var sessionIndexByID: [ByteIdentity: Int] = [:]

  init(profiles: ProfileCatalog, sourceNames: [String], expectedLines: Int, maxLineBytes: Int) {
    self.profiles = profiles
    self.sourceNames = sourceNames
    self.maxLineBytes = maxLineBytes
    self.chunk = IngestChunk(expectedLines: expectedLines)
  }

  /// Decodes a line and adds its event or its rejection; a line over the limit is rejected
  /// unread (only its first bytes were kept).
  mutating func take(_ line: InputLine, sourceIndex: Int, decoder: inout LineDecoder) {
    if line.isTooLong {
      reject(LineRejection.tooLong(line.length, limit: maxLineBytes), sourceIndex: sourceIndex, line: line)
      return
    }
    switch decoder.decode(line.bytes, readableCount: line.readableCount) {
    case .blank: break
    case .event(let event): add(event, sourceIndex: sourceIndex, line: line)
    case .rejected(let rejection): reject(rejection, sourceIndex: sourceIndex, line: line)
    }
  }

  /// Takes the event over (`consuming`): it moves into the session's events instead of being
  /// copied there, string by string, and released by the caller.
  mutating func add(_ event: consuming Event, sourceIndex: Int, line: InputLine) {
    let sessionIndex: Int
    let identity = ByteIdentity(event.sessionID)
    if let known = sessionIndexByID[identity] {
      sessionIndex = known
    } else {
      sessionIndex = chunk.sessions.count
      sessionIndexByID[identity] = sessionIndex
      chunk.sessions.append(ChunkSession(sessionID: event.sessionID, rowIndices: [], derived: nil))
      sessionEvents.append([])
    }
    chunk.sessions[sessionIndex].rowIndices.append(chunk.rows.count)
    let row = EventRow(
      eventID: chunk.copy(event.eventID), sessionID: chunk.copy(event.sessionID),
      platform: chunk.copy(event.platform), app: chunk.copy(event.app), type: chunk.copy(event.type.rawValue),
      raw: chunk.copy(line.bytes), timestamp: event.timestamp, seq: event.seq,
      idKey: EventKey.of(event.eventID), sessionIndex: sessionIndex, sourceIndex: sourceIndex,
      line: line.number, byteOffset: line.byteOffset)
    chunk.rows.append(row)
    if derivesSessions {
      sessionEvents[sessionIndex].append(
        RecordedEvent(event: event, source: sourceNames[sourceIndex], line: line.number))
    }
  }

  mutating func reject(_ rejection: Rejection, sourceIndex: Int, line: InputLine) {
    chunk.rejected.append(
      RejectedLine(
        rejection: rejection, sourceIndex: sourceIndex, line: line.number, byteOffset: line.byteOffset,
        raw: chunk.copy(line.bytes)))
  }

  /// Counts a line and folds its bytes into the chunk's fingerprint.
  mutating func countLine(_ line: InputLine, sourceIndex: Int) {
    if firstLine == nil { firstLine = (sourceIndex, line.number) }
    contentHash.add(line.bytes)
    // A line over the limit is known by its first bytes and its length.
    byteCount += line.length + 1
    chunk.linesRead += 1
    if line.isBlank { chunk.blankLines += 1 }
  }

  /// Keeps a line to be parsed later, if its chunk turns out to be new.
  mutating func keepUnparsed(_ line: InputLine, sourceIndex: Int) {
    chunk.unparsed.append(
      UnparsedLine(
        sourceIndex: sourceIndex, line: line.number, byteOffset: line.byteOffset, length: line.length,
        isTooLong: line.isTooLong, raw: chunk.copy(line.bytes)))
  }

  var lineCount: Int { chunk.linesRead }

  /// Derives every session of the chunk and hands the chunk over, starting a new one.
  mutating func finish() -> IngestChunk {
    if let firstLine {
      chunk.fingerprint = ChunkFingerprint(
        source: sourceNames[firstLine.sourceIndex], firstLine: firstLine.number, lineCount: chunk.linesRead,
        byteCount: byteCount, contentHash: contentHash.value, rulesVersion: EventDecoder.rulesVersion)
    }
    chunk.isParsed = parsesLines
    firstLine = nil
    contentHash = ChunkContentHash()
    byteCount = 0
    if derivesSessions {
      for index in chunk.sessions.indices {
        chunk.sessions[index].derived = SessionDeriver.derive(sessionEvents[index], profiles: profiles)
      }
    }
    let repeatedIDKeys = Self.repeatedKeys(of: chunk.rows)
    if !repeatedIDKeys.isEmpty {
      for index in chunk.rows.indices where repeatedIDKeys.contains(chunk.rows[index].idKey) {
        chunk.rows[index].idRepeatsInChunk = true
        chunk.repeatedIDRows.append(index)
      }
    }
    let full = chunk
    chunk = IngestChunk(expectedLines: full.rows.capacity)
    sessionEvents.removeAll(keepingCapacity: true)
    sessionIndexByID.removeAll(keepingCapacity: true)
    return full
  }

  /// The id keys held by more than one row. Sorted once per chunk rather than hashed into a set
  /// row by row: the set's inserts were 1.4 % of an ingest's CPU in `perf`, the sort a fraction.
  private static func repeatedKeys(of rows: [EventRow]) -> Set<Int64> {
    let keys = rows.map(\.idKey).sorted()
    var repeated: Set<Int64> = []
    for index in keys.indices.dropFirst() where keys[index] == keys[index - 1] { repeated.insert(keys[index]) }
    return repeated
  }
}
