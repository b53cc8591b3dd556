/// A session whose stored raw lines no longer decode (the rules changed since they were
/// stored, or the database was edited): there is nothing to derive it from.
public struct StoredSessionError: Error, CustomStringConvertible, Sendable {
  public var sessionID: String
  public var storedLines: Int
  public var firstSource: String?
  public var firstLine: Int?
  public var firstRejection: Rejection?

  public var description: String {
    guard storedLines > 0 else { return "session \(sessionID) has no stored events" }
    var text = "session \(sessionID): none of its \(storedLines) stored lines decodes with the current rules"
    if let firstSource, let firstLine, let firstRejection {
      text += " (first: \(firstSource):\(firstLine): \(firstRejection.description))"
    }
    return text + "; `pullparity replay` derives the sessions again from the lines that do"
  }
}
