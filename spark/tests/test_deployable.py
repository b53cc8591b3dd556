"""The deployable binary (scripts/build-deployable.sh) runs the Spark job's verbs on a machine
that has none of the Swift toolchain or Debian's -dev libraries, with the regular build's output.

The machine is a chroot holding the binary and only the files `ldd` says it loads (glibc's): a
root barer than any Debian image (`debootstrap --variant=minbase` adds a shell, coreutils, apt…
and the same glibc), made in milliseconds and without a network. A verb that needed anything
else at run time (the Swift runtime, Foundation's ICU data, libsimdjson, libstdc++) would fail in
it. The root gets a /proc, as every machine has. CI (scripts/test.sh) builds the binary before
pytest and runs as root; elsewhere the chroot is made in a user namespace (`unshare -r`)."""

import json
import os
import re
import shutil
import subprocess

import pytest

from spark_run import REPO

# What every Debian or Ubuntu image (and so a Spark image) has: glibc and its loader.
GLIBC = {"linux-vdso.so.1", "libc.so.6", "libm.so.6", "ld-linux-x86-64.so.2", "libpthread.so.0", "libdl.so.2",
         "librt.so.1"}
# The newest glibc the binary may ask for: Debian 12's, which Spark images built on it have
# (Swift 6.3's static runtime calls arc4random, new in glibc 2.36; Ubuntu 22.04 has 2.35).
NEWEST_GLIBC = (2, 36)


@pytest.fixture(scope="module")
def deployable():
    path = os.environ.get("PULLPARITY_DEPLOYABLE") or os.path.join(REPO, ".build", "deployable", "release",
                                                                   "pullparity")
    if not os.path.isfile(path):
        pytest.fail(f"no deployable binary at {path}: run scripts/build-deployable.sh or set PULLPARITY_DEPLOYABLE")
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


def bare_root(tmp_path, binary):
    """A root with the binary at /pullparity and only the files ldd names, at their paths."""
    root = tmp_path / "root"
    for _, path in loaded_libraries(binary):
        if path:
            target = root / path.lstrip("/")
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(os.path.realpath(path), target)
    root.mkdir(exist_ok=True)
    shutil.copy2(binary, root / "pullparity")
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


def test_the_spark_verbs_run_in_a_root_without_the_toolchain(deployable, binary, tmp_path):
    root = bare_root(tmp_path, deployable)
    held = {path.name for path in root.rglob("*") if path.is_file()}
    assert held == {"pullparity", "libc.so.6", "libm.so.6", "ld-linux-x86-64.so.2"}, held
    tsv = sample_lines()
    decoded = in_root(root, ["/pullparity", "decode"], tsv)
    assert decoded == subprocess.run([binary, "decode"], input=tsv, capture_output=True, check=True).stdout
    kinds = {line.split(b"\t")[0] for line in decoded.splitlines()}
    assert kinds == {b"event", b"rejected", b"blank"}
    events = derive_input(binary, tsv)
    derived = in_root(root, ["/pullparity", "derive"], events)
    assert derived == subprocess.run([binary, "derive"], input=events, capture_output=True, check=True).stdout
    tables = {json.loads(line)["table"] for line in derived.splitlines()}
    assert tables == {"sessions", "violations", "profiles"}
    version = in_root(root, ["/pullparity", "--version"], b"")
    assert version == subprocess.run([binary, "--version"], capture_output=True, check=True).stdout
