/// An event id's key (`EventKey.of`) and whether it was made from the id's time (a UUIDv7) or
/// its hash (then it is placed through `KeyEpochs`). Ingest reads the id once, on its reading
/// thread, for both: the writer thread, which every event waits on, then reads no id text.
package struct IDKey: Equatable, Sendable {
  package var value: Int64
  package var isTimeOrdered: Bool

  package init(value: Int64, isTimeOrdered: Bool) {
    self.value = value
    self.isTimeOrdered = isTimeOrdered
  }
}
