import PullParityCore
import Testing

@Suite struct RevealRuleTests {
  let rule = RevealRule(bars: 5, progressStep: 0.2, fullPullDistance: 80)

  // 0.6 is the case binary floating point gets wrong (3 × 0.2 > 0.6): the grid is decimal.
  @Test(arguments: [(0.0, 1), (0.1999, 1), (0.2, 2), (0.4, 3), (0.6, 4), (0.6000001, 4), (0.8, 5), (1.0, 5)])
  func barsAllowed(progress: Double, bars: Int) {
    #expect(rule.barsAllowed(atProgress: progress) == bars)
  }
}
