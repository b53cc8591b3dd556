"""docs/instrumenting.md's "Web (PWA)" shows the reference PWA's own code: every JavaScript block
in it is copied from reference/app.js, and those of "Libraries that only give onRefresh" from
reference/callback-only.js and reference/spinner-first.js, which the browser tests drive, so the
documentation cannot drift from code that works. The README, which sends a newcomer there, links it."""

import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]
DOC = REPO / "docs" / "instrumenting.md"


def section(heading: str) -> str:
    """From the `## ` heading to the next heading of either level."""
    doc = DOC.read_text(encoding="utf-8")
    start = doc.index(f"## {heading}\n")
    ends = [doc.find(mark, start + 1) for mark in ("\n## ", "\n# ")]
    return doc[start:min([end for end in ends if end != -1] + [len(doc)])]


def web_section() -> str:
    return section("Web (PWA)")


def test_every_javascript_block_of_the_web_section_is_the_reference_pwas_code():
    app = (REPO / "clients" / "web" / "reference" / "app.js").read_text(encoding="utf-8")
    blocks = re.findall(r"```js\n(.*?)```", web_section(), flags=re.S)
    assert len(blocks) == 3
    for block in blocks:
        assert block in app, f"docs/instrumenting.md block not found in app.js:\n{block}"


def test_the_web_section_comes_first_in_instrument_your_app():
    doc = DOC.read_text(encoding="utf-8")
    title = doc.index("# Instrument your app\n")
    assert doc.index("## Web (PWA)\n") < doc.index("## iOS and other Swift apps\n")
    assert doc.index("\n## ", title) == doc.index("\n## Web (PWA)\n")
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert "](docs/instrumenting.md" in readme[readme.index("## Instrument your app\n"):]


def test_the_on_refresh_recipes_for_the_web_are_the_callback_only_pages_code():
    reference = REPO / "clients" / "web" / "reference"
    blocks = re.findall(r"```js\n(.*?)```", section("Libraries that only give `onRefresh`"), flags=re.S)
    assert len(blocks) == 2
    # The callback's recipe, then the spinner's, for a library that shows it first.
    for block, page in zip(blocks, ("callback-only.js", "spinner-first.js")):
        assert block in (reference / page).read_text(encoding="utf-8"), \
            f"docs/instrumenting.md block not found in {page}:\n{block}"
    assert "refreshStart('pull', { gestureObserved: false })" in blocks[0]
    assert "watchIndicator(recorder, {" in blocks[1]
