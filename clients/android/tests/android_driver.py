"""Runs the Android recorder's build script and reads what its gesture driver wrote."""

import json
import subprocess
from pathlib import Path

ANDROID = Path(__file__).resolve().parents[1]
REPO = ANDROID.parents[1]


def run_build(*args: str, timeout: float = 600) -> subprocess.CompletedProcess:
    """clients/android/build.sh with `args`: compiles if a source changed, then runs the step."""
    done = subprocess.run([str(ANDROID / "build.sh"), *args], capture_output=True, text=True, timeout=timeout)
    assert done.returncode == 0, f"build.sh {' '.join(args)} failed ({done.returncode}):\n{done.stdout}\n{done.stderr}"
    return done


def plan(folder: Path) -> list[dict]:
    """The sessions the driver played into `folder`, in order, with what ingest must derive."""
    return json.loads((folder / "plan.json").read_text(encoding="utf-8"))
