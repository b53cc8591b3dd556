internal import PullParityCore
internal import PullParityStore

/// Parses a chunk's lines into rows for the writer, plus the chunk's sessions derived from its
/// own events and those the chunk before left (`CarriedEvents`). The chunk carries no `Event`:
/// they stay on the reading thread.
struct ChunkBuilder {
  let profiles: ProfileCatalog
  let sourceNames: [String]
  /// The line limit, for the message of a line over it.
  let maxLineBytes: Int
  private(set) var lines: ParsedLines
  /// Each session's events, grouped as they arrive so deriving needs no further copies.
  private var sessionEvents: [[RecordedEvent]] = []
  private var sessionIndexByID: [ByteIdentity: Int] = [:]
  /// The chunk before's events, taken session by session as they come up again.
  private var carried: CarriedEvents

  init(
    profiles: ProfileCatalog, sourceNames: [String], expectedLines: Int, maxLineBytes: Int,
    carried: CarriedEvents = CarriedEvents()
  ) {
    self.profiles = profiles
    self.sourceNames = sourceNames
    self.maxLineBytes = maxLineBytes
    self.lines = ParsedLines(expectedLines: expectedLines)
    self.carried = carried
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
      sessionIndex = lines.sessions.count
      sessionIndexByID[identity] = sessionIndex
      let before = carried.take(identity)
      lines.sessions.append(ChunkSession(sessionID: event.sessionID, rowIndices: [], carriedEvents: before.count))
      sessionEvents.append(before)
    }
    lines.sessions[sessionIndex].rowIndices.append(lines.rows.count)
    let raw = lines.copy(line.bytes)
    let eventID = lines.find(event.eventID, in: raw)
    let row = EventRow(
      eventID: eventID, sessionID: lines.copy(event.sessionID),
      platform: lines.copy(event.platform), app: lines.copy(event.app), type: lines.copy(event.type.rawValue),
      raw: raw, timestamp: event.timestamp, seq: event.seq,
      idKey: lines.idKey(of: eventID), sessionIndex: sessionIndex, sourceIndex: sourceIndex,
      line: line.number, byteOffset: line.byteOffset)
    lines.rows.append(row)
    sessionEvents[sessionIndex].append(RecordedEvent(event: event, source: sourceNames[sourceIndex], line: line.number))
  }

  mutating func reject(_ rejection: Rejection, sourceIndex: Int, line: InputLine) {
    lines.rejected.append(
      RejectedLine(
        rejection: rejection, sourceIndex: sourceIndex, line: line.number, byteOffset: line.byteOffset,
        raw: lines.copy(line.bytes)))
  }

  /// Derives every session of the chunk and returns its lines, and the events to carry into
  /// the next chunk (`CarriedEvents.carrying`).
  mutating func finish() -> (ParsedLines, CarriedEvents) {
    for index in lines.sessions.indices {
      let reduced = SessionDeriver.reduce(sessionEvents[index], profiles: profiles)
      let derived = reduced.finalize(SessionContext())
      lines.sessions[index].derived = derived
      if derived.judgeAgainAt != nil { lines.sessions[index].reduced = reduced }
    }
    let next = carried.carrying(
      lines.sessions.indices.map { (ByteIdentity(lines.sessions[$0].sessionID), sessionEvents[$0]) })
    sessionEvents = []
    let repeatedIDKeys = Self.repeatedKeys(of: lines.rows)
    if !repeatedIDKeys.isEmpty {
      for index in lines.rows.indices where repeatedIDKeys.contains(lines.rows[index].idKey.value) {
        lines.rows[index].idRepeatsInChunk = true
        lines.repeatedIDRows.append(index)
      }
    }
    return (lines, next)
  }

  /// The id keys held by more than one row, found in one pass through an open-addressing
  /// table of twice as many slots, whose slot is the key's top bits after a multiplication
  /// (keys are hashes, or milliseconds over a hash). A `Set` hashed every key with SipHash
  /// (1.4 % of an ingest's CPU in `perf`); sorting the keys took 6 % of the reading thread.
  private static func repeatedKeys(of rows: [EventRow]) -> Set<Int64> {
    let bits = max(4, Int.bitWidth - (2 * rows.count).leadingZeroBitCount)
    let mask = (1 << bits) - 1
    var keys = [Int64](repeating: 0, count: mask + 1)
    var used = [Bool](repeating: false, count: mask + 1)
    var repeated: Set<Int64> = []
    rows.withUnsafeBufferPointer { rows in
      for index in rows.indices {
        let key = rows[index].idKey.value
        var slot = Int(truncatingIfNeeded: (UInt64(bitPattern: key) &* 0x9E37_79B9_7F4A_7C15) >> (64 - bits))
        while used[slot], keys[slot] != key { slot = (slot + 1) & mask }
        if used[slot] {
          repeated.insert(key)
        } else {
          (used[slot], keys[slot]) = (true, key)
        }
      }
    }
    return repeated
  }
}
