/// The version of the tools, as `--version` prints it and every run records it (`IngestOptions`):
/// one constant for both executables, `pullparity` and `pullparity-collect`.
package enum ToolVersion {
  package static let current = "0.1.0"
}
