"""README's "Web (PWA)" shows the reference PWA's own code: every JavaScript block in it is
copied from reference/app.js, which the browser tests drive, so the README cannot drift from
code that works."""

import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]


def web_section() -> str:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    start = readme.index("### Web (PWA)\n")
    return readme[start:readme.index("\n### ", start + 1)]


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
