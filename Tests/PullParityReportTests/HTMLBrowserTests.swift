import Foundation
import PullParityStore
import PullParityTestSupport
import Testing

@testable import PullParityReport

/// The HTML report in a real browser: Debian's headless Chromium loads it from disk, and the
/// DOM it builds, two screenshots (phone and laptop width) and its console are checked. CI
/// installs Chromium; without it this test fails rather than passing unseen.
///
/// Set `PULLPARITY_SCREENSHOT_DIR` to keep the screenshots (e.g. as CI artifacts).
@Suite struct HTMLBrowserTests {
  static let chromium = "/usr/bin/chromium"
  /// Far above the ~1 s a run takes, even on a machine whose cores the other suites keep
  /// busy; a hung browser fails the test instead of stalling CI.
  static let timeout: TimeInterval = 180

  @Test func reportRendersInHeadlessChromium() throws {
    guard FileManager.default.isExecutableFile(atPath: Self.chromium) else {
      Issue.record(
        "Chromium is not installed at \(Self.chromium); the HTML report's browser test needs it (apt-get install chromium)."
      )
      return
    }
    let directory = try TemporaryDirectory()
    let html = try ReportFormat.html.render(ReportFormatFixture.renderInput)
    let page = URL(fileURLWithPath: try directory.write("report.html", html)).absoluteString

    let dom = try Self.runChromium(["--dump-dom", page], in: directory, name: "dom")
    #expect(dom.status == 0, "chromium --dump-dom exited \(dom.status)")
    #expect(dom.stdout.contains("<title>Pull-to-refresh parity</title>"))
    #expect(dom.stdout.contains("<h1>Pull-to-refresh parity</h1>"))
    // The browser built every chart with every mark: parsed from its DOM, not from our text.
    let charts = ReportFormatTests.svgCharts(dom.stdout)
    #expect(try Dictionary(uniquePairs: charts.map { ($0.id, $0.declared) }) == ReportFormatFixture.expectedMarks)
    for chart in charts {
      #expect(
        chart.counted == chart.declared, "\(chart.id): \(chart.counted) marks in the DOM, data-marks \(chart.declared)")
    }

    var logs = [dom.stderr]
    for (name, width, height) in [("phone", 390, 844), ("laptop", 1280, 800)] {
      let png = directory.path("\(name).png")
      let run = try Self.runChromium(
        ["--hide-scrollbars", "--window-size=\(width),\(height)", "--screenshot=\(png)", page], in: directory,
        name: name)
      #expect(run.status == 0, "chromium --screenshot at \(width)×\(height) exited \(run.status)")
      logs.append(run.stderr)
      let data = try #require(FileManager.default.contents(atPath: png), "no screenshot at \(png)")
      #expect(data.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]), "\(name).png is not a PNG")
      #expect(data.count > 1000, "\(name).png is \(data.count) bytes")
      if data.count >= 24 {
        #expect(data[16..<20].reduce(0) { $0 << 8 | Int($1) } == width, "\(name).png has the wrong width")
      }
      if let keep = ProcessInfo.processInfo.environment["PULLPARITY_SCREENSHOT_DIR"] {
        try FileManager.default.createDirectory(atPath: keep, withIntermediateDirectories: true)
        try data.write(to: URL(fileURLWithPath: keep).appendingPathComponent("report-\(name).png"))
      }
    }

    // The page has no script, so any console line (an error, a blocked load) is a defect.
    for line in logs.joined(separator: "\n").split(separator: "\n")
    where line.contains("Uncaught") || line.contains(":CONSOLE") {
      Issue.record("browser console: \(line)")
    }
  }

  struct Run {
    var status: Int32
    var stdout: String
    var stderr: String
  }

  /// Runs Chromium headless with its own profile directory, output captured through files so
  /// a chatty log cannot fill a pipe and block it.
  static func runChromium(_ arguments: [String], in directory: TemporaryDirectory, name: String) throws -> Run {
    let out = directory.path("\(name).stdout")
    let err = directory.path("\(name).stderr")
    _ = FileManager.default.createFile(atPath: out, contents: nil)
    _ = FileManager.default.createFile(atPath: err, contents: nil)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: chromium)
    process.arguments =
      [
        "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run", "--enable-logging=stderr", "--v=0",
        "--user-data-dir=\(directory.path("profile-\(name)"))",
      ] + arguments
    process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: out))
    process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: err))
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let deadline = Date().addingTimeInterval(timeout)
    while process.isRunning && Date() < deadline { usleep(20_000) }
    if process.isRunning {
      process.terminate()
      process.waitUntilExit()
      Issue.record("chromium \(arguments.joined(separator: " ")) did not finish within \(Int(timeout)) s")
    }
    return Run(
      status: process.terminationStatus,
      stdout: (try? String(contentsOfFile: out, encoding: .utf8)) ?? "",
      stderr: (try? String(contentsOfFile: err, encoding: .utf8)) ?? "")
  }
}
