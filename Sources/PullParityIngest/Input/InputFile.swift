/// One input of an ingest run, after directories were expanded.
package struct InputFile: Equatable, Sendable {
  /// The name recorded with every event and quarantined line: the path as found, `-` for stdin.
  package var name: String
  package var isGzip: Bool
  package var isStandardInput: Bool { name == "-" }

  package init(name: String, isGzip: Bool) {
    self.name = name
    self.isGzip = isGzip
  }
}
