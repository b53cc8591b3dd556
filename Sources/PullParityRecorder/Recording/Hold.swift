/// Runs `work` and returns no earlier than `minimum` after it started (the Padel spec: "minimum
/// 1200ms visible refreshing state, even if network is faster"), measured on `clock`.
///
///     try await hold(atLeast: behaviour.minimumHold) { try await load() }
///
/// A failed load is held too, so an error does not flash the indicator either; its error is
/// rethrown once the minimum has passed. Cancellation is not held: the refresh is being
/// abandoned, so the clock's sleep throws `CancellationError` at once.
public func hold<Value, C: Clock>(
  atLeast minimum: C.Duration,
  clock: C,
  isolation: isolated (any Actor)? = #isolation,
  _ work: () async throws -> Value
) async throws -> Value {
  let deadline = clock.now.advanced(by: minimum)
  let outcome: Result<Value, any Error>
  do {
    outcome = .success(try await work())
  } catch {
    outcome = .failure(error)
  }
  if clock.now < deadline { try await clock.sleep(until: deadline, tolerance: nil) }
  return try outcome.get()
}

/// ``hold(atLeast:clock:isolation:_:)`` on the continuous clock, which keeps counting while the
/// device sleeps, as the user's wait does.
public func hold<Value>(
  atLeast minimum: Duration,
  isolation: isolated (any Actor)? = #isolation,
  _ work: () async throws -> Value
) async throws -> Value {
  try await hold(atLeast: minimum, clock: ContinuousClock(), isolation: isolation, work)
}
