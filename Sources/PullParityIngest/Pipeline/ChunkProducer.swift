import Foundation
internal import PullParityCore
internal import PullParityStore

/// The reading side of an ingest: reads every input line by line, parses each line, derives
/// the chunk's sessions and hands full chunks to the writer. Runs on its own thread, so all
/// of that overlaps with writing.
struct ChunkProducer: Sendable {
  let inputs: [InputFile]
  let chunkLines: Int
  let profiles: ProfileCatalog
  let maxLineBytes: Int
  let clock: PipelineClock

  func run(into channel: ChunkChannel) {
    var decoder = LineDecoder()
    var builder = ChunkBuilder(
      profiles: profiles, sourceNames: inputs.map(\.name), expectedLines: chunkLines, maxLineBytes: maxLineBytes)
    var bytesBeforeInput = 0
    var parseStarted = clock.elapsed()

    func handOver(position: String, bytesRead: Int) -> Bool {
      var chunk = builder.finish()
      chunk.lastPosition = position
      chunk.bytesRead = bytesRead
      chunk.readAndParseSeconds = clock.seconds(since: parseStarted)
      defer {
        parseStarted = clock.elapsed()
        // While the writer keeps finding chunks it has seen, only hash the next one; while it
        // finds duplicates, parse but do not derive.
        builder.parsesLines = !channel.expectKnownChunks
        builder.derivesSessions = builder.parsesLines && !channel.expectDuplicates
      }
      return channel.put(.chunk(chunk))
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
            if builder.lineCount >= chunkLines {
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
      // The writer stopped taking chunks; nothing more to do.
    } catch {
      channel.put(.failure(error))
    }
    channel.finish()
  }

  private struct Cancelled: Error {}
}
