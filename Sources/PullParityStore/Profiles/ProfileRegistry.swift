package import Foundation
package import GRDB
package import PullParityCore

/// The `profiles` table: each profile sessions were derived with, stored whole, so that reports
/// judge and label sessions by the rules that derived them, and an ingest cannot silently mix
/// two versions of one app's rules.
package enum ProfileRegistry {
  /// The profile as the table stores it: the profile file format with sorted keys, and its hash.
  package static func definition(of profile: Profile) -> (json: String, hash: String) {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    // Encoding plain numbers, strings and dictionaries cannot fail.
    let json = String(decoding: (try? encoder.encode(profile)) ?? Data(), as: UTF8.self)
    let hash = UInt64(bitPattern: StableHash.fnv1a64(json))
    let hex = String(hash, radix: 16)
    return (json, String(repeating: "0", count: 16 - hex.count) + hex)
  }

  package static func stored(_ db: Database) throws -> [StoredProfile] {
    try Row.fetchAll(db, sql: "SELECT name, version, content_hash, definition FROM profiles ORDER BY name, version")
      .map { row in
        let definition: String = row["definition"]
        guard let profile = try? JSONDecoder().decode(Profile.self, from: Data(definition.utf8)) else {
          throw StoreError(
            context: "reading profile \(row["name"] as String) v\(row["version"] as Int)",
            message: "the stored definition is not a profile", sql: "SELECT … FROM profiles")
        }
        return StoredProfile(profile: profile, contentHash: row["content_hash"])
      }
  }

  /// The stored profiles that `catalog` would replace with other rules.
  package static func mismatches(_ catalog: ProfileCatalog, stored: [StoredProfile]) -> [ProfileMismatch] {
    stored.compactMap { row in
      let now = catalog.resolve(row.name)
      let hash = definition(of: now).hash
      guard hash != row.contentHash else { return nil }
      return ProfileMismatch(
        name: row.name, storedVersion: row.version, storedHash: row.contentHash,
        newVersion: catalog[row.name] == nil && row.version > 0 ? nil : now.version, newHash: hash)
    }
  }

  /// Stores the profiles not stored yet; a stored name and version is left as it is.
  package static func store(_ profiles: [Profile], in db: Database, at date: Date) throws {
    // Through SQLite's C API: a name is a key, and GRDB would store `demo\u{0}x` as `demo`, which
    // the unique (name, version) then takes for another profile's row.
    let insert = try RawStatement(
      db,
      """
      INSERT OR IGNORE INTO profiles (name, version, content_hash, definition, stored_at)
      VALUES (?, ?, ?, ?, ?)
      """)
    for profile in profiles {
      let (json, hash) = definition(of: profile)
      insert.bind(1, profile.name)
      insert.bind(2, profile.version)
      insert.bind(3, hash)
      insert.bind(4, json)
      insert.bind(5, IngestLedger.timestamp(date))
      try insert.execute("storing profile \(profile.name) v\(profile.version)")
    }
  }

  /// Makes the table hold exactly `profiles`: after a replay, the ones every session now uses.
  package static func replace(with profiles: [Profile], in db: Database, at date: Date) throws {
    try db.execute(sql: "DELETE FROM profiles")
    try store(profiles, in: db, at: date)
  }
}
