"""The deployable binary (scripts/build-deployable.sh) runs the Spark job's verbs on a machine
that has none of the Swift toolchain or Debian's -dev libraries, with the regular build's output (the debug build, PULLPARITY_REGULAR_BIN).

The machine is a chroot holding the binary and only the files `ldd` says it loads (glibc's): a
root barer than any Debian image (`debootstrap --variant=minbase` adds a shell, coreutils, apt…
and the same glibc), made in milliseconds. A verb that needed anything else at run time (the
Swift runtime, Foundation's ICU data, libsimdjson, libstdc++) would fail in it. It is made with
this machine's glibc (Debian 12's 2.36), and with Ubuntu's 22.04 (2.35, the base of the official
apache/spark images), 18.04 (2.27, older than RHEL 8's and Debian 10's 2.28) and 16.04 (2.23, the
oldest glibc the binary is built for), each from its archive's libc6 package, checked against a
pinned SHA-256. The root gets a /proc, as every machine has. CI (scripts/test.sh) builds the binary before
pytest and runs as root; elsewhere the chroot is made in a user namespace (`unshare -r`)."""

import json
import math
import os
import hashlib
import re
import shutil
import subprocess
import urllib.request

import pytest

from spark_run import REPO

# What every Debian or Ubuntu image (and so a Spark image) has: glibc and its loader.
GLIBC = {"linux-vdso.so.1", "libc.so.6", "libm.so.6", "ld-linux-x86-64.so.2", "libpthread.so.0", "libdl.so.2",
         "librt.so.1"}
# The newest glibc the binary may ask for: Ubuntu 16.04's, the oldest of the roots below. Swift's
# static runtime, Foundation and libstdc++ were built against Debian 12's glibc 2.36 and ask for
# symbols at versions up to 2.36: the binary carries its own definitions of those
# (scripts/deployable/arc4random.c, glibc-2.35.c and glibc-2.23.c), which call versions every
# glibc since 2.23 has, or the kernel.
NEWEST_GLIBC = (2, 23)
SHIMS = os.path.join(REPO, "scripts", "deployable", "glibc-2.35.c")
OLD_GLIBC_SHIMS = os.path.join(REPO, "scripts", "deployable", "glibc-2.23.c")
# Ubuntu's glibc of each release as released: files of its archive's pool, which never change.
UBUNTU_POOL = "http://archive.ubuntu.com/ubuntu/pool/main/g/glibc/"
LIBC6 = {
    "ubuntu-22.04": ("libc6_2.35-0ubuntu3_amd64.deb", "ea9a27e0ebdd0cfc9c750d94f8074f3a35d1f97dcc77ae04c370fb498a6b6db2"),
    "ubuntu-18.04": ("libc6_2.27-3ubuntu1_amd64.deb", "1e1eb86fd646aa68f7144ec692b837b6b352d215880c6a2d0c92c19d36938427"),
    "ubuntu-16.04": ("libc6_2.23-0ubuntu3_amd64.deb", "68d69a0fb2dae7578a2a7054bc0cd5f0994d523f60d540bc6708ff3f2fb33e18"),
}
# The files of a root: the binary and glibc's libraries and loader (libpthread and libdl hold
# pthread_*, sem_* and dl* before glibc 2.34).
ROOT_FILES = {"pullparity", "libc.so.6", "libm.so.6", "libpthread.so.0", "libdl.so.2", "ld-linux-x86-64.so.2"}


@pytest.fixture(scope="module")
def deployable():
    path = os.environ.get("PULLPARITY_DEPLOYABLE") or os.path.join(REPO, ".build", "deployable", "release",
                                                                   "pullparity")
    if not os.path.isfile(path):
        pytest.fail(f"no deployable binary at {path}: run scripts/build-deployable.sh or set PULLPARITY_DEPLOYABLE")
    return path


@pytest.fixture(scope="module")
def regular(deployable):
    """The regular (dynamically linked) build whose output the deployable one must match: the
    debug build scripts/test.sh made (PULLPARITY_REGULAR_BIN), not PULLPARITY_BIN, which CI points
    at the deployable binary itself (comparing it with itself would prove nothing)."""
    path = os.environ.get("PULLPARITY_REGULAR_BIN") or os.path.join(REPO, ".build", "debug", "pullparity")
    if not os.path.isfile(path):
        pytest.fail(f"no regular build at {path}: run `swift build` or set PULLPARITY_REGULAR_BIN")
    if os.path.samefile(path, deployable):
        pytest.fail(f"PULLPARITY_REGULAR_BIN is the deployable binary itself ({path}): point it at a regular build")
    return path


