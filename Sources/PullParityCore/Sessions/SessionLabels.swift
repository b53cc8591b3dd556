/// What describes a session rather than its refresh: each field the first value its events carry
/// in log order (a client may leave them off later events), and whether any event reported an
/// empty screen.
struct SessionLabels: Sendable {
  var appVersion: String?
  var osVersion: String?
  var device: String?
  var screen: String?
  var installID: String?
  var empty = false

  mutating func note(_ event: Event) {
    if appVersion == nil { appVersion = event.appVersion }
    if osVersion == nil { osVersion = event.osVersion }
    if device == nil { device = event.device }
    if screen == nil { screen = event.screen }
    if installID == nil { installID = event.installID }
    if event.empty == true { empty = true }
  }
}
