// libFuzzer entry point over the line decoder: every input is split into lines as the reader
// splits them, and each line goes through both parsers of the seam (simdjson parsing in place
// with padding and from a copy, and Foundation); any disagreement aborts with both results.
// Built and run by scripts/fuzz.sh, not by SwiftPM.

import PullParityIngest

#if canImport(Glibc)
  import Glibc
#endif

nonisolated(unsafe) private var simdjson = LineDecoder(.simdjson)
nonisolated(unsafe) private var foundation = LineDecoder(.foundation)
nonisolated(unsafe) private var padded = UnsafeMutableRawPointer.allocate(byteCount: 1 << 20, alignment: 64)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let input = UnsafeRawBufferPointer(start: data, count: size)
  var start = 0
  while start <= size {
    var end = input[start...].firstIndex(of: UInt8(ascii: "\n")) ?? size
    let next = end + 1
    if end > start, input[end - 1] == UInt8(ascii: "\r") { end -= 1 }
    check(UnsafeRawBufferPointer(rebasing: input[start..<end]))
    start = next
  }
  return 0
}

private func check(_ line: UnsafeRawBufferPointer) {
  let copied = simdjson.decode(line, readableCount: line.count)
  let reference = foundation.decode(line, readableCount: line.count)
  var inPlace = copied
  if line.count + 64 <= 1 << 20 {
    if let base = line.baseAddress { padded.copyMemory(from: base, byteCount: line.count) }
    inPlace = simdjson.decode(
      UnsafeRawBufferPointer(start: padded, count: line.count), readableCount: line.count + 64)
  }
  guard copied == reference, inPlace == copied else {
    let text = line.map { $0 >= 0x20 && $0 < 0x7F ? String(UnicodeScalar($0)) : "\\x" + String($0, radix: 16) }
    print("parsers disagree on: \(text.joined())")
    print("  simdjson (copy):     \(copied)")
    print("  simdjson (in place): \(inPlace)")
    print("  foundation:          \(reference)")
    abort()
  }
}
