// The deployable binary's own copies of the three symbols that glibc versioned 2.35, linked in by
// scripts/build-deployable.sh with glibc-2.23.c, which does the same for the symbols versioned
// 2.24 to 2.34, so that the binary runs on glibc 2.23 and newer.
//
// - hypot and hypotf: glibc 2.35 gave them a new symbol version (a faster, correctly rounded
//   implementation) and kept the old one; the binary's calls go to the old one, which every
//   x86-64 glibc has (GLIBC_2.2.5). Its results differ from 2.35's by at most an ulp.
// - _dl_find_object: libgcc's unwinder (Debian 12's static libgcc_eh, which the binary links)
//   asks it for the loaded object holding a code address and for that object's
//   PT_GNU_EH_FRAME. dl_iterate_phdr (GLIBC_2.2.5) answers the same question; it is what libgcc
//   used before glibc 2.35 had _dl_find_object.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>

double old_hypot(double, double);
float old_hypotf(float, float);
__asm__(".symver old_hypot, hypot@GLIBC_2.2.5");
__asm__(".symver old_hypotf, hypotf@GLIBC_2.2.5");

// Hidden: the binary's calls bind to these when it is linked, and the loader never sees them,
// so that the old version's lookup cannot find them instead of glibc's (they would call
// themselves).
__attribute__((visibility("hidden"))) double hypot(double x, double y) { return old_hypot(x, y); }
__attribute__((visibility("hidden"))) float hypotf(float x, float y) { return old_hypotf(x, y); }

struct search {
  uintptr_t address;
  struct dl_find_object *found;
};

// One loaded object: when one of its PT_LOAD segments holds the address, fills the answer and
// stops the iteration (returns 1).
static int look_in(struct dl_phdr_info *object, size_t size, void *data) {
  (void)size;
  struct search *search = data;
  uintptr_t start = UINTPTR_MAX, end = 0;
  void *eh_frame = NULL;
  int holds = 0;
  for (ElfW(Half) i = 0; i < object->dlpi_phnum; i++) {
    const ElfW(Phdr) *segment = &object->dlpi_phdr[i];
    uintptr_t low = object->dlpi_addr + segment->p_vaddr;
    if (segment->p_type == PT_GNU_EH_FRAME) eh_frame = (void *)low;
    if (segment->p_type != PT_LOAD) continue;
    uintptr_t high = low + segment->p_memsz;
    if (low < start) start = low;
    if (high > end) end = high;
    if (search->address >= low && search->address < high) holds = 1;
  }
  if (!holds) return 0;
  search->found->dlfo_flags = 0;
  search->found->dlfo_map_start = (void *)start;
  search->found->dlfo_map_end = (void *)end;
  search->found->dlfo_link_map = NULL;
  search->found->dlfo_eh_frame = eh_frame;
  return 1;
}

// 0 and the object's bounds and unwind table when a loaded object holds `address`, else -1
// (glibc's contract for _dl_find_object).
__attribute__((visibility("hidden"))) int _dl_find_object(void *address, struct dl_find_object *result) {
  struct search search = {(uintptr_t)address, result};
  return dl_iterate_phdr(look_in, &search) ? 0 : -1;
}
