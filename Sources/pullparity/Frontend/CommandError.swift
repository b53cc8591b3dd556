/// The command line was fine but the data cannot do what it asks (no such session, a date
/// that is not one, an empty cohort): exit 2 like a usage error, without the usage text, which
/// would only bury the message. `PullParity.main` escapes what it quotes from the data.
struct CommandError: Error, CustomStringConvertible {
  var description: String

  init(_ description: String) {
    self.description = description
  }
}
