internal import PullParityCore

/// `SessionDigest` as the bytes of `session_digests.digest`: little-endian integers and
/// doubles, strings as a length and their UTF-8. Fixed-size and length-prefixed rather than
/// JSON, because a report on a long history decodes millions of values from these.
package enum SessionDigestCoding {
  /// Stored with every digest (`digest_version`). Bump it whenever the encoding, or what a
  /// digest counts (a rule's definition, the suspect threshold), changes: digests of another
  /// version are not read and are rebuilt by the next write.
  /// 2: checklist items count only sessions whose measure exists, and label copy only
  /// sessions that logged a label. 3: the v1.1 rules and the near-miss rate; drag tracking
  /// counts only gaps the finger moved through. 4: contract v1.2, abandoned sessions counted,
  /// drag tracking by pace, repeated refreshes as v1.2 defines them. 5: release distances, so
  /// the HTML report draws its histograms from digests.
  package static let version = 5

  package static func encode(_ digest: SessionDigest) -> [UInt8] {
    var out = Writer()
    for count in [digest.sessions, digest.completed, digest.cancelled, digest.incomplete, digest.abandoned] {
      out.int(count)
    }
    out.optional(digest.firstStartedMs)
    out.optional(digest.lastStartedMs)
    out.int(digest.values.count)
    for values in digest.values {
      out.int(values.count)
      for value in values { out.double(value) }
    }
    out.int(digest.rates.count)
    for rate in digest.rates {
      out.int(rate.numerator)
      out.int(rate.denominator)
    }
    out.int(digest.rules.count)
    for tally in digest.rules { out.tally(tally) }
    out.int(digest.suspects.count)
    for suspect in digest.suspects {
      out.string(suspect.sessionID)
      out.int(suspect.events)
    }
    out.int(digest.qa.count)
    for tally in digest.qa { out.tally(tally) }
    out.optional(digest.worstSampleGapMs)
    out.optional(digest.worstOffsetError)
    out.int(digest.slowLoads)
    out.int(digest.labelViolations)
    out.int(digest.releases.count)
    for value in digest.releases { out.double(value) }
    return out.bytes
  }

  /// The digest `bytes` encode, or nil when they are not one of this version's digests.
  package static func decode(_ bytes: [UInt8]) -> SessionDigest? {
    var input = Reader(bytes: bytes)
    var digest = SessionDigest()
    guard let counts = input.ints(5) else { return nil }
    (digest.sessions, digest.completed, digest.cancelled, digest.incomplete, digest.abandoned) = (
      counts[0], counts[1], counts[2], counts[3], counts[4]
    )
    guard let first = input.optional(), let last = input.optional() else { return nil }
    (digest.firstStartedMs, digest.lastStartedMs) = (first, last)
    guard input.int() == digest.values.count else { return nil }
    for index in digest.values.indices {
      guard let values = input.doubles() else { return nil }
      digest.values[index] = values
    }
    guard input.int() == digest.rates.count else { return nil }
    for index in digest.rates.indices {
      guard let rate = input.ints(2) else { return nil }
      digest.rates[index] = Rate(numerator: rate[0], denominator: rate[1])
    }
    guard input.int() == digest.rules.count else { return nil }
    for index in digest.rules.indices {
      guard let tally = input.tally() else { return nil }
      digest.rules[index] = tally
    }
    guard let suspects = input.suspects(), input.int() == digest.qa.count else { return nil }
    digest.suspects = suspects
    for index in digest.qa.indices {
      guard let tally = input.tally() else { return nil }
      digest.qa[index] = tally
    }
    guard let gap = input.optional(), let offset = input.optional(), let counts = input.ints(2),
      let releases = input.doubles(), input.atEnd
    else { return nil }
    (digest.worstSampleGapMs, digest.worstOffsetError) = (gap, offset)
    (digest.slowLoads, digest.labelViolations) = (counts[0], counts[1])
    digest.releases = releases
    return digest
  }

  private struct Writer {
    var bytes: [UInt8] = []

    mutating func int(_ value: Int) { withUnsafeBytes(of: Int64(value).littleEndian) { bytes += $0 } }
    mutating func double(_ value: Double) { withUnsafeBytes(of: value.bitPattern.littleEndian) { bytes += $0 } }

    mutating func optional(_ value: Double?) {
      bytes.append(value == nil ? 0 : 1)
      if let value { double(value) }
    }

    mutating func string(_ value: String) {
      int(value.utf8.count)
      bytes += value.utf8
    }

    mutating func tally(_ tally: SessionTally) {
      int(tally.judged)
      int(tally.failing)
      int(tally.examples.count)
      for id in tally.examples { string(id) }
    }
  }

  private struct Reader {
    let bytes: [UInt8]
    var offset = 0

    var atEnd: Bool { offset == bytes.count }

    mutating func word() -> UInt64? {
      guard bytes.count - offset >= 8 else { return nil }
      defer { offset += 8 }
      return bytes.withUnsafeBytes { UInt64(littleEndian: $0.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) }
    }

    mutating func int() -> Int? { word().map { Int(Int64(bitPattern: $0)) } }

    mutating func ints(_ count: Int) -> [Int]? {
      var values: [Int] = []
      for _ in 0..<count {
        guard let value = int() else { return nil }
        values.append(value)
      }
      return values
    }

    mutating func optional() -> Double?? {
      guard offset < bytes.count else { return nil }
      offset += 1
      guard bytes[offset - 1] == 1 else { return .some(nil) }
      return word().map { .some(Double(bitPattern: $0)) }
    }

    mutating func doubles() -> [Double]? {
      guard let count = int(), count >= 0, count <= (bytes.count - offset) / 8 else { return nil }
      let values = bytes.withUnsafeBytes { raw in
        (0..<count).map {
          Double(bitPattern: UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset + 8 * $0, as: UInt64.self)))
        }
      }
      offset += 8 * count
      return values
    }

    mutating func string() -> String? {
      guard let count = int(), count >= 0, count <= bytes.count - offset else { return nil }
      defer { offset += count }
      return String(decoding: bytes[offset..<offset + count], as: UTF8.self)
    }

    mutating func tally() -> SessionTally? {
      guard let counts = ints(3), counts[2] >= 0, counts[2] <= SessionTally.exampleLimit else { return nil }
      var examples: [String] = []
      for _ in 0..<counts[2] {
        guard let id = string() else { return nil }
        examples.append(id)
      }
      return SessionTally(judged: counts[0], failing: counts[1], examples: examples)
    }

    mutating func suspects() -> [SuspectSession]? {
      guard let count = int(), count >= 0 else { return nil }
      var suspects: [SuspectSession] = []
      for _ in 0..<count {
        guard let id = string(), let events = int() else { return nil }
        suspects.append(SuspectSession(sessionID: id, events: events))
      }
      return suspects
    }
  }
}
