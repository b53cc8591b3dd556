// The deployable binary's own definitions of the symbols that glibc versioned after 2.23, linked
// in by scripts/build-deployable.sh, so that the binary asks for nothing newer than glibc 2.23
// (Ubuntu 16.04): RHEL 8 and Debian 10 (2.28), Ubuntu 18.04 (2.27), Amazon Linux 2023 (EMR 7,
// 2.34) and every newer glibc run it.
//
// Swift's static runtime, Foundation and libstdc++ were built against Debian 12's glibc (2.36),
// so their calls name the versions 2.36 has by default. Each definition here is hidden: the
// binary's calls bind to it when the binary is linked, the loader never sees it (so the old
// version's lookup cannot find it instead of glibc's), and it calls the version every glibc
// since 2.23 has. Four kinds:
//
// - Moved, not changed: glibc 2.34 moved pthread_*, sem_* and dl* from libpthread and libdl into
//   libc and gave them a new version; the old one is the same function. (The build names
//   libpthread.so.0 and libdl.so.2 as needed libraries: where an older glibc keeps them.)
// - New versions of old functions: exp, log, pow… (2.29: no SVID error handling; 2.27 for the
//   float ones), pthread_sigmask, pthread_getattr_np and pthread_getaffinity_np (2.32), fcntl64
//   (2.28: on x86-64 the same call as fcntl). The old versions return the same values.
// - stat, fstat, lstat (2.33): before 2.33 they were inline calls of __xstat and its kin, which
//   every glibc still exports.
// - New in glibc: getrandom and getentropy (2.25) are the kernel's getrandom(2) (Linux 3.17);
//   __libc_single_threaded (2.32) is libstdc++'s hint that it may skip atomic operations, here
//   always 0 (never skip: correct, a little slower); posix_spawn_file_actions_addchdir_np (2.29),
//   which Foundation's Process calls only for a working directory, is glibc's where glibc has
//   it and ENOSYS elsewhere.
//
// __libc_start_main is the one whose contract changed: glibc 2.34's start files pass it no
// constructor function, and it runs the program's constructors itself; an older glibc runs only
// the function it is given. The binary passes its own, which runs them as a 2.33 start file's
// did, and 2.34's __libc_start_main runs the function it is given too, so that they run once.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <semaphore.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <stddef.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#define HIDDEN __attribute__((visibility("hidden")))

