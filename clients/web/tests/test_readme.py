"""README's "Web (PWA)" shows the reference PWA's own code: every JavaScript block in it is
copied from reference/app.js, and those of "Libraries that only give onRefresh" from
reference/callback-only.js, which the browser tests drive, so the README cannot drift from code
that works."""

import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]


def section(heading: str) -> str:
    """From the `### ` heading to the next heading of either level."""
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    start = readme.index(f"### {heading}\n")
    ends = [readme.find(mark, start + 1) for mark in ("\n### ", "\n## ")]
    return readme[start:min(end for end in ends if end != -1)]


def web_section() -> str:
    return section("Web (PWA)")


def test_every_javascript_block_of_the_web_section_is_the_reference_pwas_code():
    app = (REPO / "clients" / "web" / "reference" / "app.js").read_text(encoding="utf-8")
    blocks = re.findall(r"```js\n(.*?)```", web_section(), flags=re.S)
    assert len(blocks) == 3
    for block in blocks:
        assert block in app, f"README block not found in app.js:\n{block}"


def test_the_web_section_comes_first_in_instrument_your_app():
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    section = readme.index("## Instrument your app\n")
    assert readme.index("### Web (PWA)\n") < readme.index("### iOS and other Swift apps\n")
    assert readme.index("\n### ", section) == readme.index("\n### Web (PWA)\n")


def test_the_on_refresh_recipe_for_the_web_is_the_callback_only_pages_code():
    page = (REPO / "clients" / "web" / "reference" / "callback-only.js").read_text(encoding="utf-8")
    blocks = re.findall(r"```js\n(.*?)```", section("Libraries that only give `onRefresh`"), flags=re.S)
    assert len(blocks) == 1
    assert blocks[0] in page, f"README block not found in callback-only.js:\n{blocks[0]}"
    assert "refreshStart('pull', { gestureObserved: false })" in blocks[0]
