import Foundation
public import PullParityStore
import PullParityCore

/// Reads inputs line by line, parses them, and commits them batch by batch.
///
/// Memory is bounded by the batch, never by the input: lines stream through a chunked reader,
/// and each batch is written and dropped before the next is built.
public struct Ingestor {
  public var database: PullParityDatabase
  public var options: IngestOptions

  public init(database: PullParityDatabase, options: IngestOptions) {
    self.database = database
    self.options = options
  }

  /// Ingests `inputs` (already expanded by `InputCatalog`).
  ///
  /// - Parameters:
  ///   - shouldStop: asked after every committed batch; `true` ends the run cleanly there.
  ///   - progress: called after every committed batch.
  public func run(
    _ inputs: [InputFile], shouldStop: () -> Bool = { false },
    progress: (IngestProgress) -> Void = { _ in }
  ) throws -> IngestSummary {
    let started = ContinuousClock.now
    let names = inputs.map(\.name)
    let profileVersions = Dictionary(
      uniqueKeysWithValues: options.profiles.sortedByName.map { ($0.name, $0.version) })
    let runID = try IngestLedger.begin(
      database, sources: names, toolVersion: options.toolVersion, profileVersions: profileVersions,
      parser: options.parser.rawValue)
    var committer = BatchCommitter(
      database: database, profiles: options.profiles, runID: runID, sourceNames: names,
      storedLineDecoder: LineDecoder(options.parser))
    var decoder = LineDecoder(options.parser)
    var totals = RunCounts()
    var batch = IngestBatch(expectedLines: options.batchLines)
    let totalBytes = Self.totalBytes(inputs)
    var bytesBeforeFile = 0
    var stoppedAt: String?

    func elapsed() -> Double {
      let duration = ContinuousClock.now - started
      return Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    func commitBatch(bytesRead: Int) throws {
      totals += try committer.commit(batch, totalsBefore: totals)
      batch = IngestBatch(expectedLines: options.batchLines)
      progress(
        IngestProgress(
          linesRead: totals.linesRead, eventsStored: totals.eventsStored, bytesRead: bytesRead,
          totalBytes: totalBytes, elapsedSeconds: elapsed()))
    }

    do {
      reading: for (index, input) in inputs.enumerated() {
        let source = try Self.open(input)
        let reader = LineReader(source: source)
        do {
          try reader.forEachLine { line in
            batch.linesRead += 1
            switch decoder.decode(line.bytes, readableCount: line.readableCount) {
            case .blank: batch.blankLines += 1
            case .event(let event): batch.append(.event(event), sourceIndex: index, line: line)
            case .rejected(let rejection): batch.append(.rejected(rejection), sourceIndex: index, line: line)
            }
            if batch.linesRead >= options.batchLines {
              try commitBatch(bytesRead: bytesBeforeFile + source.position)
              if shouldStop() { throw StopRequest(at: "\(input.name):\(line.number)") }
            }
          }
        } catch let stop as StopRequest {
          stoppedAt = stop.at
          break reading
        }
        bytesBeforeFile += source.position
      }
      if stoppedAt == nil, batch.linesRead > 0 { try commitBatch(bytesRead: bytesBeforeFile) }
    } catch {
      try? IngestLedger.finish(
        database, runID: runID, status: .failed, totals: totals, durationMs: elapsed() * 1000)
      throw error
    }

    let status: RunStatus = stoppedAt == nil ? .completed : .interrupted
    let duration = elapsed()
    try IngestLedger.finish(database, runID: runID, status: status, totals: totals, durationMs: duration * 1000)
    return IngestSummary(
      runID: runID, sources: names, counts: totals, status: status, durationSeconds: duration,
      stoppedAt: stoppedAt)
  }

  private struct StopRequest: Error {
    var at: String
  }

  static func open(_ input: InputFile) throws -> any ByteSource {
    // zlib reads plain data through unchanged, so standard input may be gzip or not.
    if input.isStandardInput { return try GzipByteSource(descriptor: 0, name: "-") }
    return input.isGzip ? try GzipByteSource(path: input.name) : try FileByteSource(path: input.name)
  }

  private static func totalBytes(_ inputs: [InputFile]) -> Int? {
    var total = 0
    for input in inputs {
      guard !input.isStandardInput,
        let size = try? FileManager.default.attributesOfItem(atPath: input.name)[.size] as? Int
      else { return nil }
      total += size
    }
    return total
  }
}
