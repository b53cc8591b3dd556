import Foundation
internal import PullParityIngest

/// The JSON-lines files of one table of a distributed run (`DIR/json/TABLE/part-*.json`, as
/// Spark writes them), read in name order, one decoded row per line.
struct TableFiles {
  let directory: String
  let table: String

  var path: String { directory + "/json/" + table }

  /// The part files; Spark's `_SUCCESS` and `.crc` files are left out.
  func files() throws -> [String] {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
      throw IngestError.cannotOpen(
        path: path, reason: "no such directory: is \(directory) the output of a distributed run?")
    }
    return try FileManager.default.contentsOfDirectory(atPath: path)
      .filter { !$0.hasPrefix(".") && !$0.hasPrefix("_") && $0.hasSuffix(".json") }
      .sorted().map { path + "/" + $0 }
  }

  /// Calls `body` with each row and where it is; a row that does not decode, or that `body`
  /// finds a `TableRowProblem` with, is reported with its part file and line.
  func forEachRow<Row: Decodable>(_ type: Row.Type, _ body: (Row, PipeLocation) throws -> Void) throws {
    try forEachRow(type, scanning: { _ in nil }, body)
  }

  /// The same, a row read by `FlatRowDecoder` when it takes the line, else by `JSONDecoder`.
  func forEachRow<Row: PlainDecodableRow>(_ type: Row.Type, _ body: (Row, PipeLocation) throws -> Void) throws {
    try forEachRow(type, scanning: { FlatRowDecoder.decode(Row.self, from: $0) }, body)
  }

  private func forEachRow<Row: Decodable>(
    _ type: Row.Type, scanning: (UnsafeRawBufferPointer) -> Row?, _ body: (Row, PipeLocation) throws -> Void
  ) throws {
    let decoder = JSONDecoder()
    for file in try files() {
      let reader = LineReader(
        source: try FileByteSource(path: file), name: file, maxLineBytes: IngestOptions.largestMaxLineBytes)
      try reader.forEachLine { line in
        if line.isBlank { return }
        let location = PipeLocation(input: file, line: line.number)
        do {
          try body(try scanning(line.bytes) ?? decoder.decode(Row.self, from: Data(line.bytes)), location)
        } catch let error as DecodingError {
          throw location.error("not a row of `\(table)`: \(Self.describe(error))")
        } catch let problem as TableRowProblem {
          throw location.error(problem.message)
        }
      }
    }
  }

  func forEachRow<Row: Decodable>(_ type: Row.Type, _ body: (Row) throws -> Void) throws {
    try forEachRow(type) { row, _ in try body(row) }
  }

  func forEachRow<Row: PlainDecodableRow>(_ type: Row.Type, _ body: (Row) throws -> Void) throws {
    try forEachRow(type) { row, _ in try body(row) }
  }

  static func describe(_ error: DecodingError) -> String {
    switch error {
    case .keyNotFound(let key, _): "missing column `\(key.stringValue)`"
    case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
      "`\(context.codingPath.map(\.stringValue).joined(separator: "."))`: \(context.debugDescription)"
    @unknown default: "\(error)"
    }
  }
}
