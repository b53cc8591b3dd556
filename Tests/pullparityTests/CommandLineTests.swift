import Foundation
import GRDB
import PullParityStore
import PullParityTestSupport
import Testing

/// The `pullparity` binary end to end, as a user or CI runs it.
@Suite(.serialized) struct CommandLineTests {
  let samples = RepositoryPaths.sampleEvents.path

  @Test func theReadmeMainCommandIngestsAndReports() throws {
    let dir = try TemporaryDirectory()
    // Default database in the current directory, as the README runs it.
    let run = try CommandRun.pullparity(["ingest", samples, "--report"], currentDirectory: dir.url)
    #expect(run.exitCode == 0, "\(run.stderr)")
    let expected = try RepositoryPaths.expectedSample()["ingest"]
    #expect(try run.stdout.contains("events stored       \(Self.thousands(expected["events_stored"].int))"))
    #expect(try run.stdout.contains("quarantined             \(expected["quarantined"].int)"))
    #expect(run.stdout.contains("Pull-to-refresh parity"))
    // The verdict wraps at 80 columns; read it as one line.
    let verdict = run.stdout.replacingOccurrences(of: "\n  ", with: " ")
    #expect(
      verdict.contains(
        "FAIL — ffci pull: rules cache_order (ios), error_not_shown (ios), content_cleared_on_error (ios)"))
    #expect(
      verdict.contains(
        "padel pull: parity of client arm distance, flash, hold compliant, arm mismatch; rules hold_compliance (pwa), flash (pwa), arm_mismatch (ios), stuck_refresh (ios, pwa)"
      ))
    #expect(
      verdict.contains("phlock pull: rules reveal_order (ios); phlock tab_reselect: rules indicator_config (ios)"))
    #expect(verdict.contains("1 group compared, 3 judged alone (one platform), 0 skipped"))
    #expect(FileManager.default.fileExists(atPath: dir.path("pullparity.sqlite")))
    for line in run.stdout.split(separator: "\n") where !line.contains("/") {
      #expect(line.count <= 80, "wider than 80 columns: \(line)")
    }
  }

  @Test func qaFailsExactlyOnThePlantedDefects() throws {
    let dir = try TemporaryDirectory()
    let db = dir.path("qa.sqlite")
    _ = try CommandRun.pullparity(["ingest", "--db", db, samples])
    let run = try CommandRun.pullparity(["qa", "--db", db, "--format", "json"])
    #expect(run.exitCode == 1)
    let failing = try JSONTree(parsing: run.stdout)["items"].array
      .filter { try $0["status"].string == "fail" }
      .map { "\(try $0["app"].string)/\(try $0["platform"].string)/\(try $0["check"].string)" }
      .sorted()
    #expect(
      failing == [
        "ffci/ios/cache_order", "ffci/ios/content_kept_on_error", "ffci/ios/error_shown",
        "ffci/ios/no_double_refresh", "padel/ios/arm_parity", "padel/ios/refresh_ends", "padel/pwa/hold_compliant",
        "padel/pwa/no_flash", "padel/pwa/refresh_ends", "phlock/ios/indicator_config", "phlock/ios/reveal_order",
      ])
    // Narrowed to sessions without planted defects (phlock's are all in version 2.0.3), the
    // gate passes, and it passes on checks that looked at sessions, not on an empty selection.
    let clean = try CommandRun.pullparity([
      "qa", "--db", db, "--app", "phlock", "--app-version", "2.1.0", "--format", "json",
    ])
    #expect(clean.exitCode == 0, "\(clean.stdout)")
    let statuses = try JSONTree(parsing: clean.stdout)["items"].array.map { try $0["status"].string }
    #expect(statuses.filter { $0 == "pass" }.count >= 8)
    #expect(!statuses.contains("fail"))
  }

  @Test func reportJSONCarriesTheNumbersBehindTheVerdicts() throws {
    let dir = try TemporaryDirectory()
    let db = dir.path("r.sqlite")
    _ = try CommandRun.pullparity(["ingest", "--db", db, samples])
    let run = try CommandRun.pullparity(["report", "--db", db, "--app", "padel", "--format", "json", "--check"])
    #expect(run.exitCode == 1, "padel is not at parity, so --check fails")
    let report = try JSONTree(parsing: run.stdout)
    #expect(try report["format_version"].int == 2)
    #expect(try report["outcome"].string == "failed")
    let context = try report["context"]
    #expect(try context["database"].string == db)
    #expect(try context["filter"]["app"].string == "padel")
    #expect(try context["min_sessions"].int == 30)
    let group = try report["apps"][0]["groups"][0]
    let pwa = try group["platforms"].element(where: "platform", is: "pwa")
    let flash = try pwa["rates"]["flash_rate"]
    let expectedFlash = try RepositoryPaths.expectedSample()["apps"]["padel"]["pwa"]["violations"]["flash"].int
    #expect(try flash["numerator"].int == expectedFlash)
    var verdicts: [String: String?] = [:]
    for comparison in try group["comparisons"].array {
      let verdict = try comparison["verdict"]
      verdicts[try comparison["metric"].string] = verdict.isNull ? nil : try verdict.string
    }
    #expect(verdicts["flash_rate"] == "fail")
    #expect(verdicts["client_arm_distance"] == "fail")
    #expect(verdicts["visible_ms"] == "pass")
    #expect(verdicts["arm_distance"] == "pass")
    // Rates have one shape: numerator, denominator, percent, rounded to what was measured.
    #expect(try flash.object.keys.sorted() == ["denominator", "numerator", "percent"])
    #expect(try pwa["distributions"]["visible_ms"]["p50"].double == 1988.2)
    // The absolute judgement: the PWA breaks the flash rule, iOS the arm-mismatch rule.
    var rules: [String: String] = [:]
    for rule in try pwa["rules"].array { rules[try rule["rule"].string] = try rule["verdict"].string }
    #expect(rules["flash"] == "fail")
    #expect(rules["arm_mismatch"] == "pass")
  }

  @Test func sessionDrillDownShowsStatesAndFindings() throws {
    let dir = try TemporaryDirectory()
    let db = dir.path("s.sqlite")
    _ = try CommandRun.pullparity(["ingest", "--db", db, samples])
    let flashSession = try RepositoryPaths.expectedSample()["defects"]["A"]["sessions"][0].string
    let run = try CommandRun.pullparity(["session", "--db", db, String(flashSession.prefix(13))])
    #expect(run.exitCode == 0, "\(run.stderr)")
    #expect(run.stdout.contains("Session \(flashSession)"))
    #expect(run.stdout.contains("pull_start"))
    #expect(run.stdout.contains("indicator_hidden"))
    #expect(run.stdout.contains("flash at +"))
    #expect(run.stdout.contains("done"))
  }

  @Test func strictExitsOneWhenLinesWereQuarantinedAndStillStoresTheGoodOnes() throws {
    let dir = try TemporaryDirectory()
    let db = dir.path("strict.sqlite")
    let bad = RepositoryPaths.sampleEvents.appendingPathComponent("bad-lines.jsonl").path
    let run = try CommandRun.pullparity(["ingest", "--db", db, "--strict", bad])
    #expect(run.exitCode == 1)
    #expect(run.stdout.contains("bad-lines.jsonl:4: not_json"))
    let expected = try RepositoryPaths.expectedSample()["bad_lines"]["alone"]["events_stored"].int
    let stored = run.stdout.split(separator: "\n").first { $0.contains("events stored") }
    #expect(stored?.split(separator: " ").last.map(String.init) == "\(expected)")
  }

  @Test func standardInputPlainOrGzip() throws {
    let dir = try TemporaryDirectory()
    let gz = try Data(contentsOf: RepositoryPaths.sampleEvents.appendingPathComponent("ffci-ios.jsonl.gz"))
    let run = try CommandRun.pullparity(["ingest", "--db", dir.path("stdin.sqlite"), "-"], stdin: gz)
    #expect(run.exitCode == 0, "\(run.stderr)")
    let total = try RepositoryPaths.expectedSample()["apps"]["ffci"]["ios"]["sessions"]["total"].int
    #expect(run.stdout.contains("\(total) sessions"))
  }

  @Test func replayAfterAProfileChangeListsWhatChanged() throws {
    let dir = try TemporaryDirectory()
    let db = dir.path("replay.sqlite")
    _ = try CommandRun.pullparity(["ingest", "--db", db, samples])
    // Padel without a minimum hold and with all the slack in the world: the PWA's flashes
    // (defect A) stop being findings, and nothing else can change.
    let profiles = try dir.write(
      "profiles.json",
      #"{"profiles":[{"name":"padel","version":2,"arm_threshold":24,"resistance":0.72,"min_hold_ms":0,"hide_slack_ms":100000,"reference_platform":"pwa"}]}"#
    )
    let run = try CommandRun.pullparity(["replay", "--db", db, "--profiles", profiles])
    #expect(run.exitCode == 0, "\(run.stderr)")
    let changed = try RepositoryPaths.expectedSample()["defects"]["A"]["count"].int
    #expect(run.stdout.contains("Changed: \(changed) sessions"))
    let again = try CommandRun.pullparity(["replay", "--db", db, "--profiles", profiles])
    #expect(again.stdout.contains("Changed: 0 sessions"))
  }

  @Test func profilesListsEveryNumberAndRoundTripsThroughAFile() throws {
    let run = try CommandRun.pullparity(["profiles"])
    #expect(run.exitCode == 0)
    for text in [
      "padel (version 2)", "ffci (version 2)", "phlock (version 2)", "Släpp för att uppdatera", "1300 ms",
      "TabPageView", "distance unit", "screen feed", "ios FeedView, pwa feed", "budgets",
      "30000 ms after refresh_start", "within 1000 ms of the release", "1000 ms of the last refresh's end",
    ] {
      #expect(run.stdout.contains(text), "\(text)")
    }
    let dir = try TemporaryDirectory()
    let json = try CommandRun.pullparity(["profiles", "--format", "json"])
    let file = try dir.write("all.json", json.stdout)
    let reread = try CommandRun.pullparity(["profiles", "--profiles", file])
    #expect(reread.stdout == run.stdout)
  }

  /// `help` with a topic that is no command is a usage error, not the top-level help and exit 0.
  @Test(arguments: [
    (["help"], 0, "USAGE: pullparity <subcommand>"), (["help", "report"], 0, "USAGE: pullparity report"),
    (["help", "junk"], 2, "help: no command \"junk\"; commands: ingest, report,"),
    (["help", "report", "junk"], 2, "help: no command \"junk\""),
  ])
  func helpNamesOnlyCommands(arguments: [String], exitCode: Int32, says: String) throws {
    let run = try CommandRun.pullparity(arguments)
    #expect(run.exitCode == exitCode)
    #expect((run.stdout + run.stderr).contains(says), "\(run.stdout)\(run.stderr)")
  }

  /// Text output keeps to 80 columns (docs/report-formats.md, "The formats at a glance"): tables, headers and notes.
  @Test(arguments: [
    ["report"], ["qa"], ["report", "--by", "screen"], ["qa", "--app", "ffci"], ["runs"], ["quarantine"],
    ["compare", "--app", "padel", "--baseline", "platform=pwa", "--candidate", "platform=ios"],
  ])
  func textFitsEightyColumns(arguments: [String]) throws {
    let run = try CommandRun.pullparity(arguments + ["--db", SampleDatabase.path])
    #expect([0, 1].contains(run.exitCode), "\(run.stderr)")
    // A quarantined line's location (file:line: reason) is printed whole, however long.
    let located = arguments == ["quarantine"] ? run.stdout.split(separator: "\n").filter { !$0.hasPrefix("    ") } : []
    let wide = run.stdout.split(separator: "\n").filter { $0.count > 80 && !located.contains($0) }
    #expect(wide.isEmpty, "\(wide)")
  }

  @Test func profilesListsBudgetsPerRule() throws {
    let dir = try TemporaryDirectory()
    let file = try dir.write(
      "budgets.json",
      #"{"profiles":[{"name":"padel","version":2,"arm_threshold":24,"resistance":0.72,"min_hold_ms":0,"#
        + #""hide_slack_ms":100,"budgets":{"flash":2.5,"cache_order":20}}]}"#)
    let run = try CommandRun.pullparity(["profiles", "--profiles", file])
    #expect(run.exitCode == 0, "\(run.stderr)")
    let lines = run.stdout.split(separator: "\n").map { $0.split(separator: " ", omittingEmptySubsequences: true) }
    #expect(lines.contains(["budget", "cache_order", "20", "%", "of", "judged", "sessions"]), "\(run.stdout)")
    #expect(lines.contains(["budget", "flash", "2.5", "%", "of", "judged", "sessions"]), "\(run.stdout)")
  }

  /// Usage and input errors exit 2 with a message that says what was wrong.
  @Test(arguments: [
    (["ingest"], "Missing expected argument"),
    (["ingest", "/nonexistent/logs.jsonl"], "cannot open /nonexistent/logs.jsonl"),
    (["report", "--db", "/nonexistent/x.sqlite"], "no such database file"),
    (["report", "--since", "last week"], "--since \"last week\" is not a date"),
    (["report", "--format", "pdf"], "pdf"),
    (["qa", "--rate-tolerance=-1"], "--rate-tolerance must be 0 or more"),
    (["ingest", "--transaction-lines", "0", "x"], "--transaction-lines must be 1 to 100000000"),
    (["ingest", "--transaction-lines", "9223372036854775807", "x"], "--transaction-lines must be 1 to 100000000"),
    (["ingest", "--cache-size", "0", "x"], "--cache-size must be 1 to 65536 (MiB)"),
    (["report", "--cache-size", "99999"], "--cache-size must be 1 to 65536 (MiB)"),
    (["report", "--lock-timeout=-1"], "--lock-timeout must be 0 to 86400 (seconds)"),
    (["report", "--lock-timeout", "inf"], "--lock-timeout must be 0 to 86400 (seconds)"),
    (["ingest", "--lock-timeout", "1e300", "x"], "--lock-timeout must be 0 to 86400 (seconds)"),
    (["frobnicate"], "frobnicate"),
  ])
  func errorsExitTwo(arguments: [String], message: String) throws {
    let dir = try TemporaryDirectory()
    let run = try CommandRun.pullparity(arguments, currentDirectory: dir.url)
    #expect(run.exitCode == 2, "\(arguments): \(run.stderr)")
    #expect(run.stderr.contains(message), "\(arguments): \(run.stderr)")
  }

  /// The strict validator accepts what `profiles --format json` prints: the printed file is
  /// the format, every key it writes is a key it reads.
  @Test func printedProfilesReadBackUnchanged() throws {
    let dir = try TemporaryDirectory()
    let printed = try CommandRun.pullparity(["profiles", "--format", "json"])
    #expect(printed.exitCode == 0)
    let file = try dir.write("printed.json", printed.stdout)
    let reread = try CommandRun.pullparity(["profiles", "--format", "json", "--profiles", file])
    #expect(reread.exitCode == 0, "\(reread.stderr)")
    #expect(reread.stdout == printed.stdout)
  }

  @Test(arguments: [
    (#"{"profiles":[{"name":"x"}]}"#, "profiles[0].min_hold_ms: is required"),
    (#"{"profiles":[{"name":"x","min_hold_ms":"1200"}]}"#, "profiles[0].min_hold_ms: must be a number"),
    (#"{"profiles":[{"name":"x","min_hold_ms":-5}]}"#, "profiles[0].min_hold_ms: must be 0 or more, got -5"),
    (
      #"{"profiles":[{"name":"x","min_hold_ms":0,"arm_threshold":0}]}"#,
      "profiles[0].arm_threshold: must be more than 0"
    ),
    (
      #"{"profiles":[{"name":"x","min_hold_ms":0,"reveal":{"bars":5,"progress_step":2,"full_pull_distance":80}}]}"#,
      "profiles[0].reveal.progress_step"
    ),
    (#"[{"name":"x","min_hold_ms":0},{"name":"x","min_hold_ms":0}]"#, "profiles[1].name: \"x\" is defined twice"),
    ("{nope", "not valid JSON"),
    (#"{"profiles":[{"name":"x","min_hold_ms":5,}]}"#, "not valid JSON (RFC 8259: no trailing commas"),
    (#"{"profiles":[{"name":"x","min_hold_ms":5} // padel]}"#, "not valid JSON"),
    (
      #"{"profiles":[{"name":"x","min_hold_ms":5,"arm_treshold":64}]}"#,
      "profiles[0].arm_treshold: unknown key: did you mean arm_threshold?"
    ),
    (#"{"profile":[]}"#, "profile: unknown key: did you mean profiles?"),
    (
      #"[{"name":"x","min_hold_ms":5,"indicator":{"kind":"spinner"}}]"#,
      #"profiles[0].indicator.kind: "spinner" is not allowed; use one of balls, waveform, native"#
    ),
    (#"[{"name":"x","min_hold_ms":5,"unit":"cm"}]"#, #"profiles[0].unit: "cm" is not allowed; use one of pt, px, dp"#),
    (
      #"[{"name":"x","min_hold_ms":5,"reference_platform":"i\u001bos"}]"#,
      "profiles[0].reference_platform: must be a lowercase token, as events name platforms"
    ),
    (
      #"[{"name":"x","min_hold_ms":5,"reference_platform":"iOS"}]"#,
      "profiles[0].reference_platform: must be a lowercase"
    ),
    (
      #"[{"name":"x","min_hold_ms":5,"screens":{"feed":{"pwa":"feed","iOS":"FeedView"}}}]"#,
      #"profiles[0].screens.feed: platform "iOS" must be a lowercase token"#
    ),
    (
      #"[{"name":"x","min_hold_ms":5,"budgets":{"flsh":2}}]"#,
      "profiles[0].budgets.flsh: unknown key: did you mean flash?"
    ),
    (
      #"[{"name":"x","min_hold_ms":5,"labels":{"pulling":"a","ready":"b","refreshing":"c","done":"d"}}]"#,
      "profiles[0].labels.done: unknown key. Known keys: pulling, ready, refreshing."
    ),
    // Valid JSON nested deeper than Foundation reads: still an error naming the file.
    (
      #"[{"name":"x","min_hold_ms":5,"screens":"# + String(repeating: "[", count: 600)
        + String(repeating: "]", count: 600) + "}]",
      "p.json: not a profile file: Too many nested arrays or dictionaries"
    ),
  ])
  func badProfileFilesNameTheField(content: String, message: String) throws {
    let dir = try TemporaryDirectory()
    let file = try dir.write("p.json", content)
    let run = try CommandRun.pullparity(["profiles", "--profiles", file])
    #expect(run.exitCode == 2)
    #expect(run.stderr.contains(message), "\(run.stderr)")
  }

  /// A profile file that does not load fails the command before it creates (or waits for) the
  /// database.
  @Test(arguments: [["ingest", "sample-events"], ["replay"]])
  func aBadProfileFileFailsBeforeTheDatabaseIsTouched(arguments: [String]) throws {
    let dir = try TemporaryDirectory()
    let profiles = try dir.write("p.json", #"[{"name":"x"}]"#)
    let db = dir.path("never.sqlite")
    let run = try CommandRun.pullparity(
      arguments + ["--profiles", profiles, "--db", db], currentDirectory: RepositoryPaths.root)
    #expect(run.exitCode == 2)
    #expect(run.stderr.contains("p.json"), "\(run.stderr)")
    #expect(!FileManager.default.fileExists(atPath: db), "\(run.stderr)")
  }

  static func thousands(_ n: Int) -> String {
    let s = String(n)
    var out = ""
    for (i, c) in s.enumerated() {
      if i > 0, (s.count - i) % 3 == 0 { out.append(",") }
      out.append(c)
    }
    return out
  }
}

/// docs/dashboards.md's promises about the sample database.
@Suite struct DashboardsDocExampleTests {
  @Test func everySQLQueryInTheDashboardsDocRunsAgainstTheSampleDatabase() throws {
    let doc = try String(
      contentsOf: RepositoryPaths.root.appendingPathComponent("docs/dashboards.md"), encoding: .utf8)
    let blocks = doc.components(separatedBy: "```sql\n").dropFirst().map { $0.components(separatedBy: "```")[0] }
    #expect(blocks.count == 3)
    let dir = try TemporaryDirectory()
    let path = dir.path("dashboards-doc.sqlite")
    let ingest = try CommandRun.pullparity(["ingest", "--db", path, RepositoryPaths.sampleEvents.path])
    #expect(ingest.exitCode == 0)
    let database = try PullParityDatabase(path: path, readOnly: true)
    for sql in blocks {
      let rows = try database.read { db in try Row.fetchAll(db, sql: sql) }
      #expect(!rows.isEmpty, "no rows from: \(sql)")
    }
    // The median query agrees with the report's visible-time p50 for padel (1988.2 / 1984.5).
    let medians = try database.read { db in
      try Row.fetchAll(db, sql: blocks[2]).filter { ($0["app"] as String) == "padel" }
        .map { (($0["platform"] as String), (($0["p50_visible_ms"] as Double) * 10).rounded() / 10) }
    }
    let report = try CommandRun.pullparity(["report", "--db", path, "--app", "padel", "--format", "csv"])
    for (platform, median) in medians {
      let row = report.stdout.split(separator: "\r\n").first {
        $0.contains(",\(platform),metric,visible_ms,") && $0.contains(",pull,")
      }
      #expect(row?.contains(",\(median),") == true, "\(platform) \(median): \(row ?? "no row")")
    }
  }
}
