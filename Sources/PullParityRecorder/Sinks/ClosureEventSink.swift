/// Hands each line to a closure: to batch and upload, print, or collect in a test.
public struct ClosureEventSink: EventSink {
  private let body: @Sendable (String) -> Void

  public init(_ body: @escaping @Sendable (String) -> Void) {
    self.body = body
  }

  public func write(_ line: String) {
    body(line)
  }
}
