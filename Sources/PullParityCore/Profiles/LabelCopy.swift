/// The exact label text a profile requires for each label state.
public struct LabelCopy: Equatable, Sendable, Codable {
  public var pulling: String
  public var ready: String
  public var refreshing: String

  public init(pulling: String, ready: String, refreshing: String) {
    self.pulling = pulling
    self.ready = ready
    self.refreshing = refreshing
  }

  public func text(for state: LabelState) -> String {
    switch state {
    case .pulling: pulling
    case .ready: ready
    case .refreshing: refreshing
    }
  }

  /// The file format's keys, one per label state; the profile file validator lists them.
  package enum CodingKeys: String, CodingKey, CaseIterable {
    case pulling, ready, refreshing
  }

  /// Swift's `String ==` is Unicode canonical equivalence, which is exactly the contract's rule:
  /// NFC and NFD spellings of the same copy match, any other difference does not.
  public func matches(_ text: String, for state: LabelState) -> Bool {
    self.text(for: state) == text
  }
}
