import Foundation
internal import PullParityCore
internal import PullParityStore

/// The reading side of an ingest: reads every input line by line, hashes and copies each
/// chunk's lines, then parses them and derives the chunk's sessions unless the database already
/// has the chunk, and hands the chunk to the writer. Runs on its own thread, so all of that
/// overlaps with writing.
struct ChunkProducer: Sendable {
  let inputs: [InputFile]
  let chunkLines: Int
  let profiles: ProfileCatalog
  let maxLineBytes: Int
  let clock: PipelineClock
  /// The chunks committed so far, read on this thread's own connection; nil: parse every chunk.
  let knownChunks: KnownChunks?

  func run(into channel: ChunkChannel) {
    var decoder = LineDecoder()
    let sourceNames = inputs.map(\.name)
    var reading = ChunkReading(expectedLines: chunkLines)
    var bytesBeforeInput = 0
    var parseStarted = clock.elapsed()
    // Twice a chunk's events: a session of the chunk just read has its earlier events too.
    var carried = CarriedEvents(limit: 2 * chunkLines)

    func handOver(position: String, bytesRead: Int) -> Bool {
      var (input, unparsed) = reading.finish(sourceNames: sourceNames)
      input.lastPosition = position
      input.bytesRead = bytesRead
      let chunk: IngestChunk
      if let fingerprint = input.fingerprint, knownChunks?.contains(fingerprint) == true {
        input.readAndParseSeconds = clock.seconds(since: parseStarted)
        chunk = .known(input, unparsed)
        // Its events are not read: what was carried no longer holds all of a session's.
        carried = CarriedEvents(limit: carried.limit)
      } else {
        var builder = ChunkBuilder(
          profiles: profiles, sourceNames: sourceNames, expectedLines: unparsed.lines.count,
          maxLineBytes: maxLineBytes, carried: carried)
        // The builder's copy is then the only one: it takes sessions out of it in place, where a
        // shared copy was copied whole, and each session's events with it.
        carried = CarriedEvents(limit: carried.limit)
        unparsed.parse(into: &builder, decoder: &decoder)
        input.readAndParseSeconds = clock.seconds(since: parseStarted)
        let (parsed, next) = builder.finish()
        chunk = .parsed(input, parsed)
        carried = next
      }
      parseStarted = clock.elapsed()
      return channel.put(.chunk(chunk))
    }

    do {
      for (index, input) in inputs.enumerated() {
        let source = try Ingestor.open(input)
        let reader = LineReader(source: source, name: input.name, maxLineBytes: maxLineBytes)
        do {
          try reader.forEachLine { line in
            reading.add(line, sourceIndex: index)
            if reading.linesRead >= chunkLines {
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
      if reading.linesRead > 0 {
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

/// A chunk being read: its lines copied and counted, and its fingerprint.
struct ChunkReading {
  private var firstLine: (sourceIndex: Int, number: Int)?
  private var contentHash = ChunkContentHash()
  private var byteCount = 0
  private(set) var linesRead = 0
  private var blankLines = 0
  private var lines: UnparsedLines
  private let expectedLines: Int

  init(expectedLines: Int) {
    self.expectedLines = expectedLines
    lines = UnparsedLines(expectedLines: expectedLines)
  }

  /// Counts a line, folds its bytes into the fingerprint and copies it (unless blank).
  mutating func add(_ line: InputLine, sourceIndex: Int) {
    if firstLine == nil { firstLine = (sourceIndex, line.number) }
    contentHash.add(line.bytes)
    // A line over the limit is known by its first bytes and its length.
    byteCount += line.length + 1
    linesRead += 1
    if line.isBlank {
      blankLines += 1
    } else {
      lines.append(line, sourceIndex: sourceIndex)
    }
  }

  /// The chunk read so far, with its fingerprint; starts a new one.
  mutating func finish(sourceNames: [String]) -> (ChunkInput, UnparsedLines) {
    var input = ChunkInput(linesRead: linesRead, blankLines: blankLines)
    if let firstLine {
      input.fingerprint = ChunkFingerprint(
        source: sourceNames[firstLine.sourceIndex], firstLine: firstLine.number, lineCount: linesRead,
        byteCount: byteCount, contentHash: contentHash.value, rulesVersion: EventDecoder.rulesVersion)
    }
    lines.endWithPadding()
    let full = lines
    self = ChunkReading(expectedLines: expectedLines)
    return (input, full)
  }
}
