"""The HTML report of the sample database, as a release review reads it: loaded from disk into
headless Chromium (Debian's chromedriver, given explicitly) at a phone's, a laptop's and a wide
desktop's width. Nothing may stick out of the page, every table cell must be on screen, every
failing rule of `report --format json` must have its bars, its days and an example session,
each app's newest version must be drawn against the previous one as `compare` judges them, and
a rate of a few percent must draw a bar one can see. A screenshot of the whole page is kept per
width (PULLPARITY_SCREENSHOT_DIR, else the test's temporary directory)."""

import base64
import json
import os
import re
from pathlib import Path

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service

from pullparity_cli import Pullparity

REPO = Path(__file__).resolve().parents[2]
WIDTHS = (390, 1280, 1920)
# A bar of a 1–5 % rate must be at least this wide on screen, at any width.
MIN_SMALL_BAR_PX = 6


@pytest.fixture(scope="module")
def sample(pullparity_bin, tmp_path_factory):
    """The sample logs ingested, and the report rendered as HTML and JSON at one pinned time."""
    directory = tmp_path_factory.mktemp("html-report")
    cli = Pullparity(pullparity_bin, directory / "samples.sqlite")
    cli.ingest(REPO / "sample-events")
    page = directory / "report.html"
    done = cli.run("report", "--format", "html", "--output", str(page))
    assert done.returncode in (0, 1), done.stderr
    done = cli.run("report", "--format", "json")
    assert done.returncode in (0, 1), done.stderr
    return cli, page, json.loads(done.stdout)


@pytest.fixture(scope="module")
def browser():
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu"):
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    yield driver
    driver.quit()


def failing_rules(report: dict) -> list[tuple[int, str, str, str]]:
    """(app index, app, platform, rule) of every rule a platform fails, from the JSON report."""
    found = []
    for index, app in enumerate(report["apps"]):
        for group in app["groups"]:
            for platform in group["platforms"]:
                for rule in platform["rules"]:
                    if rule["verdict"] == "fail":
                        found.append((index, app["app"], platform["platform"], rule["rule"]))
    return found


def version_key(version: str):
    """Dot-separated parts, numbers as numbers: 1.10 after 1.9."""
    return [(0, int(part), "") if part.isdigit() else (1, 0, part) for part in version.split(".")]


def release_pairs(cli: Pullparity) -> dict[tuple[str, str], tuple[str, str]]:
    """(app, platform) → (previous, newest) version, from the pulls in the database."""
    versions: dict[tuple[str, str], set[str]] = {}
    for app, platform, version in cli.query(
            "SELECT DISTINCT app, platform, app_version FROM sessions "
            "WHERE app_version IS NOT NULL AND \"trigger\" = 'pull'"):
        versions.setdefault((app, platform), set()).add(version)
    return {key: tuple(sorted(found, key=version_key)[-2:])
            for key, found in versions.items() if len(found) >= 2}


def load(driver, page: Path, width: int):
    """The page at exactly `width` CSS pixels (a phone's viewport at 390), details opened so
    the event tables are laid out too."""
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": width, "height": 900, "deviceScaleFactor": 1, "mobile": width < 600})
    driver.get(page.as_uri())
    driver.execute_script("document.querySelectorAll('details').forEach(d => d.open = true)")


def screenshot(driver, width: int, directory: Path) -> Path:
    """The whole page (up to 16,000 px tall) as a PNG."""
    size = driver.execute_cdp_cmd("Page.getLayoutMetrics", {})["cssContentSize"]
    shot = driver.execute_cdp_cmd("Page.captureScreenshot", {
        "format": "png", "captureBeyondViewport": True,
        "clip": {"x": 0, "y": 0, "width": width, "height": min(size["height"], 16000), "scale": 1}})
    path = directory / f"report-{width}.png"
    path.write_bytes(base64.b64decode(shot["data"]))
    return path


