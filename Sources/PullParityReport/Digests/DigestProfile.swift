package import PullParityCore

/// What of a session's profile a digest counts with, worked out once per profile rather than
/// once per session.
package struct DigestProfile: Sendable {
  package var cacheScreens: Set<String>
  package var minHoldMs: Double
  /// The profile has label copy: a session of it with no label measure logged no label.
  package var hasLabelCopy: Bool

  package init(_ profile: Profile) {
    cacheScreens = Set(profile.cacheInvalidationScreens)
    minHoldMs = profile.minHoldMs
    hasLabelCopy = profile.labels != nil
  }
}
