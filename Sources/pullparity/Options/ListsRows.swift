/// A command that lists a table's rows with `ListingOptions`.
protocol ListsRows {
  /// What `--limit` counts, in its help: "lines", "runs".
  static var rowName: String { get }
  static var defaultLimit: Int { get }
}
