/// A session whose stored raw lines no longer decode (the rules changed since they were
/// stored, or the database was edited): there is nothing to derive it from.
package struct StoredSessionError: Error, CustomStringConvertible, Sendable {
  package var sessionID: String
  package var storedLines: Int
  package var firstSource: String?
  package var firstLine: Int?
  package var firstRejection: Rejection?

  package var description: String {
    guard storedLines > 0 else { return "session \(sessionID) has no stored events" }
    var text = "session \(sessionID): none of its \(storedLines) stored lines decodes with the current rules"
    if let firstSource, let firstLine, let firstRejection {
      text += " (first: \(firstSource):\(firstLine): \(firstRejection.description))"
    }
    return text + "; `pullparity replay` derives the sessions again from the lines that do"
  }
}
