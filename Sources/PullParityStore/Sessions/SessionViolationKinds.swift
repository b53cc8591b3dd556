internal import GRDB
internal import PullParityCore

/// The kinds of every session's violations, by `session_ref`: what reports ask of each session
/// ("did it break this rule?") without keying anything by session id.
///
/// The violations are read in their key order, which is `session_ref`, the order sessions are
/// read in: one sequential scan, and each session's kinds are found by walking forward rather
/// than by hashing.
struct SessionViolationKinds {
  private var entries: [(ref: Int64, kinds: ViolationKinds)]
  private var position = 0

  static func read(_ db: Database) throws -> SessionViolationKinds {
    let violations = try RawStatement(
      db, "SELECT session_ref, \(SessionRecordColumns.kindBit("kind")) AS bit FROM violations ORDER BY session_ref")
    defer { violations.reset() }
    var entries: [(ref: Int64, kinds: ViolationKinds)] = []
    while try violations.step("reading the kinds of the sessions' violations") {
      let (ref, kind) = (violations.int64(0), ViolationKinds(rawValue: Int(violations.int64(1))))
      if kind.isEmpty { throw try unknownKind(db) }
      if entries.last?.ref == ref { entries[entries.count - 1].kinds.insert(kind) } else { entries.append((ref, kind)) }
    }
    return SessionViolationKinds(entries: entries)
  }

  /// The same for the sessions matching `clause` (over `sessions` aliased `s`) only: a join from
  /// those sessions to their violations, for a few sessions of a large file (a day of them).
  static func read(_ db: Database, sessionsWhere clause: String, _ values: [DatabaseValue]) throws
    -> SessionViolationKinds
  {
    let statement = try RawStatement(
      db,
      """
      SELECT s.session_ref, \(SessionRecordColumns.kindBit("v.kind")) AS bit
      FROM sessions s JOIN violations v ON v.session_ref = s.session_ref WHERE \(clause)
      """)
    for (index, value) in values.enumerated() { statement.bind(Int32(index + 1), value) }
    let (refColumn, bitColumn) = (statement.column("session_ref"), statement.column("bit"))
    var kinds: [Int64: ViolationKinds] = [:]
    try statement.forEachRow("reading the kinds of the sessions' violations") { row in
      let kind = ViolationKinds(rawValue: Int(row.int64(bitColumn)))
      if kind.isEmpty { throw try unknownKind(db) }
      kinds[row.int64(refColumn), default: []].insert(kind)
    }
    return SessionViolationKinds(entries: kinds.map { ($0.key, $0.value) }.sorted { $0.ref < $1.ref })
  }

  /// `kindBit` maps a kind this build does not know to no bit: the error names one such kind.
  private static func unknownKind(_ db: Database) throws -> StoreError {
    let known = ViolationKind.allCases.map(\.rawValue)
    let list = known.map { "'\($0)'" }.joined(separator: ", ")
    let sql = "SELECT kind FROM violations WHERE kind NOT IN (\(list)) LIMIT 1"
    let value = try RawStatement(db, sql).rows("finding an unknown violation kind") { $0.string(0) }.first ?? ""
    return StoredEnumValue.unknown(value, table: "violations", column: "kind", known: known)
  }

  /// The kinds of session `ref`'s violations; ask in ascending `ref` order.
  mutating func kinds(of ref: Int64) -> ViolationKinds {
    while position < entries.count, entries[position].ref < ref { position += 1 }
    guard position < entries.count, entries[position].ref == ref else { return [] }
    return entries[position].kinds
  }
}
