import ArgumentParser
import PullParityReport

struct ToleranceOptions: ParsableArguments {
  @Option(help: ArgumentHelp("Arm distance p50 tolerance, pt/px.", valueName: "pt"))
  var armTolerance: Double = ParityTolerances.default.armDistance

  @Option(help: ArgumentHelp("Time-to-arm p50 tolerance, ms.", valueName: "ms"))
  var timeToArmTolerance: Double = ParityTolerances.default.timeToArmMs

  @Option(help: ArgumentHelp("Visible time p50 tolerance, ms.", valueName: "ms"))
  var visibleTolerance: Double = ParityTolerances.default.visibleMs

  @Option(help: ArgumentHelp("Rate tolerance, percentage points.", valueName: "points"))
  var rateTolerance: Double = ParityTolerances.default.ratePoints

  var tolerances: ParityTolerances {
    ParityTolerances(
      armDistance: armTolerance, timeToArmMs: timeToArmTolerance, visibleMs: visibleTolerance,
      ratePoints: rateTolerance)
  }

  func validate() throws {
    for (name, value) in [
      ("--arm-tolerance", armTolerance), ("--time-to-arm-tolerance", timeToArmTolerance),
      ("--visible-tolerance", visibleTolerance), ("--rate-tolerance", rateTolerance),
    ] where !(value >= 0) {
      throw ValidationError("\(name) must be 0 or more")
    }
  }
}
