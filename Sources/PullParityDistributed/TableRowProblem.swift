/// What is wrong with one row of a distributed run's table, thrown by the code that reads the
/// row; `TableFiles` adds the part file and the line it came from.
struct TableRowProblem: Error {
  let message: String
}
