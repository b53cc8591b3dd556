package import GRDB
import PullParitySchema
import PullParityStore

/// A database file as an older release left it, for upgrade tests.
package enum OldSchemaFile {
  /// Creates `path` with the first `version` migrations of `schema/` only, and returns it open.
  /// The function versions 5 and 8 call is registered; what else the program does after a
  /// migration (5's unique index, 7's and 8's filters of stored keys) matters only for a file
  /// with events, so a file of version 5 or later is created empty of them.
  package static func create(_ path: String, version: Int) throws -> DatabaseQueue {
    var configuration = Configuration()
    configuration.prepareDatabase { db in
      db.add(
        function: DatabaseFunction("pullparity_event_key", argumentCount: 1, pure: true) { values in
          String.fromDatabaseValue(values[0]).map { EventKey.of($0) }
        })
    }
    let queue = try DatabaseQueue(path: path, configuration: configuration)
    var migrator = DatabaseMigrator()
    for migration in Schema.migrations.prefix(version) {
      migrator.registerMigration(migration.name) { db in
        try db.execute(sql: migration.sql)
        if migration.name == "0005_time_ordered_event_keys" {
          try db.execute(sql: "CREATE UNIQUE INDEX events_by_id_hash ON events(id_hash)")
        }
      }
    }
    try migrator.migrate(queue)
    return queue
  }
}
