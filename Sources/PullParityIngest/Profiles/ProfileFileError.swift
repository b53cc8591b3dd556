/// A profile file that cannot be used, with the file, the field and what was wrong.
package struct ProfileFileError: Error, Equatable, CustomStringConvertible {
  package var path: String
  /// e.g. `profiles[1].min_hold_ms`; empty for the file as a whole.
  package var field: String
  package var problem: String

  package var description: String {
    field.isEmpty ? "\(path): \(problem)" : "\(path): \(field): \(problem)"
  }
}
