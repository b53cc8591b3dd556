/// The rejections of the parsing seam, worded once so both parsers return identical ones.
package enum LineRejection {
  package static let invalidUTF8 = Rejection(.invalidUTF8, "the line is not valid UTF-8")
  package static let notJSON = Rejection(.notJSON, "the line is not valid JSON")

  package static func tooLong(_ length: Int, limit: Int) -> Rejection {
    Rejection(.tooLong, "the line is \(length) bytes, longer than the limit of \(limit) (--max-line-bytes); not read")
  }

  package static func notAnObject(_ typeName: String) -> Rejection {
    Rejection(.notAnObject, "the line is \(typeName), not a JSON object")
  }
}
