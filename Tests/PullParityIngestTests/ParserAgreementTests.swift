import Foundation
import PullParityTestSupport
import Testing

@testable import PullParityIngest

/// The fast parser may only differ from the plain one in speed: on every line of the sample
/// logs, bad lines included, both give the same event or the same rejection.
@Suite struct ParserAgreementTests {
  static let files = [
    "bad-lines.jsonl", "ffci-ios.jsonl.gz", "padel-ios-1.jsonl", "padel-ios-2.jsonl", "padel-pwa.jsonl",
    "phlock-ios.jsonl",
  ]

  @Test(arguments: files)
  func bothParsersAgreeOnEveryLine(file: String) throws {
    let input = InputFile(
      name: RepositoryPaths.sampleEvents.appendingPathComponent(file).path, isGzip: file.hasSuffix(".gz"))
    let reader = LineReader(source: try Ingestor.open(input), name: input.name)
    var fast = LineDecoder(.simdjson)
    var plain = LineDecoder(.foundation)
    var lines = 0
    var rejected = 0
    try reader.forEachLine { line in
      lines += 1
      let a = fast.decode(line.bytes, readableCount: line.readableCount)
      let b = plain.decode(line.bytes, readableCount: line.bytes.count)
      #expect(a == b, "\(file):\(line.number)")
      if case .rejected = a { rejected += 1 }
    }
    #expect(lines > 50)
    if file == "bad-lines.jsonl" { #expect(rejected == 17) }
  }

  /// simdjson's result read in place (`decodeEvent`, what ingest uses) gives what its fields
  /// copied out and decoded (`extractFields`, then `EventDecoder`) give, on every line.
  @Test(arguments: files)
  func inPlaceDecodingAgreesWithCopiedFields(file: String) throws {
    let input = InputFile(
      name: RepositoryPaths.sampleEvents.appendingPathComponent(file).path, isGzip: file.hasSuffix(".gz"))
    let reader = LineReader(source: try Ingestor.open(input), name: input.name)
    var parser = SimdjsonLineParser()
    var events = 0
    try reader.forEachLine { line in
      guard !line.bytes.isEmpty else { return }
      let inPlace = parser.decodeEvent(line.bytes, readableCount: line.readableCount)
      let copied = parser.extractFields(line.bytes, readableCount: line.readableCount)
        .flatMap { EventDecoder.decode($0) }
      #expect(inPlace == copied, "\(file):\(line.number)")
      if case .success = inPlace { events += 1 }
    }
    #expect(events > 50)
  }
}
