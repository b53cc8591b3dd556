/// Failures that stop an ingest (bad lines never do: they are quarantined).
public enum IngestError: Error, CustomStringConvertible, Equatable {
  case cannotOpen(path: String, reason: String)
  case readFailed(path: String, reason: String)
  case noInput(path: String)

  public var description: String {
    switch self {
    case .cannotOpen(let path, let reason): "cannot open \(path): \(reason)"
    case .readFailed(let path, let reason): "cannot read \(path): \(reason)"
    case .noInput(let path): "\(path): no .jsonl or .ndjson files (optionally .gz) found"
    }
  }
}
