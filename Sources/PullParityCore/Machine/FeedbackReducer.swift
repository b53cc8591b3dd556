/// What the user is shown while pulling and refreshing: label copy and the waveform's bars.
enum FeedbackReducer {
  static func reduce(_ state: inout SessionState, _ payload: EventPayload, at: Double, profile: Profile) -> [Violation]?
  {
    switch (state.phase, payload) {
    case (.pulling, .label(let text, let labelState)), (.armed, .label(let text, let labelState)),
      (.released, .label(let text, let labelState)), (.refreshing, .label(let text, let labelState)),
      (.holding, .label(let text, let labelState)):
      guard let copy = profile.labels, !copy.matches(text, for: labelState) else { return [] }
      state.labelViolations += 1
      return [Violation(kind: .labelText, at: at, expected: copy.text(for: labelState), actual: text)]

    case (.idle, .reveal(let progress, let visible)), (.pulling, .reveal(let progress, let visible)),
      (.armed, .reveal(let progress, let visible)), (.released, .reveal(let progress, let visible)):
      guard let rule = profile.reveal else { return [] }
      let allowed = rule.barsAllowed(atProgress: progress)
      guard visible > allowed else { return [] }
      return [
        Violation(
          kind: .revealOrder, at: at,
          expected: "≤ \(allowed) bars at progress \(NumberText.format(progress))",
          actual: "\(visible) bars")
      ]

    default:
      return nil
    }
  }
}
