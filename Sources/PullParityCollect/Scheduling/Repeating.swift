import ServiceLifecycle

/// Runs `work` every `seconds` until the service group shuts down gracefully.
func repeating(every seconds: Double, _ work: () async -> Void) async {
  while !Task.isShuttingDownGracefully {
    // The sleep ends early at shutdown; the work in progress does not.
    let slept: Void? = try? await cancelWhenGracefulShutdown { try await Task.sleep(for: .seconds(seconds)) }
    guard slept != nil, !Task.isShuttingDownGracefully else { return }
    await work()
  }
}
