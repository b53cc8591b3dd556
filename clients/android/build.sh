#!/usr/bin/env bash
# Builds the Android recorder as plain Kotlin on the JVM (Debian's `kotlin` 1.3 and `junit4`; no
# Android SDK) and runs its tests. Compiles only when a source changed since the last build.
#
#   clients/android/build.sh                compile build/pullparity-recorder.jar and the tests
#   clients/android/build.sh test           ... then run every JUnit test; the last line is
#                                           `JUnit: N passed, N failed` (exit 1 on a failure)
#   clients/android/build.sh driver ARGS    run the scripted gesture driver (ScriptedGestureDriver.kt)
#   clients/android/build.sh golden         print the fixed gesture's lines (clients/fixtures/)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
build="$here/build"
library="$build/pullparity-recorder.jar"
tests="$build/test-classes"
junit=/usr/share/java/junit4.jar:/usr/share/java/hamcrest-core.jar
# The JVM's quick compiler only and one GC thread, for kotlinc (it reads JAVA_OPTS) and every
# `java` below: their runs are too short for the optimizing compiler to pay back its CPU. A cold
# `build.sh test` took 30-33 CPU-s and 23 s instead of 65 CPU-s and 35 s on a 2-core machine.
jvm_options=(-XX:TieredStopAtLevel=1 -XX:+UseSerialGC)
export JAVA_OPTS="${JAVA_OPTS:-${jvm_options[*]}}"
classpath="$library:$tests:/usr/share/java/kotlin-stdlib.jar:$junit"

# kotlinc's launcher passes -noverify, which JDK 13+ warns about on every run: keep that line out.
kotlinc_quiet() {
  local out
  if ! out=$(kotlinc -Werror -jvm-target 1.8 "$@" 2>&1); then
    printf '%s\n' "$out" | grep -v 'Xverify:none' >&2
    return 1
  fi
  printf '%s\n' "$out" | grep -v 'Xverify:none' || true
}

compile() {
  mkdir -p "$build"
  # One build at a time (the test step and the pytest suite may both ask for it).
  exec 9>"$build/.lock"
  flock 9
  local stamp="$build/.stamp"
  if [[ -f "$stamp" && -z "$(find "$here/src" "$0" -newer "$stamp" -print -quit)" ]]; then
    return
  fi
  rm -rf "$library" "$tests"
  echo "kotlinc: the library (src/main) and its tests (src/test)" >&2
  kotlinc_quiet -d "$library" "$here/src/main/kotlin"
  # The tests see the library's internals (the JSON writer, the file sink's channel opener).
  kotlinc_quiet -cp "$library:$junit" -Xfriend-paths="$library" -d "$tests" "$here/src/test/kotlin"
  touch "$stamp"
}

compile
case "${1:-}" in
  "") ;;
  test)
    classes=$(cd "$tests" && find . -name '*Test.class' ! -name '*$*' | sed 's|^\./||; s|\.class$||; s|/|.|g' | sort)
    exec java "${jvm_options[@]}" -Dpullparity.repo="$repo" -cp "$classpath" dev.pullparity.recorder.TestMain $classes
    ;;
  driver)
    shift
    exec java "${jvm_options[@]}" -cp "$classpath" dev.pullparity.recorder.ScriptedGestureDriver "$@"
    ;;
  golden)
    exec java "${jvm_options[@]}" -cp "$classpath" dev.pullparity.recorder.ScriptedGestureDriver golden
    ;;
  *)
    echo "usage: $0 [test | driver ARGS | golden]" >&2
    exit 2
    ;;
esac
