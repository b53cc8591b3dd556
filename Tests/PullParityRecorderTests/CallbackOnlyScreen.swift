import PullParityCore
import PullParityRecorder

/// A screen whose pull-to-refresh belongs to a library that handles the touches and draws the
/// spinner itself, and only calls the app's `onRefresh` (SwiftUI's `.refreshable` without the
/// scroll geometry, a third-party refresh header): the app never sees the gesture. What it
/// records is docs/instrumenting.md's recipe, "Libraries that only give onRefresh".
struct CallbackOnlyScreen {
  let recorder: PullParityRecorder
  let clock: ManualClock

  var behaviour: PullToRefreshBehaviour { recorder.behaviour }

  /// The app's `onRefresh`, called by the library once a pull armed and released; `load` is the
  /// app's data request and says whether it succeeded.
  func onRefresh(load: () async -> Bool) async throws {
    recorder.refreshStart(gestureObserved: false)
    recorder.indicatorShown(IndicatorConfig(kind: .native))
    try await hold(atLeast: behaviour.minimumHold, clock: clock) {
      recorder.fetchStart()
      let ok = await load()
      recorder.loadComplete(ok: ok)
    }
    recorder.indicatorHidden()
  }
}
