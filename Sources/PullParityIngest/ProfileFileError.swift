/// A profile file that cannot be used, with the file, the field and what was wrong.
public struct ProfileFileError: Error, Equatable, CustomStringConvertible {
  public var path: String
  /// e.g. `profiles[1].min_hold_ms`; empty for the file as a whole.
  public var field: String
  public var problem: String

  public var description: String {
    field.isEmpty ? "\(path): \(problem)" : "\(path): \(field): \(problem)"
  }
}
