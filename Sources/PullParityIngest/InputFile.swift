/// One input of an ingest run, after directories were expanded.
public struct InputFile: Equatable, Sendable {
  /// The name recorded with every event and quarantined line: the path as found, `-` for stdin.
  public var name: String
  public var isGzip: Bool
  public var isStandardInput: Bool { name == "-" }

  public init(name: String, isGzip: Bool) {
    self.name = name
    self.isGzip = isGzip
  }
}
