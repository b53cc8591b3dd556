import GRDB
import PullParitySchema

/// A database file as an older release left it, for upgrade tests.
package enum OldSchemaFile {
  /// Creates `path` with the first `version` migrations of `schema/` only, and returns it open.
  /// Migrations that need the program (5 registers a function) cannot be among them.
  package static func create(_ path: String, version: Int) throws -> DatabaseQueue {
    let queue = try DatabaseQueue(path: path)
    var migrator = DatabaseMigrator()
    for migration in Schema.migrations.prefix(version) {
      migrator.registerMigration(migration.name) { db in try db.execute(sql: migration.sql) }
    }
    try migrator.migrate(queue)
    return queue
  }
}
