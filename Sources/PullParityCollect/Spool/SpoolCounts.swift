/// What a spool did since it was opened. Bodies per sync tells how well concurrent bodies share
/// one fdatasync.
package struct SpoolCounts: Sendable, Equatable {
  package var bodies = 0
  package var bytes = 0
  package var syncs = 0
  package var filesClosed = 0
  /// Why the last body could not be kept, until a body is kept again (`/health` says it).
  package var writeFailure: String?
}
