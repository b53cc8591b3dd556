import PullParityCore
import Testing

/// A rule's violation is the kind of the same name (a session breaking `late_hide` has a
/// `late_hide` violation), but hold compliance, which is the absence of three kinds.
@Suite struct ProfileRuleTests {
  @Test(arguments: ProfileRule.allCases)
  func aRuleNamesTheViolationKindOfItsName(rule: ProfileRule) {
    if rule == .holdCompliance {
      #expect(rule.violationKind == nil)
    } else {
      #expect(rule.violationKind?.rawValue == rule.rawValue)
    }
  }
}
