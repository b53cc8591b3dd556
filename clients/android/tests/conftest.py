"""The Android recorder on the JVM: its build (clients/android/build.sh, once per run) and the
scripted gesture driver's output, shared by the suite's tests."""

import sys

import pytest

from android_driver import REPO, run_build

# The web suite's collector: the same one the reference PWA posts to.
sys.path.insert(0, str(REPO / "clients" / "web" / "tests"))

from event_server import EventServer  # noqa: E402


@pytest.fixture(scope="session")
def android_build() -> None:
    """Compiles the library and its tests unless nothing changed since the last build (Debian's
    `kotlin` and `junit4` packages)."""
    run_build()


@pytest.fixture(scope="session")
def scripted_apps(android_build, tmp_path_factory):
    """The driver's few hundred gestures on the faithful app and on each defective one, one
    folder each (a rotated log and plan.json). The faithful app also POSTs its lines to a
    collector that refuses the first POST."""
    out = tmp_path_factory.mktemp("scripted-apps")
    with EventServer(out / "collected.jsonl", fail_posts=1) as server:
        run_build("driver", "apps", str(out), "--post", f"{server.url}/events")
        collected = server.lines()
        failed_bodies = list(server.failed_bodies)
    return {"folder": out, "collected": collected, "failed_bodies": failed_bodies}
