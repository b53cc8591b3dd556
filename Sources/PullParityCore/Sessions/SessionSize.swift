/// How big a session may be before it is suspect. No pull-to-refresh gesture has more than a
/// few hundred events; a session of more than `suspectEventCount` is almost always a client
/// sending one constant session id (`"undefined"`, `"null"`), which merges thousands of
/// gestures into one. Such a session is still derived and counted; reports flag it.
package enum SessionSize {
  package static let suspectEventCount = 100_000
}
