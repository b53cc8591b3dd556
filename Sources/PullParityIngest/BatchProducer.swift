import Foundation
import PullParityStore

/// The reading side of an ingest: reads every input line by line, parses each line and hands
/// full batches to the writer. Runs on its own thread, so parsing overlaps with writing.
struct BatchProducer: Sendable {
  let inputs: [InputFile]
  let batchLines: Int
  let parser: ParserKind

  func run(into channel: BatchChannel) {
    var decoder = LineDecoder(parser)
    var batch = IngestBatch(expectedLines: batchLines)
    var bytesBeforeInput = 0
    var parseStarted = ContinuousClock.now
    do {
      for (index, input) in inputs.enumerated() {
        let source = try Ingestor.open(input)
        let reader = LineReader(source: source)
        try reader.forEachLine { line in
          batch.linesRead += 1
          switch decoder.decode(line.bytes, readableCount: line.readableCount) {
          case .blank: batch.blankLines += 1
          case .event(let event): batch.append(.event(event), sourceIndex: index, line: line)
          case .rejected(let rejection): batch.append(.rejected(rejection), sourceIndex: index, line: line)
          }
          if batch.linesRead >= batchLines {
            batch.lastPosition = "\(input.name):\(line.number)"
            batch.bytesRead = bytesBeforeInput + source.position
            batch.readAndParseSeconds = Self.seconds(since: parseStarted)
            guard channel.put(.batch(batch)) else { throw Cancelled() }
            batch = IngestBatch(expectedLines: batchLines)
            parseStarted = ContinuousClock.now
          }
        }
        bytesBeforeInput += source.position
        batch.lastPosition = "\(input.name):end"
      }
      if batch.linesRead > 0 {
        batch.bytesRead = bytesBeforeInput
        batch.readAndParseSeconds = Self.seconds(since: parseStarted)
        channel.put(.batch(batch))
      }
    } catch is Cancelled {
      // The writer stopped taking batches; nothing more to do.
    } catch {
      channel.put(.failure(error))
    }
    channel.finish()
  }

  private struct Cancelled: Error {}

  static func seconds(since start: ContinuousClock.Instant) -> Double {
    let d = ContinuousClock.now - start
    return Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
  }
}
