import ArgumentParser

/// The output formats of the commands that print either for people or for programs.
enum TextOrJSON: String, ExpressibleByArgument, CaseIterable {
  case text
  case json
}
