import Foundation
import PullParityTestSupport
import Testing

/// The README's table of shared options says which commands take each option; every command's
/// `--help` must agree, both ways: a command the table names takes the option, and one it leaves
/// out does not.
@Suite struct SharedOptionsTableTests {
  /// One row: the options of its first cell and the commands of its second.
  struct Row: CustomTestStringConvertible, Sendable {
    var options: [String]
    var commands: Set<String>
    var testDescription: String { options.joined(separator: " ") }
  }

  /// The subcommands `pullparity --help` lists.
  static let subcommands = Result { try helpSubcommands() }

  static func helpSubcommands() throws -> [String] {
    let help = try CommandRun.pullparity(["--help"]).stdout
    let section = help.components(separatedBy: "SUBCOMMANDS:").last ?? ""
    return section.split(separator: "\n").compactMap { line in
      // `  name   abstract`; the abstract's continuation lines are indented further.
      guard line.hasPrefix("  "), line.dropFirst(2).first?.isLowercase == true else { return nil }
      return line.split(separator: " ").first.map(String.init)
    }
  }

  static func rows() throws -> [Row] {
    let subcommands = try Self.subcommands.get()
    let readme = try String(
      contentsOf: RepositoryPaths.root.appendingPathComponent("README.md"), encoding: .utf8)
    let table = readme.components(separatedBy: "| option | commands | meaning |").last ?? ""
    // The rows up to the blank line that ends the table, after its header's rest and rule.
    let lines = table.split(separator: "\n", omittingEmptySubsequences: false).dropFirst(2)
    return try lines.prefix { $0.hasPrefix("|") }.map { line in
      let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
      try #require(cells.count >= 2, "a row of the options table without two cells: \(line)")
      let options = cells[0].split(separator: "`").filter { $0.hasPrefix("--") }.compactMap {
        $0.split(separator: " ").first.map(String.init)
      }
      return Row(options: options, commands: commands(cells[1], subcommands: subcommands))
    }
  }

  /// `report, qa` or `all but `profiles`, `schema``.
  static func commands(_ cell: String, subcommands: [String]) -> Set<String> {
    let named = Set(
      cell.replacingOccurrences(of: "all but", with: "").split(separator: ",").map {
        $0.trimmingCharacters(in: CharacterSet(charactersIn: " `"))
      })
    return cell.hasPrefix("all but") ? Set(subcommands).subtracting(named) : named
  }

  /// Per command, the options its `--help` lists (the first word of each OPTIONS entry).
  static let options = Result { try helpOptions() }

  static func helpOptions() throws -> [String: Set<String>] {
    var options: [String: Set<String>] = [:]
    for command in try subcommands.get() {
      let help = try CommandRun.pullparity([command, "--help"]).stdout
      let section = help.components(separatedBy: "OPTIONS:").last ?? ""
      let entries = section.split(separator: "\n").compactMap { line -> String? in
        // `  --db <db>   ...` or `  -h, --help   ...`: the long option's name.
        guard line.hasPrefix("  -") else { return nil }
        return line.split(separator: " ").first { $0.hasPrefix("--") }.map { String($0.trimmingCharacters(in: [","])) }
      }
      options[command] = Set(entries)
    }
    return options
  }

  @Test func theTableAndTheCommandsAreFound() throws {
    let subcommands = try Self.subcommands.get()
    let rows = try Self.rows()
    #expect(subcommands.count >= 13, "\(subcommands)")
    #expect(try Self.options.get()["report"]?.isSuperset(of: ["--db", "--app", "--format", "--help"]) == true)
    #expect(rows.count >= 8 && rows.allSatisfy { !$0.options.isEmpty && !$0.commands.isEmpty })
    for row in rows { #expect(row.commands.isSubset(of: subcommands), "\(row.commands)") }
  }

  /// The command table has a usage line per command (`pullparity derive [--profiles FILE]`),
  /// naming only options the command has.
  @Test func everyUsageLineNamesRealOptions() throws {
    let readme = try String(contentsOf: RepositoryPaths.root.appendingPathComponent("README.md"), encoding: .utf8)
    let table = readme.components(separatedBy: "| command | what it does |").last ?? ""
    let rows = table.split(separator: "\n", omittingEmptySubsequences: false).dropFirst(2).prefix { $0.hasPrefix("|") }
    // Each row starts with the usage as a code span.
    let usages = try rows.map { row in
      try #require(row.split(separator: "`", omittingEmptySubsequences: false).dropFirst().first, "\(row)")
    }
    let options = try Self.options.get()
    // Every command has its row, and every row is a command.
    let commands = try usages.map { usage in
      try #require(usage.split(separator: " ").dropFirst().first.map(String.init), "\(usage)")
    }
    #expect(Set(commands) == Set(try Self.subcommands.get()))
    for (command, usage) in zip(commands, usages) {
      let named = usage.matches(of: /--[a-z][a-z-]*/).map { String($0.output) }
      #expect(options[command] != nil, "no command \(command)")
      for option in named {
        #expect(options[command]?.contains(option) == true, "\(command) has no \(option)")
      }
    }
  }

  @Test(arguments: try rows())
  func everyCommandTakesTheOptionsItsRowSays(row: Row) throws {
    let options = try Self.options.get()
    for command in try Self.subcommands.get() {
      for option in row.options {
        let takes = options[command]?.contains(option) ?? false
        #expect(takes == row.commands.contains(command), "\(command) \(option): --help and the README disagree")
      }
    }
  }
}
