import ServiceLifecycle

/// A started collector: the port it listens on (useful when started on port 0) and how to stop it.
package struct RunningCollector: Sendable {
  package let port: Int
  package let spool: Spool
  let group: ServiceGroup
  let task: Task<Void, any Error>

  /// Stops accepting, lets requests in flight finish, closes the spool file, and returns.
  package func stop() async throws {
    await group.triggerGracefulShutdown()
    try await wait()
  }

  /// Returns once the collector has stopped (a signal, or `stop()`).
  package func wait() async throws {
    try await task.value
  }
}
