import Foundation
internal import PullParityCore
internal import PullParityStore

/// The reading side of an ingest: reads every input line by line, parses each line, derives
/// the batch's sessions and hands full batches to the writer. Runs on its own thread, so all
/// of that overlaps with writing.
struct BatchProducer: Sendable {
  let inputs: [InputFile]
  let batchLines: Int
  let parser: ParserKind
  let profiles: ProfileCatalog
  let maxLineBytes: Int
  let clock: PipelineClock

  func run(into channel: BatchChannel) {
    var decoder = LineDecoder(parser)
    var builder = BatchBuilder(
      profiles: profiles, sourceNames: inputs.map(\.name), expectedLines: batchLines, maxLineBytes: maxLineBytes)
    var bytesBeforeInput = 0
    var parseStarted = clock.elapsed()

    func handOver(position: String, bytesRead: Int) -> Bool {
      var batch = builder.finish()
      batch.lastPosition = position
      batch.bytesRead = bytesRead
      batch.readAndParseSeconds = clock.seconds(since: parseStarted)
      defer {
        parseStarted = clock.elapsed()
        // While the writer keeps finding chunks it has seen, only hash the next one; while it
        // finds duplicates, parse but do not derive.
        builder.parsesLines = !channel.expectKnownChunks
        builder.derivesSessions = builder.parsesLines && !channel.expectDuplicates
      }
      return channel.put(.batch(batch))
    }

    do {
      for (index, input) in inputs.enumerated() {
        let source = try Ingestor.open(input)
        let reader = LineReader(source: source, name: input.name, maxLineBytes: maxLineBytes)
        do {
          try reader.forEachLine { line in
            builder.countLine(line, sourceIndex: index)
            if !builder.parsesLines {
              if !line.isBlank { builder.keepUnparsed(line, sourceIndex: index) }
            } else {
              builder.take(line, sourceIndex: index, decoder: &decoder)
            }
            if builder.lineCount >= batchLines {
              guard handOver(position: "\(input.name):\(line.number)", bytesRead: bytesBeforeInput + source.position)
              else { throw Cancelled() }
            }
          }
        } catch let error as IngestError where error.endsOnlyItsInput {
          // The lines read before are kept; the other inputs are still read.
          guard channel.put(.inputFailed(error)) else { throw Cancelled() }
        }
        bytesBeforeInput += source.position
      }
      if builder.lineCount > 0 {
        _ = handOver(position: "\(inputs.last?.name ?? "-"):end", bytesRead: bytesBeforeInput)
      }
    } catch is Cancelled {
      // The writer stopped taking batches; nothing more to do.
    } catch {
      channel.put(.failure(error))
    }
    channel.finish()
  }

  private struct Cancelled: Error {}
}
