/// What the collector's routes, connection handlers and scheduler share: the spool, and what
/// `/health` and `/metrics` read of the rest.
struct CollectorParts: Sendable {
  let spool: Spool
  let health: CollectorHealth
  let buffered: BufferedBytes
  let connections: ConnectionCap
}
