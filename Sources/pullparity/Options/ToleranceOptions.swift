import ArgumentParser
import PullParityReport

/// How far a figure may move before it fails: between platforms (`report`, `qa`: the parity
/// tolerances) or between cohorts (`compare`: 0 unless given, each change judged on its interval).
struct ToleranceOptions: ParsableArguments {
  @Option(help: ArgumentHelp("Arm distance p50 tolerance, pt/px (default 2; 0 in compare).", valueName: "pt"))
  var armTolerance: Double?

  @Option(help: ArgumentHelp("Time-to-arm p50 tolerance, ms (default 50; 0 in compare).", valueName: "ms"))
  var timeToArmTolerance: Double?

  @Option(help: ArgumentHelp("Visible time p50 tolerance, ms (default 100; 0 in compare).", valueName: "ms"))
  var visibleTolerance: Double?

  @Option(
    help: ArgumentHelp(
      "Rate tolerance, percentage points (default 2; in compare, for the near-miss rate only: a rule's rate may "
        + "rise by its budget).", valueName: "points"))
  var rateTolerance: Double?

  /// The tolerances given, the command's defaults for the others.
  func tolerances(default defaults: ParityTolerances) -> ParityTolerances {
    ParityTolerances(
      armDistance: armTolerance ?? defaults.armDistance, timeToArmMs: timeToArmTolerance ?? defaults.timeToArmMs,
      visibleMs: visibleTolerance ?? defaults.visibleMs, ratePoints: rateTolerance ?? defaults.ratePoints)
  }

  func validate() throws {
    for (name, value) in [
      ("--arm-tolerance", armTolerance), ("--time-to-arm-tolerance", timeToArmTolerance),
      ("--visible-tolerance", visibleTolerance), ("--rate-tolerance", rateTolerance),
    ] {
      if let value, !(value >= 0) { throw ValidationError("\(name) must be 0 or more") }
    }
  }
}
