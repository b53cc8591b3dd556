#!/usr/bin/env bash
# A `pullparity` that runs on a machine without the Swift toolchain or Debian's -dev packages (a
# stock Spark image's executors): Swift's standard library and Foundation linked in statically
# (--static-swift-stdlib), and so are the C and C++ libraries the package links: SQLite, zlib,
# xxHash, zstd (when Package.swift links it), simdjson and libstdc++, from Debian's `.a` files.
# Debian ships no libsimdjson.a: simdjson is compiled here from Debian's own source package of the
# installed version (`apt-get source`, signed by the archive; no system change), its single-file
# release, so that the header pp_simdjson.cpp is built against and the code linked are one version.
# What the binary still loads is glibc's (libc, libm, libpthread, libdl) and the dynamic loader:
# `ldd` lists them last. With its own definitions of the symbols glibc versioned after 2.23
# (scripts/deployable/: arc4random.c, glibc-2.35.c, glibc-2.23.c; docs/at-scale.md says which and
# why) it asks for glibc 2.17 at most and runs on 2.23 and newer: Ubuntu 16.04, RHEL 8, Amazon
# Linux 2 and 2023 (EMR 6 and 7), the official apache/spark images' Ubuntu 22.04. libpthread and
# libdl are named as needed libraries (--no-as-needed): glibc 2.34 merged them into libc, where
# the binary's calls find them; an older glibc keeps pthread_*, sem_* and dl* in them. Prints
# the binary's path on its last line.
#   scripts/build-deployable.sh          # .build/deployable/release/pullparity
set -euo pipefail
cd "$(dirname "$0")/.."
SCRATCH=.build/deployable
LIBS=$PWD/$SCRATCH/static-libs
MULTIARCH=$(gcc -print-multiarch 2>/dev/null || echo "$(uname -m)-linux-gnu")
mkdir -p "$LIBS"

# Debian's static archive of a library, linked in place of its shared object: the linker looks in
# $LIBS first and finds only the archive there.
link_static() {
  local name=$1 archive
  archive=$(ls "/usr/lib/$MULTIARCH/lib$name.a" 2>/dev/null || "${CXX:-clang++}" -print-file-name="lib$name.a")
  [ -f "$archive" ] || { echo "build-deployable.sh: no lib$name.a (install its -dev package)" >&2; exit 2; }
  ln -sf "$archive" "$LIBS/lib$name.a"
}

# simdjson as a static library, from Debian's source package of the installed libsimdjson-dev.
build_simdjson() {
  local version src=$PWD/$SCRATCH/simdjson apt=$PWD/$SCRATCH/apt
  version=$(dpkg-query -W -f '${source:Version}' libsimdjson-dev)
  [ -f "$src/$version/libsimdjson.a" ] && { ln -sf "$src/$version/libsimdjson.a" "$LIBS/libsimdjson.a"; return; }
  mkdir -p "$apt/lists/partial" "$src/$version"
  # A private source list and index, so that the machine's apt configuration is left as it is.
  local suite
  suite=$(. /etc/os-release && echo "$VERSION_CODENAME")
  echo "deb-src http://deb.debian.org/debian $suite main" >"$apt/sources.list"
  local options=(-q -o "Dir::Etc::SourceList=$apt/sources.list" -o Dir::Etc::SourceParts=/dev/null
    -o "Dir::State::Lists=$apt/lists")
  apt-get "${options[@]}" update >/dev/null
  (cd "$src/$version" && apt-get "${options[@]}" source --download-only "simdjson=$version" >/dev/null 2>&1)
  tar -xzf "$src/$version"/simdjson_*.orig.tar.gz -C "$src/$version" --wildcards '*/singleheader/simdjson.*'
  local single
  single=$(dirname "$(ls "$src/$version"/*/singleheader/simdjson.cpp)")
  cmp -s "$single/simdjson.h" /usr/include/simdjson.h ||
    { echo "build-deployable.sh: simdjson $version's source does not match /usr/include/simdjson.h" >&2; exit 2; }
  "${CXX:-clang++}" -std=c++17 -O3 -DNDEBUG -fPIC -c "$single/simdjson.cpp" -o "$src/$version/simdjson.o"
  ar rcs "$src/$version/libsimdjson.a" "$src/$version/simdjson.o"
  ln -sf "$src/$version/libsimdjson.a" "$LIBS/libsimdjson.a"
}

for name in z xxhash sqlite3 stdc++; do link_static "$name"; done
# zstd only when the package links it (a CZstd system library).
if grep -q '"CZstd"' Package.swift; then link_static zstd; fi
build_simdjson
for shim in arc4random glibc-2.35 glibc-2.23; do
  "${CC:-clang}" -O2 -fPIC -c "scripts/deployable/$shim.c" -o "$LIBS/$shim.o"
done

swift build -c release --product pullparity --scratch-path "$SCRATCH" --static-swift-stdlib \
  -Xlinker -L"$LIBS" -Xlinker "$LIBS/arc4random.o" -Xlinker "$LIBS/glibc-2.35.o" -Xlinker "$LIBS/glibc-2.23.o" \
  -Xlinker --no-as-needed -Xlinker -l:libpthread.so.0 -Xlinker -l:libdl.so.2 -Xlinker --as-needed -Xswiftc -static-stdlib -Xswiftc -Xclang-linker -Xswiftc -static-libgcc >&2
BINARY=$PWD/$SCRATCH/release/pullparity
echo "build-deployable.sh: what the binary still loads (glibc's):" >&2
ldd "$BINARY" >&2
echo "$BINARY"
