/// Colour for terminal output: on only when asked (a TTY without `NO_COLOR`).
public struct TextStyle: Sendable {
  public var colored: Bool

  public init(colored: Bool) {
    self.colored = colored
  }

  public static let plain = TextStyle(colored: false)

  public func good(_ text: String) -> String { paint(text, "32") }
  public func bad(_ text: String) -> String { paint(text, "31;1") }
  public func dim(_ text: String) -> String { paint(text, "2") }
  public func bold(_ text: String) -> String { paint(text, "1") }

  private func paint(_ text: String, _ code: String) -> String {
    colored ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
  }
}
