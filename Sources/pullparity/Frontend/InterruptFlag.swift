import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// SIGINT asks an ingest to stop after the batch it is writing; a second SIGINT kills at once
/// (the database stays consistent either way: batches are transactions).
enum InterruptFlag {
  private static let requested = Atomic<Bool>(false)

  static func install() {
    // A parent may have spawned us with SIGINT blocked (a blocked mask is inherited); the
    // request would then wait forever.
    var mask = sigset_t()
    sigemptyset(&mask)
    sigaddset(&mask, SIGINT)
    sigprocmask(SIG_UNBLOCK, &mask, nil)
    signal(SIGINT) { _ in
      InterruptFlag.requested.store(true, ordering: .relaxed)
      signal(SIGINT, SIG_DFL)
    }
  }

  static var isRequested: Bool { requested.load(ordering: .relaxed) }
}
