import PullParityCore
import PullParityRecorder

/// A pull-to-refresh screen driven by a script instead of a finger: what an app's gesture code
/// does with the recorder and its behaviour constants, without UIKit. Time is the manual clock's.
struct ScriptedScreen {
  let recorder: PullParityRecorder
  let clock: ManualClock
  /// Label text the script shows instead of the profile's copy (a planted typo).
  var labelOverrides: [LabelState: String] = [:]
  /// Arms on the finger's travel, forgetting the resistance (a planted defect).
  var armsOnRawDistance = false

  var behaviour: PullToRefreshBehaviour { recorder.behaviour }

  /// Drags through `distances`, one sample every `interval`, then lifts the finger. The client
  /// arms where the behaviour says, shows its labels and reveals bars; returns whether the
  /// release refreshes.
  @discardableResult
  func pull(through distances: [Double], every interval: Duration) -> Bool {
    recorder.pullStart()
    showLabel(.pulling)
    var armed = false
    var barsShown = 0
    for distance in distances {
      clock.advance(by: interval)
      recorder.pullMove(distance: distance, offset: behaviour.indicatorOffset(forPull: distance))
      if let progress = behaviour.revealProgress(forPull: distance),
        let bars = behaviour.barsRevealed(atProgress: progress), bars != barsShown
      {
        barsShown = bars
        recorder.reveal(progress: progress, visible: bars)
      }
      let arms = armsOnRawDistance ? distance >= behaviour.armThreshold ?? .infinity : behaviour.arms(atPull: distance)
      guard arms != armed else { continue }
      armed = arms
      if arms { recorder.armed(distance: distance) } else { recorder.disarmed(distance: distance) }
      showLabel(arms ? .ready : .pulling)
    }
    recorder.release(distance: distances.last ?? 0)
    return armed
  }

  /// Refreshes: shows the indicator, loads for `load`, and hides it, held for the behaviour's
  /// minimum unless `holding` is false (the defect `hold(atLeast:)` exists to prevent).
  func refresh(
    trigger: RefreshTrigger = .pull, load: Duration, ok: Bool = true, holding: Bool = true
  ) async throws {
    recorder.refreshStart(trigger: trigger)
    recorder.indicatorShown(behaviour.indicator)
    showLabel(.refreshing)
    recorder.fetchStart()
    let work = {
      try await clock.sleep(for: load)
      recorder.loadComplete(ok: ok, error: ok ? nil : "offline")
    }
    if holding {
      try await hold(atLeast: behaviour.minimumHold, clock: clock) { try await work() }
    } else {
      try await work()
    }
    recorder.indicatorHidden()
  }

  private func showLabel(_ state: LabelState) {
    guard let text = labelOverrides[state] ?? behaviour.label(for: state) else { return }
    recorder.label(text, state: state)
  }
}
