import Foundation
import PullParityCore
import PullParityTestSupport
import Testing

@testable import PullParityReport
@testable import PullParityStore

/// The Markdown, CSV and HTML formats against the text report: the same figures for every
/// platform, the row counts each format promises, escaping of names from logs, and an HTML file
/// that needs nothing from the network.
@Suite struct ReportFormatTests {
  typealias F = ReportFormatFixture

  let report = F.report
  let text: String
  let markdown: String
  let csv: String
  let html: String

  /// A render that throws fails each test of the suite with its error, not the whole run.
  init() throws {
    text = try ReportFormat.text.render(ReportRenderInput(report: F.report))
    markdown = try ReportFormat.markdown.render(ReportRenderInput(report: F.report))
    csv = try ReportFormat.csv.render(ReportRenderInput(report: F.report))
    html = try ReportFormat.html.render(F.renderInput)
  }

  // MARK: - The fixture is what the hand computation says

  @Test func fixtureFiguresAreTheHandComputedOnes() throws {
    #expect(report.apps.map(\.app) == ["ffci", "padel"])
    let padel = try #require(report.apps.first { $0.app == "padel" })
    #expect(padel.groups.map(\.value) == ["pull", "programmatic"])
    let pull = padel.groups[0]
    #expect(pull.referencePlatform == "pwa")
    let pwa = try #require(pull.platforms.first { $0.platform == "pwa" })
    let ios = try #require(pull.platforms.first { $0.platform == "ios" })
    #expect(F.figure(.armDistance, pwa) == "35.5")
    #expect(F.figure(.armDistance, ios) == "34.5")
    #expect(F.figure(.visibleMs, pwa) == "1350.0")
    #expect(F.figure(.flashRate, pwa) == "25.0% (1/4)")
    #expect(F.figure(.armMismatchRate, ios) == "33.3% (1/3)")
    #expect(F.figure(.labelViolationRate, ios) == "25.0% (1/4)")
    #expect(pull.verdict == .fail)
    #expect(pull.kind == .compared)
    // ffci has one platform: judged against its profile alone.
    #expect(report.apps[0].groups[0].kind == .judgedAlone)
    #expect(report.apps[0].groups[0].comparisons.isEmpty)
  }

  // MARK: - Same figures everywhere

