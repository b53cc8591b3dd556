/// Appends each line, with `\n`, to a file it creates when missing: a `.jsonl` that
/// `pullparity ingest` reads as it is.
///
/// Every line is handed to the system with one `write(2)` on a descriptor opened with
/// `O_APPEND`, so nothing waits in a buffer when the app is killed and two processes appending
/// to one file cannot split each other's lines. A failure never throws into the app: the line
/// is lost, and `onError` hears about the outage once (see ``FileSinkError``); the next line
/// tries to open the file again. A line cut short by a failure (a full disk) is ended before
/// the next one, so that only the cut line is quarantined at ingest, not the good line glued
/// to it.
///
/// With a ``Rotation``, a line that would take the file past its bound goes to a new file and
/// the full one is renamed `events.00000001.jsonl`, … (the oldest beyond those kept deleted);
/// each line then costs an `fstat` and a `stat` besides its write. Two processes (or two sinks)
/// sharing the file rotate it once between them (see `LogRotator`); each notices before its
/// next line that the path names a new file and moves on to it. A line that one of them
/// appends in the moment between that check and the other's rename ends, whole, the newest
/// rotated file (deleted only `keptFiles` rotations later, like any): no line is split or
/// lost, though that file may pass the bound by a line.
///
/// Written lines survive the app being killed; ``sync()`` (`fsync`) also makes them survive
/// the system going down. It blocks for the disk (milliseconds on flash): call it off the main
/// thread, e.g. when the app moves to the background. `syncEveryLines` syncs on its own after
/// that many lines (and as it leaves a rotated file), on the thread that records the last of them.
public final class FileEventSink: EventSink {
  public let path: String
  private let rotator: LogRotator?
  private let syncEveryLines: Int?
  private let onError: (@Sendable (FileSinkError) -> Void)?
  private let state = Locked(State())

  private struct State {
    var file: AppendedFile?
    var endsInCutLine = false
    var linesSinceSync = 0
    var outages = FileSinkOutages()
    var reports: [FileSinkError] = []

    mutating func report(_ error: FileSinkError?) {
      if let error { reports.append(error) }
    }

    mutating func takeReports() -> [FileSinkError] {
      defer { reports = [] }
      return reports
    }
  }

  public init(
    path: String, rotation: Rotation? = nil, syncEveryLines: Int? = nil,
    onError: (@Sendable (FileSinkError) -> Void)? = nil
  ) {
    precondition(syncEveryLines.map { $0 > 0 } ?? true, "sync after at least one line")
    self.path = path
    rotator = rotation.map { LogRotator(path: path, rotation: $0) }
    self.syncEveryLines = syncEveryLines
    self.onError = onError
  }

  deinit {
    state.withLock { $0.file?.close() }
  }

  public func write(_ line: String) {
    let reports = state.withLock { state in
      var written = 0
      do throws(FileSinkError) {
        let file = try fileForLine(of: line.utf8.count + (state.endsInCutLine ? 2 : 1), &state)
        try file.append(Array(((state.endsInCutLine ? "\n" : "") + line + "\n").utf8), written: &written)
        state.endsInCutLine = false
        state.report(state.outages.succeeded(.write))
        state.linesSinceSync += 1
        if let syncEveryLines, state.linesSinceSync >= syncEveryLines { syncNow(&state) }
      } catch {
        state.file?.close()
        state.file = nil
        if written > 0 { state.endsInCutLine = true }
        state.report(state.outages.failed(error))
      }
      return state.takeReports()
    }
    for report in reports { onError?(report) }
  }

  /// Makes the lines written so far survive the system going down (`fsync`); a failure goes to
  /// `onError`, once until a sync succeeds.
  public func sync() {
    let reports = state.withLock { state in
      syncNow(&state)
      return state.takeReports()
    }
    for report in reports { onError?(report) }
  }

  private func syncNow(_ state: inout State) {
    state.linesSinceSync = 0
    guard let file = state.file else { return }
    do throws(FileSinkError) {
      try file.sync()
      state.report(state.outages.succeeded(.sync))
    } catch {
      state.report(state.outages.failed(error))
    }
  }

  /// The file the next line of `count` bytes goes to: the open one, unless the path names
  /// another file now or rotation moves it on. A rotation that fails leaves the line to the
  /// full file.
  private func fileForLine(of count: Int, _ state: inout State) throws(FileSinkError) -> AppendedFile {
    var file = try openFile(&state)
    guard let rotator else { return file }
    var status = file.status()
    if !status.isAtPath {
      leaveFile(&state)
      file = try openFile(&state)
      status = file.status()
    }
    do throws(FileSinkError) {
      guard try rotator.rotateIfFull(file, size: status.size, adding: count) else { return file }
      state.report(state.outages.succeeded(.rotate))
    } catch {
      state.report(state.outages.failed(error))
      guard !file.status().isAtPath else { return file }
    }
    leaveFile(&state)
    return try openFile(&state)
  }

  private func openFile(_ state: inout State) throws(FileSinkError) -> AppendedFile {
    if let file = state.file { return file }
    let file = try AppendedFile(appendingTo: path)
    state.file = file
    return file
  }

  /// Closes a file the path no longer names, synced first if the sink syncs on its own. A line
  /// it ends in was cut in that file: the next file needs no line end before its first line.
  private func leaveFile(_ state: inout State) {
    if syncEveryLines != nil, state.linesSinceSync > 0 { syncNow(&state) }
    state.file?.close()
    state.file = nil
    state.endsInCutLine = false
  }
}
