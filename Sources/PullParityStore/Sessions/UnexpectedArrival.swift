/// What arrived in which state, for the `unexpected_event` rule's breakdown: `refresh_start
/// while refreshing` 12 times on one app's PWA tells a team which wiring to look at.
package struct UnexpectedArrival: Equatable, Sendable, Encodable {
  package var app: String
  package var platform: String
  /// The finding's `actual`: `<type> while <state>`.
  package var arrival: String
  package var count: Int

  package init(app: String, platform: String, arrival: String, count: Int) {
    self.app = app
    self.platform = platform
    self.arrival = arrival
    self.count = count
  }
}
