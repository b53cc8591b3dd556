import ArgumentParser
import PullParityDistributed

extension PullParity {
  struct Load: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Load the output of a distributed run into a SQLite file, new or not.",
      discussion: """
        DIR is what spark/pullparity_spark.py wrote: summary.json and json/{events,sessions,violations,quarantine,profiles}/. The tables are loaded in one transaction and checked against the summary's counts; then report, qa, compare, session and dashboards read it as if it had been ingested. A database that holds events already gets the run by ingest's rules: an event stored before is a duplicate (or a conflict, quarantined), a bad line quarantined before is not added again, and a session with events stored before is derived again from all of them; loading a run again stores nothing new. Formats: docs/distributed-formats.md.

        A daily dataset (the job's --append) is loaded whole into a file that holds none of its runs; into the file of the days before, only the runs it lacks are loaded, each from its own part (DIR/runs/NNNN) and recorded as a run of its own, so a day's load reads that day. A file that holds every run loads nothing; a copy of the dataset with fewer runs than the file holds is refused.

        --leave-events stores all but the raw events (about 30 bytes an event in the file) and records DIR's absolute path: reports, qa and compare read the file as usual, and `session ID --read-events` and `replay --read-events` read the events back from DIR/json/events, which must stay there. Such a file takes only runs loaded so: the same DIR again replaces what it stored before (a daily --append dataset), another DIR adds its sessions unless one of them is stored already; ingest and load without the option are refused, as is --leave-events on a file that stores events.

        Examples:
          pullparity load out/run-1 --db parity.sqlite
          pullparity load out/dataset --db parity.sqlite      # each day, after the day's --append run
          pullparity load out/dataset --leave-events --db parity.sqlite
        """)

    @OptionGroup var database: DatabaseOptions

    @Flag(help: "Leave the raw events in DIR: store the rest and where they are (read back with --read-events).")
    var leaveEvents = false

    @Argument(help: ArgumentHelp("The run's output directory.", valueName: "dir"))
    var directory: String

    func run() throws {
      // Before the database is created: a directory that is not a run's output leaves no file.
      try LoadFrontend.check(directory)
      let frontend = LoadFrontend(database: try database.open())
      let loads = try frontend.run(directory: directory, leavingEvents: leaveEvents)
      try FileHandleOutput.standardOutput.write(frontend.describe(loads, from: directory))
      // As ingest: the run holds the other inputs, and ends with 2 naming the damaged ones.
      let errors = loads.map { frontend.describeInputErrors($0.1.summary) }.joined()
      if !errors.isEmpty {
        try FileHandleOutput.standardError.write(errors)
        throw ExitCode(2)
      }
    }
  }
}
