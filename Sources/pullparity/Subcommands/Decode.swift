import ArgumentParser
import PullParityIngest

extension PullParity {
  struct Decode: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Decode raw log lines into events or rejections, as tab-separated lines (no database).",
      discussion: """
        Reads `source<TAB>offset<TAB>line<TAB>raw line` from standard input (line may be empty) and writes one line of 15 tab-separated fields per input line: the event's keys, the rejection with its reason, or a blank, each with its origin and the raw line (text that could split a line or act on a terminal as `~` and base64, bytes that are not UTF-8 in hex). The rules are ingest's. For distributed runs (spark/pullparity_spark.py); the formats are in docs/distributed-formats.md.

        Example:
          printf 'a.jsonl\\t0\\t1\\t{"event_id":"e1"}\\n' | pullparity decode
        """)

    func run() throws {
      try DecodeFrontend().run()
    }
  }
}
