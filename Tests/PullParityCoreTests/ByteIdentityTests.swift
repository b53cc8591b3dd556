import Testing

@testable import PullParityCore

/// Ids are equal exactly when their bytes are: at every length (they are compared eight bytes at
/// a time, then byte by byte), at either end, and whatever their Unicode form.
@Suite struct ByteIdentityTests {
  static let cases: [(String, String, Bool)] = [
    ("", "", true),
    ("a", "a", true),
    ("a", "b", false),
    ("abc", "abcd", false),
    ("abcdefgh", "abcdefgh", true),
    ("abcdefgh", "abcdefgX", false),
    ("abcdefghi", "abcdefghj", false),
    ("Xbcdefghijklmnop", "abcdefghijklmnop", false),
    ("0190b3c2-6d1e-7a3b-9c4d-5e6f7a8b9c0d", "0190b3c2-6d1e-7a3b-9c4d-5e6f7a8b9c0d", true),
    ("0190b3c2-6d1e-7a3b-9c4d-5e6f7a8b9c0d", "0190b3c2-6d1e-7a3b-9c4d-5e6f7a8b9c0e", false),
    ("caf\u{E9}", "cafe\u{301}", false),
  ]

  @Test(arguments: cases)
  func equalExactlyWhenTheBytesAre(lhs: String, rhs: String, equal: Bool) {
    #expect((ByteIdentity(lhs) == ByteIdentity(rhs)) == equal)
    #expect((ByteIdentity(rhs) == ByteIdentity(lhs)) == equal)
    if equal { #expect(ByteIdentity(lhs).hashValue == ByteIdentity(rhs).hashValue) }
  }
}
