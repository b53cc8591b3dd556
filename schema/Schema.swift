/// The versioned SQL files of this folder, compiled into the binary.
package enum Schema {
  /// Migrations in the order they apply. Names are the file names without `.sql`; a shipped
  /// migration is never edited, a change is a new file appended here.
  package static let migrations: [(name: String, sql: String)] = [
    ("0001_events_and_sessions", text(PackageResources._001_events_and_sessions_sql)),
    ("0002_dashboard_views", text(PackageResources._002_dashboard_views_sql)),
    ("0003_profiles", text(PackageResources._003_profiles_sql)),
    ("0004_exact_run_ledger", text(PackageResources._004_exact_run_ledger_sql)),
    ("0005_time_ordered_event_keys", text(PackageResources._005_time_ordered_event_keys_sql)),
    ("0006_session_digests", text(PackageResources._006_session_digests_sql)),
    ("0007_key_epochs", text(PackageResources._007_key_epochs_sql)),
    ("0008_session_keys", text(PackageResources._008_session_keys_sql)),
    ("0009_field_failures", text(PackageResources._009_field_failures_sql)),
    ("0010_dashboard_percentages", text(PackageResources._010_dashboard_percentages_sql)),
    ("0011_compressed_raw_events", text(PackageResources._011_compressed_raw_events_sql)),
    ("0012_events_left_in_runs", text(PackageResources._012_events_left_in_runs_sql)),
    ("0013_screen_left", text(PackageResources._013_screen_left_sql)),
    ("0014_block_checksums", text(PackageResources._014_block_checksums_sql)),
    ("0015_digest_appends", text(PackageResources._015_digest_appends_sql)),
    ("0016_dashboard_verdicts", text(PackageResources._016_dashboard_verdicts_sql)),
    ("0017_dataset_runs", text(PackageResources._017_dataset_runs_sql)),
  ]

  /// Migrations a read-only command does without, and the next write to the file adds: views
  /// for dashboards, which no command reads, and what only writers read (asking for a replay to
  /// add either would be out of all proportion).
  package static let notNeededToRead: Set<String> = [
    "0010_dashboard_percentages", "0015_digest_appends", "0016_dashboard_verdicts", "0017_dataset_runs",
  ]

  /// schema/README.md: every table, column and view for dashboard authors.
  package static let documentation = text(PackageResources.README_md)

  /// Every migration after a comment naming its file, as `pullparity schema --sql` prints them.
  package static var listing: String {
    migrations.map { "-- \($0.name).sql\n\($0.sql)\n" }.joined()
  }

  private static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }
}