// `name` at `version`, under the local name old_`name`, and the binary's `name` calling it.
#define OLD(version, ret, name, params, args)                          \
  ret old_##name params;                                               \
  __asm__(".symver old_" #name ", " #name "@" version);                \
  HIDDEN ret name params { return old_##name args; }

// Moved into libc by 2.34.
OLD("GLIBC_2.2.5", int, pthread_create,
    (pthread_t * thread, const pthread_attr_t *attr, void *(*start)(void *), void *arg),
    (thread, attr, start, arg))
OLD("GLIBC_2.2.5", int, pthread_detach, (pthread_t thread), (thread))
OLD("GLIBC_2.2.5", int, pthread_join, (pthread_t thread, void **result), (thread, result))
OLD("GLIBC_2.2.5", int, pthread_kill, (pthread_t thread, int signal), (thread, signal))
OLD("GLIBC_2.2.5", int, pthread_once, (pthread_once_t * once, void (*routine)(void)), (once, routine))
OLD("GLIBC_2.2.5", int, pthread_key_create, (pthread_key_t * key, void (*destructor)(void *)), (key, destructor))
OLD("GLIBC_2.2.5", int, __pthread_key_create, (pthread_key_t * key, void (*destructor)(void *)), (key, destructor))
OLD("GLIBC_2.2.5", int, pthread_key_delete, (pthread_key_t key), (key))
OLD("GLIBC_2.2.5", void *, pthread_getspecific, (pthread_key_t key), (key))
OLD("GLIBC_2.2.5", int, pthread_setspecific, (pthread_key_t key, const void *value), (key, value))
OLD("GLIBC_2.2.5", int, pthread_attr_getstack, (const pthread_attr_t *attr, void **stack, size_t *size),
    (attr, stack, size))
OLD("GLIBC_2.2.5", int, pthread_attr_getstacksize, (const pthread_attr_t *attr, size_t *size), (attr, size))
OLD("GLIBC_2.2.5", int, pthread_attr_setstacksize, (pthread_attr_t * attr, size_t size), (attr, size))
OLD("GLIBC_2.2.5", int, pthread_mutex_trylock, (pthread_mutex_t * mutex), (mutex))
OLD("GLIBC_2.2.5", int, pthread_mutex_timedlock, (pthread_mutex_t * mutex, const struct timespec *until),
    (mutex, until))
OLD("GLIBC_2.2.5", int, pthread_mutexattr_init, (pthread_mutexattr_t * attr), (attr))
OLD("GLIBC_2.2.5", int, pthread_mutexattr_destroy, (pthread_mutexattr_t * attr), (attr))
OLD("GLIBC_2.2.5", int, pthread_mutexattr_settype, (pthread_mutexattr_t * attr, int kind), (attr, kind))
OLD("GLIBC_2.12", int, pthread_getname_np, (pthread_t thread, char *name, size_t size), (thread, name, size))
OLD("GLIBC_2.12", int, pthread_setname_np, (pthread_t thread, const char *name), (thread, name))
OLD("GLIBC_2.2.5", int, sem_init, (sem_t * sem, int shared, unsigned int value), (sem, shared, value))
OLD("GLIBC_2.2.5", int, sem_destroy, (sem_t * sem), (sem))
OLD("GLIBC_2.2.5", int, sem_post, (sem_t * sem), (sem))
OLD("GLIBC_2.2.5", int, sem_wait, (sem_t * sem), (sem))
OLD("GLIBC_2.2.5", int, sem_timedwait, (sem_t * sem, const struct timespec *until), (sem, until))
OLD("GLIBC_2.2.5", void *, dlopen, (const char *file, int mode), (file, mode))
OLD("GLIBC_2.2.5", int, dlclose, (void *handle), (handle))
OLD("GLIBC_2.2.5", void *, dlsym, (void *handle, const char *name), (handle, name))
OLD("GLIBC_2.2.5", char *, dlerror, (void), ())
OLD("GLIBC_2.2.5", int, dladdr, (const void *address, Dl_info *info), (address, info))

// New versions of old functions.
OLD("GLIBC_2.2.5", double, exp, (double x), (x))
OLD("GLIBC_2.2.5", double, exp2, (double x), (x))
OLD("GLIBC_2.2.5", double, log, (double x), (x))
OLD("GLIBC_2.2.5", double, log2, (double x), (x))
OLD("GLIBC_2.2.5", double, pow, (double x, double y), (x, y))
OLD("GLIBC_2.2.5", float, expf, (float x), (x))
OLD("GLIBC_2.2.5", float, exp2f, (float x), (x))
OLD("GLIBC_2.2.5", float, logf, (float x), (x))
OLD("GLIBC_2.2.5", float, log2f, (float x), (x))
OLD("GLIBC_2.2.5", float, powf, (float x, float y), (x, y))
OLD("GLIBC_2.2.5", int, pthread_sigmask, (int how, const sigset_t *set, sigset_t *old), (how, set, old))
OLD("GLIBC_2.2.5", int, pthread_getattr_np, (pthread_t thread, pthread_attr_t *attr), (thread, attr))
OLD("GLIBC_2.3.4", int, pthread_getaffinity_np, (pthread_t thread, size_t size, cpu_set_t *set),
    (thread, size, set))

int old_fcntl(int fd, int command, void *argument);
__asm__(".symver old_fcntl, fcntl@GLIBC_2.2.5");

// Every fcntl command takes one argument or none; an absent one is read as whatever its
// register holds and ignored, as glibc's own fcntl does.
HIDDEN int fcntl64(int fd, int command, ...) {
  va_list arguments;
  va_start(arguments, command);
  void *argument = va_arg(arguments, void *);
  va_end(arguments);
  return old_fcntl(fd, command, argument);
}

sem_t *old_sem_open(const char *name, int flags, ...);
__asm__(".symver old_sem_open, sem_open@GLIBC_2.2.5");

// The mode and value are there only with O_CREAT.
HIDDEN sem_t *sem_open(const char *name, int flags, ...) {
  if (!(flags & O_CREAT)) return old_sem_open(name, flags);
  va_list arguments;
  va_start(arguments, flags);
  mode_t mode = va_arg(arguments, mode_t);
  unsigned int value = va_arg(arguments, unsigned int);
  va_end(arguments);
  return old_sem_open(name, flags, mode, value);
}

// stat and its kin, as glibc's headers before 2.33 inlined them (version 1 of struct stat).
int old_xstat(int version, const char *path, struct stat *buffer);
int old_fxstat(int version, int fd, struct stat *buffer);
int old_lxstat(int version, const char *path, struct stat *buffer);
__asm__(".symver old_xstat, __xstat@GLIBC_2.2.5");
__asm__(".symver old_fxstat, __fxstat@GLIBC_2.2.5");
__asm__(".symver old_lxstat, __lxstat@GLIBC_2.2.5");

HIDDEN int stat(const char *path, struct stat *buffer) { return old_xstat(1, path, buffer); }
HIDDEN int fstat(int fd, struct stat *buffer) { return old_fxstat(1, fd, buffer); }
HIDDEN int lstat(const char *path, struct stat *buffer) { return old_lxstat(1, path, buffer); }
// On x86-64 struct stat64 is struct stat, and glibc's *64 functions are the same ones.
HIDDEN int stat64(const char *path, struct stat64 *buffer) { return old_xstat(1, path, (struct stat *)buffer); }
HIDDEN int fstat64(int fd, struct stat64 *buffer) { return old_fxstat(1, fd, (struct stat *)buffer); }
HIDDEN int lstat64(const char *path, struct stat64 *buffer) { return old_lxstat(1, path, (struct stat *)buffer); }

// New in glibc.
HIDDEN ssize_t getrandom(void *buffer, size_t length, unsigned int flags) {
  return syscall(SYS_getrandom, buffer, length, flags);
}

// glibc's contract: at most 256 bytes, all of them or an error.
HIDDEN int getentropy(void *buffer, size_t length) {
  if (length > 256) {
    errno = EIO;
    return -1;
  }
  size_t filled = 0;
  while (filled < length) {
    ssize_t got = getrandom((char *)buffer + filled, length - filled, 0);
    if (got < 0 && errno != EINTR) return -1;
    if (got > 0) filled += (size_t)got;
  }
  return 0;
}

HIDDEN char __libc_single_threaded = 0;

HIDDEN int posix_spawn_file_actions_addchdir_np(posix_spawn_file_actions_t *actions, const char *path) {
  int (*glibcs)(posix_spawn_file_actions_t *, const char *) =
      (int (*)(posix_spawn_file_actions_t *, const char *))dlsym(RTLD_DEFAULT, "posix_spawn_file_actions_addchdir_np");
  return glibcs ? glibcs(actions, path) : ENOSYS;
}

// The program's start.
typedef int (*main_function)(int, char **, char **);
typedef void (*constructor)(int, char **, char **);

int old_libc_start_main(main_function main, int argc, char **argv, constructor init, void (*fini)(void),
                        void (*rtld_fini)(void), void *stack_end);
__asm__(".symver old_libc_start_main, __libc_start_main@GLIBC_2.2.5");

// The linker's bounds of the program's constructors, and its .init section (crti.o).
extern HIDDEN constructor __init_array_start[];
extern HIDDEN constructor __init_array_end[];
void _init(void);

// What a start file of glibc 2.33 passed (its __libc_csu_init): .init, then the constructors.
static void run_constructors(int argc, char **argv, char **environment) {
  _init();
  for (constructor *each = __init_array_start; each < __init_array_end; each++) (*each)(argc, argv, environment);
}

HIDDEN int __libc_start_main(main_function main, int argc, char **argv, constructor init, void (*fini)(void),
                             void (*rtld_fini)(void), void *stack_end) {
  return old_libc_start_main(main, argc, argv, init ? init : run_constructors, fini, rtld_fini, stack_end);
}
