import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// SIGINT (Ctrl-C) and SIGTERM (`timeout`, `docker stop`) ask an ingest to stop after the
/// transaction it is writing; a second signal kills at once (the database stays consistent
/// either way: a transaction is all or nothing).
enum InterruptFlag {
  private static let signals = [SIGINT, SIGTERM]
  /// The first signal received, 0 while none was.
  private static let received = Atomic<Int32>(0)

  static func install() {
    // A parent may have spawned us with the signals blocked (a blocked mask is inherited); the
    // request would then wait forever.
    var mask = sigset_t()
    sigemptyset(&mask)
    for signal in signals { sigaddset(&mask, signal) }
    sigprocmask(SIG_UNBLOCK, &mask, nil)
    for number in signals {
      Glibc.signal(number) { number in
        _ = InterruptFlag.received.compareExchange(expected: 0, desired: number, ordering: .relaxed)
        // A second signal of either kind ends the process at once.
        Glibc.signal(SIGINT, SIG_DFL)
        Glibc.signal(SIGTERM, SIG_DFL)
      }
    }
  }

  static var isRequested: Bool { requestingSignal != nil }

  /// The signal that asked to stop, if one did.
  static var requestingSignal: Int32? {
    let number = received.load(ordering: .relaxed)
    return number == 0 ? nil : number
  }

  /// How a stopped command exits: 128 + the signal, as if the signal had ended it.
  static var exitCode: Int32 { 128 + (requestingSignal ?? SIGINT) }
}
