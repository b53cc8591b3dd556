import Testing

@testable import PullParityIngest

/// `RepeatedStrings` gives every value's own text, and shares the `String` of a long value
/// that came up last in its slot instead of making another.
@Suite struct RepeatedStringsTests {
  /// Where a string's bytes are: two strings sharing storage have the same.
  static func storage(_ text: String) -> UnsafeRawPointer? {
    text.utf8.withContiguousStorageIfAvailable { UnsafeRawPointer($0.baseAddress) } ?? nil
  }

  static func make(_ strings: RepeatedStrings, _ text: String) -> String {
    Array(text.utf8).withUnsafeBytes { strings.string($0) }
  }

  struct Case: Sendable, CustomTestStringConvertible {
    let testDescription: String
    let first: String
    let second: String
    let shared: Bool
  }

  static let session = "48066d68-adac-4f54-8394-a88d93ec0961"

  static let cases: [Case] = [
    Case(testDescription: "a session id twice", first: session, second: session, shared: true),
    Case(
      testDescription: "a non-ASCII label twice", first: "Släpp för att uppdatera", second: "Släpp för att uppdatera",
      shared: true),
    // The same first and last 8 bytes and length: the same slot.
    Case(
      testDescription: "ids differing in one middle byte", first: session,
      second: "48066d68-adac-4f54-9394-a88d93ec0961", shared: false),
    Case(testDescription: "one a prefix of the other", first: session, second: session + "0", shared: false),
  ]

  @Test(arguments: cases)
  func valuesComeBackAsTheirText(_ c: Case) {
    let strings = RepeatedStrings()
    let first = Self.make(strings, c.first)
    let second = Self.make(strings, c.second)
    #expect(first == c.first && second == c.second)
    #expect((Self.storage(first) != nil && Self.storage(first) == Self.storage(second)) == c.shared)
  }

  /// Many more values than slots, each twice in a row and then all again: every one comes back
  /// as its own text, whichever it displaced.
  @Test func valuesOutnumberingTheSlotsComeBackAsTheirText() {
    let strings = RepeatedStrings()
    let values = (0..<5_000).map { "session-\($0)-of-five-thousand" }
    for value in values + values {
      #expect(Self.make(strings, value) == value)
      #expect(Self.storage(Self.make(strings, value)) == Self.storage(Self.make(strings, value)))
    }
  }
}
