/// Where the recorder delivers its JSON lines (without the line end).
///
/// The recorder calls `write` under its lock, so lines reach a sink in the order their `seq`s
/// were given; a sink must therefore be quick and must not call back into the recorder.
/// A sink never throws into the app: failures go to the sink's own error handler.
public protocol EventSink: Sendable {
  func write(_ line: String)
}
