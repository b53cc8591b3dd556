import PullParityCore
import Testing

@testable import PullParityReport

/// `qa` checks every rule `report --check` judges: each rule has the item that judges it as the
/// rule table does, and the item applies to a profile exactly when the rule does.
@Suite struct QAAgreementTests {
  @Test func everyRuleHasItsItem() {
    #expect(QACheck.rulesNotChecked.isEmpty)
  }

  @Test(arguments: ProfileRule.allCases)
  func theRulesItemAppliesWhereTheRuleDoes(_ rule: ProfileRule) throws {
    let items = QACheck.allCases.filter { $0.rule == rule }
    #expect(items.count == 1, "\(rule): \(items)")
    let item = try #require(items.first)
    for profile in BuiltInProfiles.all {
      #expect(item.applies(to: profile) == rule.applies(to: profile), "\(rule) in \(profile.name)")
    }
  }

  @Test func onlyTheItemsBeyondTheRulesCheckWhatReportDoesNot() {
    #expect(QACheck.beyondTheRules == [.dragTracking, .emptyState, .tabReselect])
  }

  @Test(arguments: [
    (ProfileRule.stuckRefresh, 2, 5, "2 stuck refreshes in 5 sessions: too few for a verdict"),
    (.droppedRefresh, 1, 1, "1 dropped refresh in 1 session: too few for a verdict"),
    (.unexpectedEvent, 3, 12, "3 sessions with unexpected events in 12 sessions: too few for a verdict"),
    (.cacheOrder, 1, 4, "1 session breaking cache_order in 4 sessions: too few for a verdict"),
  ])
  func smallSampleNotes(_ rule: ProfileRule, _ broken: Int, _ judged: Int, _ note: String) {
    #expect(SmallSample.note(rule, broken: broken, judged: judged) == note)
  }
}