def loaded_libraries(binary):
    """(name, path) of every shared object `ldd` says the binary loads (the vDSO has no path)."""
    result = subprocess.run(["ldd", binary], capture_output=True, text=True, check=True)
    libraries = []
    for line in result.stdout.splitlines():
        match = re.match(r"\s*(\S+)(?: => (\S+))?(?: \(0x[0-9a-f]+\))?$", line)
        assert match, f"unexpected ldd line: {line!r}"
        name, path = match.groups()
        libraries.append((os.path.basename(name), path or (name if name.startswith("/") else None)))
    return libraries


def test_the_binary_loads_only_glibc(deployable):
    names = {name for name, _ in loaded_libraries(deployable)}
    assert names <= GLIBC, f"loads more than glibc: {sorted(names - GLIBC)}"
    symbols = subprocess.run(["objdump", "-T", deployable], capture_output=True, text=True, check=True).stdout
    versions = {tuple(int(part) for part in version.split(".")) for version in re.findall(r"GLIBC_([\d.]+)", symbols)}
    assert max(versions) <= NEWEST_GLIBC, f"needs glibc {max(versions)}"


def test_the_glibc_2_35_shims_unwind_and_compute(tmp_path):
    """The binary's own _dl_find_object finds the unwind tables an exception thrown through five
    frames needs (libgcc_eh, static as in the binary, calls it and not glibc's), and its hypot
    and hypotf answer from the older symbols every glibc has."""
    program = tmp_path / "throw.cpp"
    program.write_text(r"""
        #include <cmath>
        #include <cstdio>
        #include <stdexcept>
        __attribute__((noinline)) static void deep(int n) { if (n == 0) throw std::runtime_error("unwound"); deep(n - 1); }
        int main(int argc, char **) {
          volatile double a = 3e200, b = 4e200;
          volatile float c = 5, d = 12;
          try { deep(4 + argc); } catch (const std::exception &e) {
            std::printf("%s %.17g %.9g\n", e.what(), std::hypot((double)a, (double)b), std::hypot((float)c, (float)d));
            return 0;
          }
          return 1;
        }
        """)
    shims = tmp_path / "shims.o"
    subprocess.run(["clang", "-O2", "-fPIC", "-c", SHIMS, "-o", str(shims)], check=True)
    binary = tmp_path / "throw"
    subprocess.run(["clang++", "-O1", str(program), str(shims), "-static-libgcc", "-static-libstdc++", "-o",
                    str(binary)], check=True)
    imported = subprocess.run(["objdump", "-T", str(binary)], capture_output=True, text=True, check=True).stdout
    asked = {line.split()[-1]: line.split()[-2] for line in imported.splitlines()
             if re.search(r"\b(hypotf?|_dl_find_object|dl_iterate_phdr)$", line)}
    assert asked == {"hypot": "(GLIBC_2.2.5)", "hypotf": "(GLIBC_2.2.5)", "dl_iterate_phdr": "(GLIBC_2.2.5)"}, asked
    result = subprocess.run([str(binary)], capture_output=True, text=True, timeout=10)
    assert result.returncode == 0, result
    said, large, small = result.stdout.split()
    # Scaled, not overflowed; within an ulp of the correctly rounded result (glibc 2.35's).
    assert said == "unwound" and abs(float(large) - math.hypot(3e200, 4e200)) <= math.ulp(5e200), result.stdout
    assert small == "13", result.stdout


