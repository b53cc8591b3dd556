/// `--alert-webhook URL`: where a change of an app's platform verdict is posted after an ingest.
package struct AlertSettings: Sendable {
  /// The webhook (Slack's incoming webhooks and their peers take the body as it is).
  package var webhook: String
  /// The sessions judged: those started this long before the newest one (`GateWindow`).
  package var windowSeconds: Double
  /// Put in each message as given (a dashboard, a report page).
  package var link: String?

  package static let defaultWindowSeconds = 86_400.0

  package init(webhook: String, windowSeconds: Double = defaultWindowSeconds, link: String? = nil) {
    (self.webhook, self.windowSeconds, self.link) = (webhook, windowSeconds, link)
  }
}
