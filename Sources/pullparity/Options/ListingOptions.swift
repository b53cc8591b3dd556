import ArgumentParser

/// `--limit` and `--format`, shared by the commands that list a table's rows (`quarantine`,
/// `runs`); `Listing` (the command) says what its rows are called and how many it lists by
/// default.
struct ListingOptions<Listing: ListsRows>: ParsableArguments {
  @Option(help: ArgumentHelp("At most this many \(Listing.rowName); 0 for all.", valueName: "n"))
  var limit = Listing.defaultLimit

  @Option(help: ArgumentHelp("Output format: text or json.", valueName: "format"))
  var format: TextOrJSON = .text

  func validate() throws {
    guard limit >= 0 else { throw ValidationError("--limit must be 0 or more") }
  }

  /// The most rows to list, nil for all.
  var maximum: Int? { limit == 0 ? nil : limit }
}