def test_the_glibc_2_23_shims_run_a_program_alike_on_glibc_2_36_and_2_23(deployable, tmp_path):
    """A program that calls what the binary's glibc-2.23 definitions stand in for, linked with
    them as the binary is: it asks for nothing newer than glibc 2.23, runs its constructor once
    (started by Debian 12's start file through the binary's __libc_start_main), and gives the
    same results on this machine's glibc and in Ubuntu 16.04's root, but for the working
    directory of a spawned process, which glibc 2.23 cannot set (ENOSYS)."""
    program = tmp_path / "calls.c"
    program.write_text(r"""
        #define _GNU_SOURCE
        #include <errno.h>
        #include <fcntl.h>
        #include <math.h>
        #include <pthread.h>
        #include <semaphore.h>
        #include <spawn.h>
        #include <stdio.h>
        #include <sys/random.h>
        #include <sys/stat.h>
        #include <unistd.h>
        static int constructed;
        // Counts by a call the compiler cannot evaluate: a constant count would be computed at
        // compile time (LLVM evaluates simple constructors) and prove nothing.
        __attribute__((constructor)) static void construct(void) { constructed += getpid() > 0; }
        static sem_t ready;
        static void *work(void *value) { *(int *)value += 41; sem_post(&ready); return value; }
        int main(int argc, char **argv) {
          (void)argc;
          pthread_t thread;
          int value = 1;
          void *joined;
          if (sem_init(&ready, 0, 0) || pthread_create(&thread, NULL, work, &value) || sem_wait(&ready)
              || pthread_join(thread, &joined) || joined != &value) return 2;
          struct stat byPath, byFD, byLink;
          int fd = open(argv[0], O_RDONLY);
          if (stat(argv[0], &byPath) || fstat(fd, &byFD) || lstat(argv[0], &byLink)) return 3;
          int cloexec = fcntl64(fd, F_SETFD, FD_CLOEXEC) == 0 && fcntl64(fd, F_GETFD) == FD_CLOEXEC;
          unsigned char bytes[256];
          if (getentropy(bytes, sizeof bytes) || getrandom(bytes, 16, 0) != 16) return 4;
          errno = 0;
          int tooMany = getentropy(bytes, 257) == -1 && errno == EIO;
          posix_spawn_file_actions_t actions;
          posix_spawn_file_actions_init(&actions);
          int chdir = posix_spawn_file_actions_addchdir_np(&actions, "/");
          volatile double x = 1.5;
          volatile float y = 1.5f;
          printf("%d %d %d %d %d %d %s %.17g %.17g %.17g %.17g %.17g %.9g %.9g %.9g %.9g %.9g\n",
                 constructed, value, byPath.st_size == byFD.st_size && byFD.st_ino == byLink.st_ino,
                 byPath.st_size > 0, cloexec, tooMany, chdir == 0 ? "chdir" : chdir == ENOSYS ? "ENOSYS" : "?",
                 exp(x), exp2(x), log(x), log2(x), pow(x, x), expf(y), exp2f(y), logf(y), log2f(y), powf(y, y));
          return 0;
        }
        """)
    shims = tmp_path / "glibc-2.23.o"
    subprocess.run(["clang", "-O2", "-fPIC", "-c", OLD_GLIBC_SHIMS, "-o", str(shims)], check=True)
    binary = tmp_path / "calls"
    subprocess.run(["clang", "-O1", str(program), str(shims), "-Wl,--no-as-needed", "-l:libpthread.so.0",
                    "-l:libdl.so.2", "-lm", "-o", str(binary)], check=True)
    symbols = subprocess.run(["objdump", "-T", str(binary)], capture_output=True, text=True, check=True).stdout
    versions = {tuple(int(part) for part in version.split(".")) for version in re.findall(r"GLIBC_([\d.]+)", symbols)}
    assert max(versions) <= NEWEST_GLIBC, symbols
    here = subprocess.run([str(binary)], capture_output=True, text=True, timeout=10)
    assert here.returncode == 0, here
    root = bare_root(tmp_path, str(binary), unpacked_libc6(deployable, "ubuntu-16.04"))
    there = in_root(root, ["/calls"], b"").decode()
    flags, values = here.stdout.split()[:7], here.stdout.split()[7:]
    assert flags == ["1", "42", "1", "1", "1", "1", "chdir"], here.stdout
    assert there.split()[:7] == ["1", "42", "1", "1", "1", "1", "ENOSYS"], there
    # Five doubles, then five floats (whose ulp is 2^29 a double's): glibc 2.23's exp, log and
    # pow round correctly, 2.36's are within an ulp of that.
    for index, (mine, theirs) in enumerate(zip(values, there.split()[7:])):
        ulp = math.ulp(float(mine)) * (1 if index < 5 else 2 ** 29)
        assert abs(float(mine) - float(theirs)) <= ulp, (index, mine, theirs)


