import ArgumentParser
import PullParityCore
import PullParityIngest

struct ProfileOptions: ParsableArguments {
  @Option(
    name: .customLong("profiles"),
    help: ArgumentHelp("A JSON file of profiles that add to or replace the built-in ones.", valueName: "file"))
  var file: String?

  func catalog() throws -> ProfileCatalog {
    var catalog = ProfileCatalog()
    if let file { catalog.merge(try ProfileFile.load(path: file)) }
    return catalog
  }
}
