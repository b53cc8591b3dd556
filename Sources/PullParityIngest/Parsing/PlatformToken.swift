/// What a platform may be called, in events and in profiles alike: a non-empty lowercase token
/// (`pwa`, `ios`, `android`, or another the client sends). A profile that named a platform no
/// event can carry would never match, and its name would reach reports unchecked.
enum PlatformToken {
  static func isValid(_ text: String) -> Bool {
    !text.isEmpty
      && text.utf8.allSatisfy { byte in
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
          || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
          || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
      }
  }
}
