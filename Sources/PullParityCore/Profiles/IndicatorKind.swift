/// The refreshing indicator a client drew.
public enum IndicatorKind: String, CaseIterable, Sendable, Codable {
  case balls
  case waveform
  case native
}
