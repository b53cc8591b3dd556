import PullParityRecorder
import PullParityTestSupport

/// The UUIDv7 generator under test with a seeded random source, so that it hands out the same
/// ids on every run.
extension UUIDv7Generator where Random == SplitMix64 {
  static func seeded(_ seed: UInt64 = 7) -> Self { UUIDv7Generator(random: SplitMix64(seed: seed)) }
}