def unpacked_libc6(deployable, release):
    """`release`'s libc6 package (LIBC6) unpacked, kept beside the deployable build: its folder."""
    name, sha256 = LIBC6[release]
    folder = os.path.join(os.path.dirname(os.path.dirname(deployable)), f"{release}-libc6")
    package = os.path.join(folder, name)
    if not os.path.isdir(os.path.join(folder, "root")):
        os.makedirs(folder, exist_ok=True)
        with urllib.request.urlopen(UBUNTU_POOL + name, timeout=120) as response:
            data = response.read()
        assert hashlib.sha256(data).hexdigest() == sha256, f"{UBUNTU_POOL + name} is not the package pinned here"
        with open(package, "wb") as handle:
            handle.write(data)
        subprocess.run(["dpkg-deb", "-x", package, os.path.join(folder, "root")], check=True)
    return os.path.join(folder, "root")


def bare_root(tmp_path, binary, glibc=None):
    """A root with the binary at its name's place (/pullparity) and only the files ldd names, at their paths: this
    machine's, or, with `glibc` (an unpacked libc6 package), the package's files of those names."""
    root = tmp_path / "root"
    for name, path in loaded_libraries(binary):
        if path:
            source = os.path.realpath(path) if glibc is None else os.path.join(
                glibc, "lib", "x86_64-linux-gnu", name)
            target = root / path.lstrip("/")
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)
    root.mkdir(exist_ok=True)
    shutil.copy2(binary, root / os.path.basename(binary))
    return root


def in_root(root, argv, stdin):
    """Runs argv in the root, with a /proc of its own as every machine has (the static Swift
    runtime reads the command line from /proc/self/cmdline), in new mount and PID namespaces
    that end with it; in a user namespace too when not root."""
    (root / "proc").mkdir(exist_ok=True)
    namespaces = ["unshare", "--mount", "--pid", "--fork", f"--mount-proc={root}/proc"]
    if os.geteuid() != 0:
        namespaces.insert(1, "--map-root-user")
    result = subprocess.run(namespaces + ["chroot", str(root)] + argv, input=stdin, capture_output=True)
    assert result.returncode == 0, result.stderr.decode("utf-8", "replace")
    return result.stdout


def sample_lines():
    """decode's input for every line of the sample logs (bad, blank and non-UTF-8 ones too)."""
    lines = []
    folder = os.path.join(REPO, "sample-events")
    for name in sorted(os.listdir(folder)):
        if not name.endswith(".jsonl"):
            continue
        offset = 0
        with open(os.path.join(folder, name), "rb") as handle:
            for number, line in enumerate(handle.read().split(b"\n")[:-1], start=1):
                lines.append(f"sample-events/{name}\t{offset}\t{number}\t".encode() + line.rstrip(b"\r") + b"\n")
                offset += len(line) + 1
    return b"".join(lines)


def derive_input(binary, tsv):
    """The lines decode found to be events, each session's together: derive's input."""
    decoded = subprocess.run([binary, "decode"], input=tsv, capture_output=True, check=True).stdout
    by_session = {}
    for line, out in zip(tsv.split(b"\n"), decoded.split(b"\n")):
        fields = out.split(b"\t")
        if fields[0] == b"event":
            by_session.setdefault(fields[5], []).append(line + b"\n")
    return b"".join(b"".join(lines) for lines in by_session.values())


@pytest.mark.parametrize("glibc", ["debian-12", *LIBC6])
def test_the_spark_verbs_run_in_a_root_without_the_toolchain(deployable, regular, tmp_path, glibc):
    root = bare_root(tmp_path, deployable, unpacked_libc6(deployable, glibc) if glibc in LIBC6 else None)
    held = {path.name for path in root.rglob("*") if path.is_file()}
    assert held == ROOT_FILES, held
    tsv = sample_lines()
    decoded = in_root(root, ["/pullparity", "decode"], tsv)
    assert decoded == subprocess.run([regular, "decode"], input=tsv, capture_output=True, check=True).stdout
    kinds = {line.split(b"\t")[0] for line in decoded.splitlines()}
    assert kinds == {b"event", b"rejected", b"blank"}
    events = derive_input(regular, tsv)
    derived = in_root(root, ["/pullparity", "derive"], events)
    assert derived == subprocess.run([regular, "derive"], input=events, capture_output=True, check=True).stdout
    tables = {json.loads(line)["table"] for line in derived.splitlines()}
    assert tables == {"sessions", "violations", "profiles"}
    version = in_root(root, ["/pullparity", "--version"], b"")
    assert version == subprocess.run([regular, "--version"], capture_output=True, check=True).stdout
