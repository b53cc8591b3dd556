/// False alarms held per run, not per figure: a gate run judges many figures (every metric of
/// every platform, every rule), and at 5 % each, two samples of the same behaviour would fail
/// one run in two. Holm's step-down method holds the chance that a run fails any figure on
/// faithful data to `alpha`, and loses less power than Bonferroni when several figures are real
/// regressions.
package enum FamilyJudgement {
  /// The run's chance of a false alarm.
  package static let alpha = 0.05

  /// One figure's judgement: its verdict and the interval at the level it was judged at.
  package struct Judgement: Equatable, Sendable {
    package var verdict: Verdict
    package var interval: JudgedInterval
  }

  /// The level each figure is judged at, by Holm's step-down over the p-values given (`nil`: a
  /// figure outside the family, judged at `alpha`): the k-th smallest p-value is held to
  /// α/(m − k + 1) while they pass; once one does not, it and every larger one are held to
  /// α/(m − r), r the figures that failed before it.
  package static func levels(_ pValues: [Double?]) -> [Double] {
    var level = [Double](repeating: alpha, count: pValues.count)
    let ordered = pValues.indices.filter { pValues[$0] != nil }.sorted { (pValues[$0]!, $0) < (pValues[$1]!, $1) }
    var failed = 0
    for (step, index) in ordered.enumerated() {
      let stepLevel = alpha / Double(ordered.count - step)
      guard pValues[index]! <= stepLevel else { break }
      level[index] = stepLevel
      failed += 1
    }
    for index in ordered.dropFirst(failed) { level[index] = alpha / Double(ordered.count - failed) }
    return level
  }

  /// How many figures a run judged, as its output says.
  package struct Summary: Equatable, Sendable, Encodable {
    /// Figures whose verdict came from an interval, sharing the run's α.
    package var tested = 0
    /// Figures judged exactly (a rule against a 0 % budget: one break fails).
    package var exact = 0

    package init(tested: Int = 0, exact: Int = 0) { (self.tested, self.exact) = (tested, exact) }

    package var judged: Int { tested + exact }

    enum CodingKeys: String, CodingKey {
      case tested = "by_interval"
      case exact, judged
    }

    package func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(judged, forKey: .judged)
      try container.encode(tested, forKey: .tested)
      try container.encode(exact, forKey: .exact)
    }
  }

  /// A figure judged alone, at `alpha`: what it says until the run's other figures are known.
  package static func alone(_ evidence: Evidence) -> Judgement {
    judge([evidence]).judgements[0]!
  }

  /// The judgements of a run's figures, in order: `nil` evidence is a figure without a verdict
  /// (too few sessions), which stays out of the family and gets no judgement.
  package static func judge(_ evidence: [Evidence?]) -> (judgements: [Judgement?], summary: Summary) {
    let pValues = evidence.map { $0?.pValue }
    let inFamily = evidence.map { $0.map { !$0.isExact && $0.isTestable } ?? false }
    let level = levels(zip(pValues, inFamily).map { $1 ? $0 : nil })
    let judgements = evidence.indices.map { index -> Judgement? in
      guard let figure = evidence[index] else { return nil }
      let fails = pValues[index]! <= level[index]
      return Judgement(verdict: fails ? .fail : .pass, interval: figure.interval(level: level[index]))
    }
    // Tested: the family plus the figures no data could fail (they pass at any level).
    let exact = evidence.count { $0?.isExact == true }
    let tested = evidence.count { $0 != nil } - exact
    return (judgements, Summary(tested: tested, exact: exact))
  }
}