  @Test func everyFormatShowsTheTextReportsFigures() throws {
    let csvRows = CSVTable(parsing: csv).rows
    let htmlTables = Self.htmlTables(html)
    var groupIndex = 0
    for app in report.apps {
      for group in app.groups {
        defer { groupIndex += 1 }
        let ordered = group.platforms.sorted { lhs, _ in lhs.platform == group.referencePlatform }
        let textSection = try #require(Self.textSection(text, app: app.app, group: group))
        let markdownRows = Self.markdownRows(markdown, app: app.app, group: group)
        let htmlRows = htmlTables[groupIndex]

        for metric in ParityMetric.allCases {
          let figures = ordered.map { F.figure(metric, $0) }
          let subject = "\(app.app) \(group.value) \(metric.rawValue)"

          // Text: the metric's line holds the platforms' figures in column order.
          let prefix = metric == .clientArmDistance ? "client arm" : metric.title
          let textLine = try #require(textSection.first { $0.hasPrefix(prefix) }, "no text line for \(subject)")
          #expect(Self.containsInOrder(textLine, figures), "text \(subject): \(textLine) lacks \(figures)")

          // Markdown and HTML: the platform columns of the metric's row.
          let label = metric.isRate ? metric.title : "\(metric.title) p50 (\(metric.unit(distance: "pt")))"
          let markdownRow = try #require(markdownRows.first { $0.first == label }, "no Markdown row for \(subject)")
          #expect(Array(markdownRow[1...ordered.count]) == figures, "Markdown \(subject)")
          let htmlRow = try #require(htmlRows.first { $0.first == label }, "no HTML row for \(subject)")
          #expect(Array(htmlRow[1...ordered.count]) == figures, "HTML \(subject)")

          // CSV: the same one-decimal figures, and numbers that parse back to the report's.
          for platform in ordered {
            let row = try #require(
              csvRows.first {
                $0["app"] == app.app && $0["group"] == group.value && $0["platform"] == platform.platform
                  && $0["metric"] == metric.rawValue
              },
              "no CSV row for \(subject) \(platform.platform)")
            if metric.isRate {
              let rate = try #require(platform.rate(metric))
              #expect(row["numerator"] == "\(rate.numerator)" && row["denominator"] == "\(rate.denominator)")
              #expect(
                Self.close(Double(row["rate_percent"] ?? ""), rate.value.map { $0 * 100 }),
                "CSV \(subject) \(row["rate_percent"] ?? "")")
              #expect(
                NumberText.percent(rate)
                  == (rate.value == nil
                    ? "–" : "\(row["rate_percent"] ?? "")% (\(row["numerator"] ?? "")/\(row["denominator"] ?? ""))"))
            } else {
              let distribution = try #require(platform.distribution(metric))
              #expect(row["n"] == "\(distribution.n)")
              #expect(
                (row["p50"].map { $0.isEmpty ? "–" : $0 }) == NumberText.oneDecimalOrDash(distribution.p50),
                "CSV \(subject)")
              #expect(Self.close(Double(row["p50"] ?? ""), distribution.p50))
              #expect(Self.close(Double(row["p90"] ?? ""), distribution.p90))
              #expect(Self.close(Double(row["p95"] ?? ""), distribution.p95))
            }
          }
        }
      }
    }
    #expect(groupIndex == 3)
  }

  @Test func differencesAndVerdictsMatchTheComparisons() throws {
    let pull = report.apps[1].groups[0]
    let rows = CSVTable(parsing: csv).rows.filter {
      $0["app"] == "padel" && $0["group"] == "pull" && $0["kind"] == "metric"
    }
    for comparison in pull.comparisons {
      let row = try #require(
        rows.first { $0["platform"] == comparison.platform && $0["metric"] == comparison.metric.rawValue })
      #expect(row["reference_platform"] == "pwa")
      #expect(Self.close(Double(row["difference"] ?? ""), comparison.difference))
      #expect(row["tolerance"] == NumberText.format(comparison.tolerance))
      #expect(row["verdict"] == comparison.verdict.rawValue)
      #expect(Self.close(Double(row["ci_low"] ?? ""), comparison.interval?.low))
      #expect(Self.close(Double(row["ci_high"] ?? ""), comparison.interval?.high))
    }
    // The reference platform's own rows name it but compare nothing.
    for row in rows where row["platform"] == "pwa" {
      #expect(
        row["reference_platform"] == "pwa" && row["difference"] == "" && row["tolerance"] == "" && row["verdict"] == "")
    }
    // client arm distance p50s: pwa 35.75, android 41 (+5.25), ios 34 (−1.75): on two and three
    // sessions no order statistic bounds a p50's interval, so neither is a verdict either way.
    let markdownRows = Self.markdownRows(markdown, app: "padel", group: pull)
    let clientArm = try #require(markdownRows.first { $0.first == "client arm distance p50 (pt)" })
    #expect(
      clientArm == [
        "client arm distance p50 (pt)", "35.8", "41.0", "34.0", "+5.3", "too few (n=2)", "-1.8", "too few (n=3)",
      ])
  }

  // MARK: - CSV

  @Test func csvHasOneRowPerAppGroupPlatformMetricAndRule() {
    let table = CSVTable(parsing: csv)
    #expect(table.header == CSVReportRenderer.columns)
    let body = table.rows
    let metrics = report.apps.flatMap(\.groups).reduce(0) { $0 + $1.platforms.count } * ParityMetric.allCases.count
    let rules = report.apps.flatMap(\.groups).flatMap(\.platforms).reduce(0) { $0 + $1.rules.count }
    // ffci: 12 rules on ios; padel: 14 rules on 3 + 1 platforms (each with the 5 of v1.1).
    // 11 metrics: v1.2 adds abandoned during refresh.
    #expect(metrics == (1 + 3 + 1) * 11)
    #expect(rules == 12 + 14 * 4)
    #expect(body.filter { $0["kind"] == "metric" }.count == metrics)
    #expect(body.filter { $0["kind"] == "rule" }.count == rules)
    let expected = metrics + rules
    #expect(body.count == expected)
    #expect(body.allSatisfy { $0.fieldCount == CSVReportRenderer.columns.count })
    let keys = Set(
      body.map { row in
        ["app", "dimension", "group", "platform", "metric"].map { row[$0] ?? "" }.joined(separator: "|")
      })
    #expect(keys.count == expected)
    #expect(csv.hasSuffix("\r\n") && !csv.replacingOccurrences(of: "\r\n", with: "").contains("\n"))
    // Not-applicable cells are empty, never a dash.
    #expect(!csv.contains("–"))
  }

  @Test func csvQuotesFieldsAndParsesBack() throws {
    let awkward = "pad,\"el\"\nnext"
    var sessions = F.sessions.filter { $0.app == "ffci" }
    for index in sessions.indices { sessions[index].app = awkward }
    let report = F.build(sessions)
    let csv = CSVReportRenderer().render(report)
    #expect(csv.contains("\"pad,\"\"el\"\"\nnext\""))
    let rows = CSVTable(parsing: csv).rows
    #expect(rows.count == 11 + 12)
    #expect(rows.allSatisfy { $0["app"] == awkward && $0.fieldCount == CSVReportRenderer.columns.count })
    #expect(CSVReportRenderer.field("plain") == "plain")
    #expect(CSVReportRenderer.field("a,b") == "\"a,b\"")
    #expect(CSVReportRenderer.field("crlf\r\n") == "\"crlf\r\n\"")
  }

  /// A cell a spreadsheet would run is shown with a leading `'`: a formula's first character, or
  /// a tab or carriage return before one, which spreadsheets skip.
  @Test(arguments: [
    ("=1+1", "'=1+1"), ("+1", "'+1"), ("-1", "'-1"), ("@SUM(A1)", "'@SUM(A1)"), ("\t=1+1", "'\t=1+1"),
    ("\r=1+1", "'\r=1+1"), ("\r\n=1+1", "'\r\n=1+1"), ("\n=1+1", "\n=1+1"), ("padel", "padel"), (" =1", " =1"),
  ])
  func csvDisarmsWhatASpreadsheetWouldRun(name: String, cell: String) {
    #expect(CSVReportRenderer.text(name) == cell)
  }

  // MARK: - Markdown

  /// GitHub links bare URLs, `www.` names and addresses, and pings `@user`: a name from the logs
  /// stays text.
  @Test(arguments: [
    ("https://evil.example/x", "https\\://evil.example/x"), ("see HTTP://a.b", "see HTTP\\://a.b"),
    ("mailto:me", "mailto\\:me"), ("www.evil.example", "www\\.evil.example"),
    ("go WWW.evil.example", "go WWW\\.evil.example"), ("me@evil.example", "me\\@evil.example"),
    ("@octocat", "\\@octocat"), ("3.8.0 at 10:15", "3.8.0 at 10:15"), ("wwwx.y", "wwwx.y"),
  ])
  func markdownKeepsLinksInNamesText(name: String, escaped: String) {
    #expect(MarkdownReportRenderer.escape(name) == escaped)
  }

  @Test func markdownHasATableRowPerFigure() {
    // sessions, outcomes, then a p50 and a p90/p95 row per distribution and a row per rate.
    let perGroup = 2 + 4 * 2 + 7
    for app in report.apps {
      for group in app.groups {
        let rows = Self.markdownRows(markdown, app: app.app, group: group)
        #expect(rows.count == perGroup, "\(app.app) \(group.value)")
        let columns = 1 + group.platforms.count + (group.referencePlatform == nil ? 0 : (group.platforms.count - 1) * 2)
        #expect(rows.allSatisfy { $0.count == columns })
      }
    }
    let lines = markdown.split(separator: "\n")
    #expect(lines.filter { $0.hasPrefix("## ") }.count == 3)
    // A figure table and a rule table per group.
    #expect(lines.filter { $0.hasPrefix("| :-- |") }.count == 6)
    #expect(markdown.contains("❌ **FAIL** — padel pull: "))
    #expect(markdown.contains("Profile padel v2 · ❌ fail · reference **pwa**"))
    #expect(markdown.contains("one platform: no platform comparison possible, judged against the profile alone"))
    #expect(markdown.contains("- **Database**: fixture.sqlite"))
  }

  @Test func markdownEscapesNamesFromLogs() {
    var sessions = F.sessions.filter { $0.app == "ffci" }
    for index in sessions.indices { sessions[index].platform = "i|os*" }
    let markdown = MarkdownReportRenderer().render(
      F.build(sessions))
    #expect(markdown.contains("| metric | i\\|os\\* |"))
    #expect(!markdown.contains("i|os"))
  }

  // MARK: - HTML

  @Test func htmlIsSelfContained() {
    for banned in ["http://", "https://", "<script", "<link", "<img", "<iframe", "@import", "url(", "src="] {
      #expect(!html.contains(banned), "the HTML report contains \(banned)")
    }
    #expect(html.hasPrefix("<!DOCTYPE html>"))
    #expect(html.contains("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"))
    #expect(html.contains("<title>Pull-to-refresh parity</title>"))
  }

  @Test func htmlChartsCountTheirMarks() throws {
    let charts = Self.svgCharts(html)
    #expect(try Dictionary(uniquePairs: charts.map { ($0.id, $0.declared) }) == F.expectedMarks)
    for chart in charts {
      #expect(
        chart.counted == chart.declared, "\(chart.id): \(chart.counted) marks drawn, data-marks \(chart.declared)")
      #expect(chart.svg.contains("viewBox=\"0 0 "))
    }
  }

  @Test func htmlMarksThresholdsOfTheProfile() throws {
    let charts = try Dictionary(uniquePairs: Self.svgCharts(html).map { ($0.id, $0.svg) })
    // padel arms at 24 / 0.72 = 33.3 pt of finger travel and holds 1200 ms; ffci has neither.
    #expect(try #require(charts["a1.g0.arm_distance"]).contains("arms at 33.3 pt"))
    #expect(try #require(charts["a1.g0.visible_ms"]).contains("min hold 1200 ms"))
    #expect(try #require(charts["a1.g0.time_to_arm_ms"]).contains("class=\"threshold\"") == false)
    #expect(try #require(charts["a0.g0.arm_distance"]).contains("class=\"threshold\"") == false)
    #expect(try #require(charts["timeline.0"]).contains("min hold 1200 ms"))
  }

  @Test func htmlEscapesNamesFromLogs() {
    var sessions = F.sessions.filter { $0.app == "ffci" }
    for index in sessions.indices {
      sessions[index].app = "<img src=x onerror=alert(1)>"
      sessions[index].platform = "\"><b>"
    }
    let report = F.build(sessions)
    let html = HTMLReportRenderer().render(ReportRenderInput(report: report, sessions: sessions))
    #expect(!html.contains("<img"))
    #expect(!html.contains("<b>"))
    #expect(html.contains("&lt;img src=x onerror=alert(1)&gt;"))
    #expect(html.contains("&quot;&gt;&lt;b&gt;"))
  }

  @Test func htmlWithoutSessionsStillShowsTheTables() throws {
    let html = try ReportFormat.html.render(ReportRenderInput(report: report))
    // Rates come from the report itself; distributions and timelines need the sessions.
    #expect(Self.svgCharts(html).map(\.id) == ["a0.g0.rates", "a1.g0.rates", "a1.g1.rates"])
    #expect(Self.htmlTables(html).count == 3)
  }

  // MARK: - Example timelines

  @Test func timelineMarksAreOffsetsFromTheFirstEvent() {
    let timeline = F.timeline
    #expect(timeline.marks.count == 11)
    #expect(timeline.marks.first == TimelineMark(offsetMs: 0, label: "pull_start", detail: ""))
    #expect(timeline.marks.last?.offsetMs == 1220)
    #expect(
      timeline.violations == [
        TimelineMark(offsetMs: 1220, label: "flash", detail: "expected visible ≥ 1200 ms; got visible 900 ms")
      ])
    #expect(timeline.title == "flash · padel on pwa")
  }

  @Test func everyFormatRenders() throws {
    for format in ReportFormat.allCases {
      #expect(!(try format.render(F.renderInput)).isEmpty, "\(format)")
    }
    #expect(ReportFormat.allCases.filter(\.needsSessionDetail) == [.html])
  }

  // MARK: - Reading the outputs back

  static func close(_ a: Double?, _ b: Double?) -> Bool {
    switch (a, b) {
    case (nil, nil): true
    case (let a?, let b?): abs(a - b) <= 0.05 + 1e-9
    default: false
    }
  }

  /// Whether `figures` occur in `line` one after another.
  static func containsInOrder(_ line: String, _ figures: [String]) -> Bool {
    var rest = line[...]
    for figure in figures {
      guard let range = rest.range(of: figure) else { return false }
      rest = rest[range.upperBound...]
    }
    return true
  }

  /// The lines of the text report's table for one group.
  static func textSection(_ text: String, app: String, group: ParityGroup) -> [String]? {
    let sections = text.components(separatedBy: "\n\n").map { $0.split(separator: "\n").map(String.init) }
    return sections.first { lines in
      guard let heading = lines.first else { return false }
      return heading.hasPrefix("\(app) · profile") && heading.contains("· \(group.dimension) \(group.value)")
    }
  }

  /// Body rows of one group's Markdown table, as cells (header and alignment rows dropped).
  static func markdownRows(_ markdown: String, app: String, group: ParityGroup) -> [[String]] {
    let lines = markdown.components(separatedBy: "\n")
    guard let start = lines.firstIndex(of: "## \(app) · \(group.dimension) \(group.value)") else { return [] }
    let section = lines[(start + 1)...].prefix { !$0.hasPrefix("## ") }
    // The figures' table: the first of the section (the rule table follows it).
    let table = section.drop { !$0.hasPrefix("| ") }.prefix { $0.hasPrefix("| ") }.dropFirst(2)
    return table.map { line in
      line.dropFirst(2).dropLast(2).components(separatedBy: " | ")
    }
  }

  /// The parity tables of an HTML report in order, each as rows of cell texts (header cell first,
  /// the p90/p95 line under a p50 left out).
  static func htmlTables(_ html: String) -> [[[String]]] {
    html.components(separatedBy: "<div class=\"table-wrap\"><table>\n").dropFirst().map { table in
      let body = table.components(separatedBy: "</table>")[0]
      return body.components(separatedBy: "<tr").dropFirst().compactMap { row -> [String]? in
        guard let labelStart = row.range(of: "<th scope=\"row\">") else { return nil }
        let label = String(row[labelStart.upperBound...].prefix { $0 != "<" })
        let cells = row.components(separatedBy: "<td").dropFirst().map { cell in
          String(cell.drop { $0 != ">" }.dropFirst().prefix { $0 != "<" })
        }
        return [label] + cells
      }
    }
  }

  struct SVGChart {
    var id: String
    var declared: Int
    var counted: Int
    var svg: String
  }

  /// Every `<svg data-chart>` with its declared mark count and the `class="mark` elements in it.
  static func svgCharts(_ html: String) -> [SVGChart] {
    html.components(separatedBy: "<svg ").dropFirst().compactMap { piece in
      let svg = piece.components(separatedBy: "</svg>")[0]
      guard let id = attribute("data-chart", in: svg), let marks = attribute("data-marks", in: svg).flatMap(Int.init)
      else { return nil }
      return SVGChart(
        id: id, declared: marks, counted: svg.components(separatedBy: "class=\"mark ").count - 1, svg: svg)
    }
  }

  static func attribute(_ name: String, in element: String) -> String? {
    guard let start = element.range(of: " \(name)=\"") ?? element.range(of: "\(name)=\"") else { return nil }
    return String(element[start.upperBound...].prefix { $0 != "\"" })
  }

}
