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
  static let subcommands: [String] = {
    let help = try! CommandRun.pullparity(["--help"]).stdout
    let section = help.components(separatedBy: "SUBCOMMANDS:").last ?? ""
    return section.split(separator: "\n").compactMap { line in
      // `  name   abstract`; the abstract's continuation lines are indented further.
      guard line.hasPrefix("  "), line.dropFirst(2).first?.isLowercase == true else { return nil }
      return line.split(separator: " ").first.map(String.init)
    }
  }()

  static let rows: [Row] = {
    let readme = try! String(
      contentsOf: RepositoryPaths.root.appendingPathComponent("README.md"), encoding: .utf8)
    let table = readme.components(separatedBy: "| option | commands | meaning |").last ?? ""
    // The rows up to the blank line that ends the table, after its header's rest and rule.
    let lines = table.split(separator: "\n", omittingEmptySubsequences: false).dropFirst(2)
    return lines.prefix { $0.hasPrefix("|") }.map { line in
      let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
      let options = cells[0].split(separator: "`").filter { $0.hasPrefix("--") }.map {
        String($0.split(separator: " ")[0])
      }
      return Row(options: options, commands: commands(cells[1]))
    }
  }()

  /// `report, qa` or `all but `profiles`, `schema``.
  static func commands(_ cell: String) -> Set<String> {
    let named = Set(
      cell.replacingOccurrences(of: "all but", with: "").split(separator: ",").map {
        $0.trimmingCharacters(in: CharacterSet(charactersIn: " `"))
      })
    return cell.hasPrefix("all but") ? Set(subcommands).subtracting(named) : named
  }

  /// Per command, the options its `--help` lists (the first word of each OPTIONS entry).
  static let options: [String: Set<String>] = Dictionary(
    uniqueKeysWithValues: subcommands.map { command in
      let help = try! CommandRun.pullparity([command, "--help"]).stdout
      let section = help.components(separatedBy: "OPTIONS:").last ?? ""
      let entries = section.split(separator: "\n").compactMap { line -> String? in
        // `  --db <db>   ...` or `  -h, --help   ...`: the long option's name.
        guard line.hasPrefix("  -") else { return nil }
        return line.split(separator: " ").first { $0.hasPrefix("--") }.map { String($0.trimmingCharacters(in: [","])) }
      }
      return (command, Set(entries))
    })

  @Test func theTableAndTheCommandsAreFound() {
    #expect(Self.subcommands.count >= 13, "\(Self.subcommands)")
    #expect(Self.options["report"]?.isSuperset(of: ["--db", "--app", "--format", "--help"]) == true)
    #expect(Self.rows.count >= 8 && Self.rows.allSatisfy { !$0.options.isEmpty && !$0.commands.isEmpty })
    for row in Self.rows { #expect(row.commands.isSubset(of: Self.subcommands), "\(row.commands)") }
  }

  /// The command table has a usage line per command (`pullparity derive [--profiles FILE]
  /// [--parser …]`), naming only options the command has.
  @Test func everyUsageLineNamesRealOptions() throws {
    let readme = try String(contentsOf: RepositoryPaths.root.appendingPathComponent("README.md"), encoding: .utf8)
    let table = readme.components(separatedBy: "| command | what it does |").last ?? ""
    let rows = table.split(separator: "\n", omittingEmptySubsequences: false).dropFirst(2).prefix { $0.hasPrefix("|") }
    // Each row starts with the usage as a code span.
    let usages = rows.map { $0.split(separator: "`", omittingEmptySubsequences: false)[1] }
    // Every command has its row, and every row is a command.
    #expect(Set(usages.map { String($0.split(separator: " ")[1]) }) == Set(Self.subcommands))
    for usage in usages {
      let command = String(usage.split(separator: " ")[1])
      let named = usage.matches(of: /--[a-z][a-z-]*/).map { String($0.output) }
      #expect(Self.options[command] != nil, "no command \(command)")
      for option in named {
        #expect(Self.options[command]?.contains(option) == true, "\(command) has no \(option)")
      }
    }
  }

  @Test(arguments: rows)
  func everyCommandTakesTheOptionsItsRowSays(row: Row) {
    for command in Self.subcommands {
      for option in row.options {
        let takes = Self.options[command]?.contains(option) ?? false
        #expect(takes == row.commands.contains(command), "\(command) \(option): --help and the README disagree")
      }
    }
  }
}