@pytest.mark.parametrize("width", WIDTHS)
def test_the_html_report_holds_the_release_review_at_every_width(sample, browser, width, tmp_path):
    cli, page, report = sample
    load(browser, page, width)
    assert browser.execute_script("return window.innerWidth") == width
    # What is left beside a desktop's vertical scroll bar.
    viewport = browser.execute_script("return document.documentElement.clientWidth")

    # No horizontal overflow of the page.
    scroll_width = browser.execute_script("return document.documentElement.scrollWidth")
    assert scroll_width <= viewport, f"the page is {scroll_width} px wide at {viewport} px"

    # The verdict comes first.
    first = browser.execute_script("return document.querySelector('main header .verdict').textContent")
    assert first.startswith("✗") or first.startswith("✓")

    # Every table header cell and every cell is within the viewport; at phone width each cell
    # names its column (the card layout), so no column is lost.
    cells = browser.execute_script("""
        return [...document.querySelectorAll('table th, table td')].map(c => {
          const r = c.getBoundingClientRect();
          return {tag: c.tagName, text: c.textContent.trim(), left: r.left, right: r.right,
                  width: r.width, label: c.dataset.label || null,
                  before: getComputedStyle(c, '::before').content};
        })""")
    shown = [c for c in cells if c["text"]]
    assert len(shown) > 500
    outside = [c for c in shown if c["left"] < -0.5 or c["right"] > viewport + 0.5 or c["width"] == 0]
    assert not outside, f"{len(outside)} cells off-screen at {width} px, e.g. {outside[:3]}"
    if width == 390:
        data = [c for c in shown if c["tag"] == "TD"]
        unlabelled = [c for c in data if c["label"] is None or c["before"] != json.dumps(c["label"], ensure_ascii=False)]
        assert not unlabelled, f"cells without their column's name: {unlabelled[:3]}"

    # Every chart fits the viewport.
    charts = browser.execute_script("""
        return [...document.querySelectorAll('svg.chart-svg')].map(s => {
          const r = s.getBoundingClientRect();
          return {id: s.dataset.chart, left: r.left, right: r.right};
        })""")
    assert [c for c in charts if c["left"] < -0.5 or c["right"] > viewport + 0.5] == []

    # Every failing rule: bars in its app's section, its days, an example session.
    rules = failing_rules(report)
    assert len(rules) >= 10
    for index, app, platform, rule in rules:
        where = f"{rule} of {app} on {platform} at {width} px"
        bars = browser.execute_script(
            "return [...document.querySelectorAll('#app-' + arguments[0] + ' rect.bar')]"
            ".filter(r => r.dataset.rule === arguments[1] && r.dataset.platform === arguments[2]).length",
            index, rule, platform)
        assert bars >= 1, f"no bar for {where}"
        trend = browser.execute_script(
            "return [...document.querySelectorAll('figure.trend')]"
            ".filter(f => f.dataset.app === arguments[0] && f.dataset.rule === arguments[1])"
            ".map(f => f.querySelector('svg').textContent)", app, rule)
        assert len(trend) == 1 and platform in trend[0], f"no trend for {where}"
        examples = browser.execute_script(
            "return [...document.querySelectorAll('figure.timeline')].filter(f => f.dataset.app === arguments[0]"
            " && f.dataset.platform === arguments[1] && f.dataset.rule === arguments[2]).length",
            app, platform, rule)
        assert examples == 1, f"{examples} example timelines for {where}"
    assert browser.execute_script("return document.querySelectorAll('figure.timeline').length") == len(rules)

    # Each app's newest version against the previous one, per platform, as compare judges it.
    pairs = release_pairs(cli)
    assert pairs, "the sample has apps with two versions"
    drawn = browser.execute_script("""
        return [...document.querySelectorAll('#releases figure.release')].map(f => ({
          app: f.dataset.app, platform: f.dataset.platform, baseline: f.dataset.baseline,
          candidate: f.dataset.candidate, marks: Number(f.querySelector('svg').dataset.marks),
          regressions: [...f.querySelectorAll('text.verdict-label')]
            .filter(t => t.textContent.includes('regression')).length}))""")
    assert {(d["app"], d["platform"]): (d["baseline"], d["candidate"]) for d in drawn} == pairs
    for release in drawn:
        done = cli.run("compare", "--app", release["app"], "--format", "json",
                       "--baseline", f"app_version={release['baseline']},platform={release['platform']}",
                       "--candidate", f"app_version={release['candidate']},platform={release['platform']}")
        assert done.returncode in (0, 1), done.stderr
        compared = json.loads(done.stdout)
        both = [m for m in compared["metrics"]
                if m["baseline"].get("value", m["baseline"].get("percent")) is not None
                and m["candidate"].get("value", m["candidate"].get("percent")) is not None]
        assert release["marks"] == 2 * len(both), release
        assert release["regressions"] == len(compared["regressions"]), release

    # A rate of a few percent draws a bar one can see.
    small = browser.execute_script("""
        return [...document.querySelectorAll('rect.bar[data-percent]')]
          .filter(r => Number(r.dataset.percent) >= 1 && Number(r.dataset.percent) <= 5)
          .map(r => ({percent: r.dataset.percent, rule: r.dataset.rule, width: r.getBoundingClientRect().width}))""")
    assert small, "the sample has rules broken by 1–5 % of sessions"
    assert [bar for bar in small if bar["width"] < MIN_SMALL_BAR_PX] == []

    keep = Path(os.environ.get("PULLPARITY_SCREENSHOT_DIR") or tmp_path)
    keep.mkdir(parents=True, exist_ok=True)
    png = screenshot(browser, width, keep).read_bytes()
    assert png.startswith(b"\x89PNG\r\n\x1a\n") and int.from_bytes(png[16:20], "big") == width


