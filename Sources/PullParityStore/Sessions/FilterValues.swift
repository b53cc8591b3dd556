/// The values a filter could take in a database: what `report`, `qa` and `compare` list when a
/// filter matches nothing, so a typo (`iOS` for `ios`) is named rather than passed.
package struct FilterValues: Equatable, Sendable {
  package var apps: [String]
  package var platforms: [String]
  package var appVersions: [String]
  package var screens: [String]
  package var sessions: Int
}
