import ServiceLifecycle

/// Runs `work` every `seconds` until the service group shuts down gracefully: a period, not a
/// sleep after each round, so `--ingest-every 2` means a round every 2 s however long each takes
/// (a sleep after each ran rounds every 4–5 s under load). A round longer than the period is
/// followed at once by the next; the rounds it overran are skipped, not run back to back.
func repeating(every seconds: Double, _ work: () async -> Void) async {
  let clock = ContinuousClock()
  let period = Duration.seconds(seconds)
  var next = clock.now.advanced(by: period)
  while !Task.isShuttingDownGracefully {
    // The sleep ends early at shutdown; the work in progress does not.
    let deadline = next
    let slept: Void? = try? await cancelWhenGracefulShutdown { try await clock.sleep(until: deadline) }
    guard slept != nil, !Task.isShuttingDownGracefully else { return }
    await work()
    next = next.advanced(by: period)
    if next < clock.now { next = clock.now }
  }
}
