#if canImport(Glibc)
  import Glibc
#else
  import Darwin
#endif

/// Zeroed filter blocks in memory the kernel is asked to back with 2 MiB pages.
///
/// A key is checked against a random block of filters that together take tens of MiB: with
/// 4 KiB pages nearly every check also missed the TLB, and under a hypervisor each such miss
/// walks two page tables. Transparent huge pages, where the kernel grants them (Linux's
/// `madvise` mode, the default on Debian), cover the same memory with a few entries.
final class HugePageBlocks {
  let base: UnsafeMutablePointer<SIMD8<UInt32>>

  private static let hugePage = 2 << 20

  init(count: Int) {
    let bytes = max(count, 1) * MemoryLayout<SIMD8<UInt32>>.stride
    // Less than a huge page (a new matrix, small epochs in tests) needs only a cache line.
    let alignment = bytes >= Self.hugePage ? Self.hugePage : 64
    var memory: UnsafeMutableRawPointer?
    guard posix_memalign(&memory, alignment, bytes) == 0, let memory else {
      fatalError("out of memory for \(bytes) bytes of key filters")
    }
    #if canImport(Glibc)
      // Advice only: without huge pages the blocks work the same, more slowly.
      _ = madvise(memory, bytes, MADV_HUGEPAGE)
    #endif
    memset(memory, 0, bytes)
    base = memory.bindMemory(to: SIMD8<UInt32>.self, capacity: max(count, 1))
  }

  deinit { free(base) }
}
