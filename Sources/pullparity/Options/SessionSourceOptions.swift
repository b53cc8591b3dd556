import ArgumentParser

/// Where `report` and `qa` take their counts from.
struct SessionSourceOptions: ParsableArguments {
  @Flag(
    help: """
      Read every selected session instead of the stored day digests: slower on a long history, and always \
      the same result (a way to check that).
      """)
  var fromSessions = false
}
