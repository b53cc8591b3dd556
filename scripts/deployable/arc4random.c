// The deployable binary's own arc4random, linked in by scripts/build-deployable.sh.
//
// libstdc++'s std::random_device (Debian 12's, which the binary links statically) calls
// arc4random, which glibc added in 2.36: the one symbol that kept the binary off Ubuntu 22.04
// (glibc 2.35), the base of the official apache/spark images. Defined here, the linker resolves
// it in the binary instead of asking glibc for it. getrandom is the binary's own too
// (glibc-2.23.c: the kernel's getrandom(2)), whose generator glibc 2.36's arc4random reads.
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/random.h>

uint32_t arc4random(void) {
  uint32_t value;
  size_t filled = 0;
  while (filled < sizeof value) {
    ssize_t got = getrandom((char *)&value + filled, sizeof value - filled, 0);
    if (got > 0) {
      filled += (size_t)got;
    } else if (got < 0 && errno != EINTR) {
      abort();  // as glibc's arc4random does when the kernel has no randomness to give
    }
  }
  return value;
}
