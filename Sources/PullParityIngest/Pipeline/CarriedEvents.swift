internal import PullParityCore

/// Events of sessions the reading thread has seen, kept for the chunks after: a session that
/// goes on in a later chunk is derived there from all its events of the run so far, and the
/// writer can store that derivation instead of reading the session's lines back from the
/// blocks it just wrote (`ChunkWriter`). On the benchmark log about 1,100 sessions cross a
/// chunk boundary; reading them back cost the writer 0.39 s of 5.1, and the writer is the
/// thread the reader waits for.
///
/// At most `limit` events are kept, those of the sessions seen last: memory stays bounded by
/// the chunk size, and a session that outgrows the limit (one id for every event) or comes
/// back after a long pause is read back once per transaction, as before.
struct CarriedEvents: Sendable {
  private var bySession: [ByteIdentity: (events: [RecordedEvent], rank: Int)] = [:]
  private(set) var count = 0
  let limit: Int

  init(limit: Int = 0) {
    self.limit = limit
  }

  /// The events kept of session `id`, which the caller takes over; none when it was not kept.
  mutating func take(_ id: ByteIdentity) -> [RecordedEvent] {
    guard let kept = bySession.removeValue(forKey: id) else { return [] }
    count -= kept.events.count
    return kept.events
  }

  /// What to keep after a chunk: its sessions' events (`sessions`, in the order they started,
  /// taken from here first), then those still kept of sessions it did not have, the ones seen
  /// last first, while they fit.
  func carrying(_ sessions: [(id: ByteIdentity, events: [RecordedEvent])]) -> CarriedEvents {
    var next = CarriedEvents(limit: limit)
    guard limit > 0 else { return next }
    // Ranks: the higher, the later the session was seen. No two are equal, so which sessions
    // are kept never depends on a dictionary's order.
    let earlier = bySession.sorted { $0.value.rank < $1.value.rank }
    var rank = earlier.count + sessions.count
    for (id, events) in sessions.reversed() where next.keep(events, of: id, rank: rank) { rank -= 1 }
    for (id, kept) in earlier.reversed() where next.keep(kept.events, of: id, rank: rank) { rank -= 1 }
    return next
  }

  private mutating func keep(_ events: [RecordedEvent], of id: ByteIdentity, rank: Int) -> Bool {
    guard count + events.count <= limit else { return false }
    bySession[id] = (events, rank)
    count += events.count
    return true
  }
}