def large_log(path: Path, per_platform: int = 10_000) -> None:
    """Pulls of one app on two platforms, half of iOS's refreshes shown for less than the
    profile's hold: rates of five-digit counts (`50.0% (5000/10000)`), as a long history has."""
    with path.open("w") as out:
        for n in range(2 * per_platform):
            platform = "ios" if n % 2 else "android"
            shown = 600 if platform == "ios" and n % 4 == 1 else 1500
            t0 = 1_794_809_600_000 + n * 2_000
            steps = [("pull_start", 0, {}), ("pull_move", 16, {"distance": 30.0}), ("armed", 16, {"distance": 30.0}),
                     ("release", 60, {"distance": 40.0}), ("refresh_start", 70, {}), ("indicator_shown", 72, {}),
                     ("load_complete", 72 + shown - 20, {"ok": True}), ("indicator_hidden", 72 + shown, {})]
            for seq, (kind, at, extra) in enumerate(steps):
                out.write(json.dumps({"event_id": f"e{n}-{seq}", "session_id": f"s{n}", "ts": t0 + at, "seq": seq + 1,
                                      "platform": platform, "app": "scale", "type": kind, "screen": "Feed", **extra})
                          + "\n")


@pytest.fixture(scope="module")
def large(pullparity_bin, tmp_path_factory):
    """A report of 20,000 sessions (its app's profile holds the indicator 1,200 ms) as HTML."""
    directory = tmp_path_factory.mktemp("html-large")
    log, profiles = directory / "scale.jsonl", directory / "profiles.json"
    large_log(log)
    profiles.write_text(json.dumps({"profiles": [{"name": "scale", "min_hold_ms": 1200}]}))
    cli = Pullparity(pullparity_bin, directory / "scale.sqlite")
    done = cli.run("ingest", "--quiet", "--profiles", str(profiles), str(log))
    assert done.returncode == 0, done.stderr
    page = directory / "report.html"
    done = cli.run("report", "--format", "html", "--output", str(page))
    assert done.returncode in (0, 1), done.stderr
    assert "50.0% (5000/10000)" in page.read_text()
    return page


@pytest.mark.parametrize("width", WIDTHS)
def test_no_label_runs_past_its_chart(sample, large, browser, width):
    """Every text of every chart lies inside its chart: a label past the edge is covered by what
    comes next, and a rate of a long history (`100.0% (75626/75626)`) was cut to wrong numbers."""
    for page in (sample[1], large):
        load(browser, page, width)
        outside = browser.execute_script("""
            return [...document.querySelectorAll('svg.chart-svg text')].map(t => {
              const chart = t.closest('svg').getBoundingClientRect(), r = t.getBoundingClientRect();
              return {chart: t.closest('svg').dataset.chart, text: t.textContent,
                      past: Math.max(chart.left - r.left, r.right - chart.right, chart.top - r.top, r.bottom - chart.bottom)};
            }).filter(t => t.past > 0.5)""")
        assert outside == [], f"{len(outside)} labels past their chart at {width} px in {page.name}: {outside[:5]}"
        texts = browser.execute_script("return document.querySelectorAll('svg.chart-svg text').length")
        assert texts > 100


def test_every_cell_carries_its_columns_name(sample):
    """The phone layout prints each cell's column from its data-label: every cell with content
    has one, the same as its column's header."""
    _, page, _ = sample
    html = page.read_text()
    tables = re.findall(r"<table.*?</table>", html, flags=re.S)
    assert len(tables) > 15
    for table in tables:
        head, body = table.split("</thead>")
        headers = [re.sub(r"<span.*?</span>", "", h).strip()
                   for h in re.findall(r"<th scope=\"col\">(.*?)</th>", head, flags=re.S)]
        for row in re.findall(r"<tr[^>]*>(.*?)</tr>", body, flags=re.S):
            first = 1 if "<th scope=\"row\">" in row else 0
            labels = re.findall(r"<td data-label=\"(.*?)\"", row)
            assert labels == headers[first:first + len(labels)], row
            # Only empty cells go without a label (a count's blank comparison columns).
            assert row.count("<td") - len(labels) == row.count("<td></td>"), row
