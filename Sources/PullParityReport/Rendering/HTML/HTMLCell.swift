/// A table cell that carries its column's name: on a phone the style sheet lays each row out as
/// a card and prints the name before the value (`td::before`), so no column is cut off.
enum HTMLCell {
  /// `content` and `label` are HTML already (escaped by the caller).
  static func td(_ content: String, label: String, cssClass: String? = nil) -> String {
    let classAttribute = cssClass.map { " class=\"\($0)\"" } ?? ""
    return "<td data-label=\"\(label)\"\(classAttribute)>\(content)</td>"
  }
}
