import PullParityRecorder
import Testing

/// `hold(atLeast:)` on virtual time: the clock only moves when the load or the hold sleeps.
@Suite struct HoldTests {
  struct LoadFailed: Error, Equatable {}

  /// (load ms, when the hold returns in ms after it started)
  @Test(arguments: [(200.0, 1200.0), (0, 1200), (1199.5, 1200), (1200, 1200), (1500, 1500), (3000, 3000)])
  func returnsNoEarlierThanTheMinimumAndNoLaterThanTheLoad(load: Double, returnsAt: Double) async throws {
    let clock = ManualClock()
    let value = try await hold(atLeast: .milliseconds(1200), clock: clock) {
      try await clock.sleep(for: .milliseconds(load))
      return "loaded at \(clock.elapsedMs)"
    }
    #expect(value == "loaded at \(load)")
    #expect(clock.elapsedMs == returnsAt)
  }

  @Test func aFailedLoadIsHeldTooThenRethrown() async throws {
    let clock = ManualClock()
    await #expect(throws: LoadFailed()) {
      try await hold(atLeast: .milliseconds(1300), clock: clock) {
        try await clock.sleep(for: .milliseconds(100))
        throw LoadFailed()
      }
    }
    #expect(clock.elapsedMs == 1300)
  }

  @Test func aCancelledRefreshIsNotHeld() async throws {
    let clock = ManualClock()
    let task = Task {
      try await hold(atLeast: .milliseconds(1200), clock: clock) {
        withUnsafeCurrentTask { $0?.cancel() }
        return 1
      }
    }
    await #expect(throws: CancellationError.self) { try await task.value }
    #expect(clock.elapsedMs == 0)
  }

  @Test func theBehavioursMinimumIsTheProfiles() {
    let recorder = PullParityRecorder(app: "phlock", sink: ClosureEventSink { _ in })
    #expect(recorder.behaviour.minimumHold == .milliseconds(1300))
    #expect(PullToRefreshBehaviour(profileNamed: "padel").minimumHold == .milliseconds(1200))
  }
}
