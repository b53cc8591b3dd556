import Foundation
import PullParityCore
import PullParityRecorder
import PullParityTestSupport
import Testing

/// `install_id`: stamped last on every line, kept in a file across launches, one per install even
/// when two processes start at once, and never at the cost of the events.
@Suite struct InstallIDTests {
  @Test func theInstallIDIsStampedLastOnEveryLine() {
    let lines = Collected<String>()
    let recorder = PullParityRecorder(
      app: "padel", installID: "install-1", sink: lines.sink, clock: ManualClock(), ids: UUIDv7Generator.seeded())
    recorder.pullStart()
    recorder.pullMove(distance: 40, offset: 28.8)
    recorder.release(distance: 40)
    recorder.refreshStart()
    recorder.indicatorShown(recorder.behaviour.indicator)
    recorder.indicatorHidden()
    recorder.refreshStart(gestureObserved: false)
    #expect(lines.all.count == 7)
    #expect(lines.all.allSatisfy { $0.hasSuffix(#","install_id":"install-1"}"#) }, "\(lines.all)")
    #expect(PullParityRecorderTests.decode(lines.all).allSatisfy { $0.installID == "install-1" })
  }

  /// An id ingest would refuse would cost every line: the recorder drops the id instead, says so
  /// once, and records.
  @Test(arguments: ["", String(repeating: "x", count: 129)])
  func anIDIngestWouldRefuseCostsTheIDNotTheEvents(_ id: String) {
    let lines = Collected<String>()
    let errors = Collected<RecorderError>()
    let recorder = PullParityRecorder(app: "padel", installID: id, sink: lines.sink, onError: errors.append)
    recorder.pullStart()
    recorder.cancel()
    #expect(lines.all.count == 2)
    #expect(PullParityRecorderTests.decode(lines.all).allSatisfy { $0.installID == nil })
    #expect(errors.all.map(\.field) == ["installID"])
    let shown = id.isEmpty ? "" : String(repeating: "x", count: 40) + "…"
    #expect(errors.all.map(\.description) == ["init: installID must be 1–128 characters, got \"\(shown)\""])
  }

  /// 128 characters is the limit, counted as ingest counts them: characters, not code points.
  @Test(arguments: [String(repeating: "x", count: 128), String(repeating: "e\u{301}", count: 128)])
  func anIDOfUpTo128CharactersIsKept(_ id: String) {
    let lines = Collected<String>()
    let errors = Collected<RecorderError>()
    let recorder = PullParityRecorder(app: "padel", installID: id, sink: lines.sink, onError: errors.append)
    recorder.pullStart()
    #expect(errors.all.isEmpty)
    #expect(PullParityRecorderTests.decode(lines.all).map(\.installID) == [id])
  }

  @Test func theFirstUseMakesAnIDAndLaterUsesReadIt() throws {
    let dir = try TemporaryDirectory()
    // Application Support does not exist on a fresh iOS install: the folders are made.
    let folder = dir.url.appendingPathComponent("Library/Application Support")
    let file = folder.appendingPathComponent("pullparity-install-id")
    let first = try #require(InstallID.stored(at: file))
    #expect(UUID(uuidString: first) != nil && first == first.lowercased())
    #expect(InstallID.stored(at: file) == first)
    #expect(try String(contentsOf: file, encoding: .utf8) == first)
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["pullparity-install-id"])
  }

  @Test func anIDWrittenElsewhereIsReadAsItIs() throws {
    let dir = try TemporaryDirectory()
    let file = URL(fileURLWithPath: try dir.write("install-id", "Android-glue-7f3a\n"))
    #expect(InstallID.stored(at: file) == "Android-glue-7f3a")
  }

  @Test(arguments: ["", " \n", String(repeating: "x", count: 129)])
  func aFileWithoutAnIDGetsANewOne(_ content: String) throws {
    let dir = try TemporaryDirectory()
    let file = URL(fileURLWithPath: try dir.write("install-id", content))
    let made = try #require(InstallID.stored(at: file))
    #expect(UUID(uuidString: made) != nil)
    #expect(InstallID.stored(at: file) == made)
  }

  @Test func aFileThatCanBeNeitherReadNorWrittenGivesNoID() throws {
    let dir = try TemporaryDirectory()
    // The folder it would live in is a file.
    let blocker = try dir.write("blocker", "not a folder")
    #expect(InstallID.stored(at: URL(fileURLWithPath: blocker).appendingPathComponent("install-id")) == nil)
  }

  /// An app and its extension launched together: whichever writes first, both read one id.
  @Test func processesRacingOnFirstUseAgreeOnOneID() throws {
    for _ in 0..<20 {
      let dir = try TemporaryDirectory()
      let file = dir.url.appendingPathComponent("install-id")
      let ids = Collected<String?>()
      DispatchQueue.concurrentPerform(iterations: 8) { _ in ids.append(InstallID.stored(at: file)) }
      #expect(ids.all.count == 8 && !ids.all.contains(nil))
      #expect(Set(ids.all).count == 1, "\(Set(ids.all))")
    }
  }
}
