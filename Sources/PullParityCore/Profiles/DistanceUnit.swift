/// The unit an app measures finger travel and offsets in. It changes no number: it is the
/// label reports put on distances, so an Android team reads `dp` where an iOS team reads `pt`.
public enum DistanceUnit: String, CaseIterable, Sendable, Codable {
  case pt
  case px
  case dp
}
