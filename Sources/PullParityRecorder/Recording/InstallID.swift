public import Foundation

/// The `install_id` a recorder stamps on every event: a random id kept for as long as the app
/// stays installed, so the pipeline can tell one device's consecutive refreshes apart from
/// another's (the repeated-refresh rule). It identifies an install, never a person.
///
/// An iOS app keeps it in a file, e.g. in Application Support:
///
/// ```swift
/// let support = try FileManager.default.url(
///   for: .applicationSupportDirectory, in: .userDomainMask, appropriateFor: nil, create: true)
/// let recorder = PullParityRecorder(
///   app: "padel", installID: InstallID.stored(at: support.appendingPathComponent("pullparity-install-id")),
///   sink: sink)
/// ```
public enum InstallID {
  /// The id kept in the file at `url`: the one it holds, or, on first use (or if the file holds
  /// no valid id), a new random UUID written there, its folders created. `nil` when the file can
  /// be neither read nor written: record without an install id then.
  ///
  /// Two processes sharing the file (an app and its extension) get the same id on their first
  /// launch too: the new id is written to a file of its own and hard-linked into place, which
  /// fails if the other process got there first, and then its id is read.
  public static func stored(at url: URL) -> String? {
    if let kept = read(url) { return kept }
    let files = FileManager.default
    let made = UUID().uuidString.lowercased()
    let folder = url.deletingLastPathComponent()
    let draft = folder.appendingPathComponent(".\(url.lastPathComponent).\(made)")
    do {
      try files.createDirectory(at: folder, withIntermediateDirectories: true)
      try Data(made.utf8).write(to: draft)
    } catch {
      return nil
    }
    defer { try? files.removeItem(at: draft) }
    if (try? files.linkItem(at: draft, to: url)) != nil { return made }
    if let kept = read(url) { return kept }
    // The file is there but holds no id (empty, cut short, edited): replace it whole.
    guard (try? Data(made.utf8).write(to: url, options: .atomic)) != nil else { return nil }
    return read(url)
  }

  /// Whether ingest takes `id` as an install id: 1–128 characters.
  public static func isValid(_ id: String) -> Bool {
    !id.isEmpty && id.count <= 128
  }

  private static func read(_ url: URL) -> String? {
    guard let text = try? String(contentsOf: url, encoding: .utf8) else { return nil }
    let id = text.trimmingCharacters(in: .whitespacesAndNewlines)
    return isValid(id) ? id : nil
  }
}
