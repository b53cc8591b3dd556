"""The shipped dashboard on the sample database: dashboards/serve.sh starts Datasette on loopback,
Chromium (headless, Debian's chromedriver) opens the dashboard, every panel draws its chart, and
the numbers behind the panels are those `pullparity report --format json` gives: its verdicts,
rates and percentiles. The page opens on one app, and a panel whose query fails says so."""

import json
import os
import signal
import socket
import sqlite3
import subprocess
import time
import urllib.parse
import urllib.request
from collections import defaultdict
from pathlib import Path

import pytest
import yaml
from datasette_dashboards import replace_opts_in_query
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.support.ui import WebDriverWait

import generate_metadata

REPO = Path(__file__).resolve().parents[1]
PANELS = yaml.safe_load((REPO / "dashboards" / "panels.yaml").read_text(encoding="utf-8"))
CHARTS = PANELS["dashboards"]["parity"]["charts"]
# Where the screenshot is kept: a test artifact, outside the repository's tracked files.
ARTIFACTS = Path(os.environ.get("PULLPARITY_ARTIFACTS") or REPO / ".build" / "test-artifacts")


def pullparity_bin() -> Path:
    binary = Path(os.environ.get("PULLPARITY_BIN") or REPO / ".build" / "debug" / "pullparity")
    assert binary.is_file(), f"no pullparity binary at {binary}: run `swift build` or set PULLPARITY_BIN"
    return binary


@pytest.fixture(scope="module")
def sample_db(tmp_path_factory) -> Path:
    binary = pullparity_bin()
    db = tmp_path_factory.mktemp("dash") / "pullparity.sqlite"
    inputs = sorted(str(p) for p in (REPO / "sample-events").iterdir() if p.name.endswith((".jsonl", ".gz")))
    subprocess.run([str(binary), "ingest", "--quiet", "--db", str(db), *inputs], check=True, capture_output=True)
    report = subprocess.run([str(binary), "report", "--format", "json", "--db", str(db)], capture_output=True,
                            text=True)
    assert report.returncode in (0, 1), report.stderr  # 1: a rule failed, which the sample has
    (db.parent / "report.json").write_text(report.stdout)
    return db


@pytest.fixture(scope="module")
def report(sample_db) -> dict:
    return json.loads((sample_db.parent / "report.json").read_text())


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def server(sample_db):
    yield from serving(sample_db)


def serving(db: Path):
    """serve.sh in its own process group, so that the test stops it and its Datasette together."""
    port = free_port()
    process = subprocess.Popen([str(REPO / "dashboards" / "serve.sh"), str(db), "--port", str(port)],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(300):
            try:
                urllib.request.urlopen(base + "/-/versions.json", timeout=1).read()
                break
            except OSError:
                assert process.poll() is None, process.stdout.read().decode()
                time.sleep(0.1)
        yield base
        # SIGTERM to serve.sh alone stops its Datasette too (a user's `kill`), which then answers no more.
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=30)
        with pytest.raises(OSError):
            urllib.request.urlopen(base + "/-/versions.json", timeout=1)
    finally:
        try:
            os.killpg(process.pid, signal.SIGTERM)  # whatever is left after a failure
        except ProcessLookupError:
            pass
        process.wait(timeout=30)


def get_json(url: str):
    with urllib.request.urlopen(url, timeout=30) as response:
        return json.load(response)


def panel_rows(server: str, chart: str, app: str) -> list[dict]:
    """A panel's rows as the page fetches them: the plugin's filter applied, then Datasette's JSON."""
    sql = replace_opts_in_query(CHARTS[chart]["query"], {"app": app})
    query = urllib.parse.urlencode({"sql": sql, "app": app, "_shape": "objects"})
    return get_json(f"{server}/pullparity.json?{query}")["rows"]


# --- the metadata ---------------------------------------------------------------------------------

def test_metadata_describes_every_table_view_and_column_of_the_file(sample_db):
    docs = generate_metadata.parse_schema_doc((REPO / "schema" / "README.md").read_text(encoding="utf-8"))
    tables = generate_metadata.metadata(docs, "pullparity")["databases"]["pullparity"]["tables"]
    with sqlite3.connect(sample_db) as conn:
        names = [r[0] for r in conn.execute(
            "SELECT name FROM sqlite_master WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite_%'")]
        assert len(names) == 34
        for name in names:
            assert name in tables, f"{name} has no `### {name}:` section with a table in schema/README.md"
            columns = [r[1] for r in conn.execute(f"PRAGMA table_info({name})")]
            described = tables[name]["columns"]
            assert set(columns) == set(described), f"{name}: the file has {columns}, the docs {list(described)}"
            assert all(described.values()), f"{name}: a column without a meaning"
    assert set(tables) == set(names), "the docs describe a table the file does not have"


def test_metadata_hides_bookkeeping_and_says_units_and_direction():
    docs = generate_metadata.parse_schema_doc((REPO / "schema" / "README.md").read_text(encoding="utf-8"))
    shown = sorted(name for name, table in docs.items() if not table["hidden"])
    assert shown == ["daily_counts", "daily_parity", "daily_violations", "gate_verdicts", "ingest_runs",
                     "left_event_runs", "metric_percentiles", "percentile_inputs", "profiles", "quarantine",
                     "quarantine_summary", "retention_runs", "session_violations", "sessions",
                     "sessions_without_raw", "sources", "violation_counts", "violations"]
    assert docs["daily_parity"]["columns"]["flash_pct"] == "flash_rate × 100, rounded [%; lower is better]"
    assert docs["daily_parity"]["columns"]["hold_compliance_pct"].endswith("[%; higher is better]")
    assert docs["sessions"]["columns"]["load_ms"].endswith("[ms; lower is better]")
    assert docs["sessions"]["title"] == "one row per session (derived)"
    assert docs["sessions"]["description"].startswith("A session is one interaction, from pull_start")
    assert docs["session_blocks"]["title"] == "where a session's events are"


# --- the server -----------------------------------------------------------------------------------

def test_the_views_and_dashboard_answer_and_facet_suggestions_are_off(server):
    settings = get_json(server + "/-/settings.json")
    assert settings["suggest_facets"] is False
    for view in ("daily_parity", "violation_counts", "percentile_inputs", "session_violations",
                 "quarantine_summary"):
        page = get_json(f"{server}/pullparity/{view}.json")
        assert page["rows"], view
        assert not page.get("suggested_facets"), view


def test_a_session_comes_back_with_each_of_its_findings(server, sample_db):
    with sqlite3.connect(sample_db) as conn:
        session_id, outcome, findings = conn.execute(
            "SELECT s.session_id, s.outcome, count(v.session_ref) FROM sessions s "
            "JOIN violations v USING (session_ref) GROUP BY s.session_ref ORDER BY count(*) DESC LIMIT 1").fetchone()
        kinds = [k for (k,) in conn.execute(
            "SELECT kind FROM violations v JOIN sessions s USING (session_ref) WHERE s.session_id = ? "
            "ORDER BY ordinal", (session_id,))]
    assert findings >= 2
    rows = get_json(f"{server}/pullparity/session_findings.json?"
                    + urllib.parse.urlencode({"session_id": session_id, "_shape": "objects"}))["rows"]
    assert [r["kind"] for r in rows] == kinds
    assert {(r["session_id"], r["outcome"]) for r in rows} == {(session_id, outcome)}


def test_rates_per_day_panels_add_up_to_the_reports_rates(server, report):
    for app in report["apps"]:
        rows = panel_rows(server, "flash", app["app"])
        got = defaultdict(lambda: [0, 0])
        for row in rows:
            for rule, n, d in (("flash", "flash", "flash_judged"), ("stuck_refresh", "stuck", "stuck_judged"),
                               ("dropped_refresh", "dropped", "dropped_judged"),
                               ("hold_compliance", "hold_compliant", "hold_judged")):
                got[row["series"], rule][0] += row[n]
                got[row["series"], rule][1] += row[d]
                pct = f"{rule.split('_')[0]}_pct" if rule != "hold_compliance" else "hold_compliance_pct"
                want = round(100.0 * row[n] / row[d], 2) if row[d] else None
                assert row[pct] == want, (app["app"], row)
        assert got == expected_rates(app), app["app"]


def series(app: str, platform: str) -> str:
    """How every panel names a line or bar: an app and a platform, so that apps are never mixed."""
    return f"{app} · {platform}"


def expected_rates(app: dict) -> dict:
    """The report's numerators and denominators per platform, summed over its groups (triggers):
    flash and hold compliance from `rates`, stuck and dropped refreshes from their rules."""
    want = defaultdict(lambda: [0, 0])
    for group in app["groups"]:
        for platform in group["platforms"]:
            rates = {"flash": platform["rates"]["flash_rate"],
                     "hold_compliance": platform["rates"]["hold_compliance_rate"]}
            rates |= {r["rule"]: r["rate"] for r in platform["rules"]
                      if r["rule"] in ("stuck_refresh", "dropped_refresh")}
            for rule, rate in rates.items():
                want[series(app["app"], platform["platform"]), rule][0] += rate["numerator"]
                want[series(app["app"], platform["platform"]), rule][1] += rate["denominator"]
    return want


def test_percentile_panels_are_the_reports_percentiles(server, report):
    compared = 0
    for app in report["apps"]:
        rows = {(r["series"], r["metric"], r["percentile"]): r for r in panel_rows(server, "arm-percentiles",
                                                                                      app["app"])}
        pull = [g for g in app["groups"] if g["value"] == "pull"]
        for platform in pull[0]["platforms"]:
            for metric in ("time_to_arm_ms", "visible_ms"):
                dist = platform["distributions"][metric]
                for p in ("p50", "p90", "p95"):
                    key = (series(app["app"], platform["platform"]), metric, p)
                    if dist[p] is None:
                        assert key not in rows
                        continue
                    row = rows[key]
                    assert row["sessions"] == dist["n"]
                    assert row["ms"] == pytest.approx(dist[p], abs=0.01), (app["app"], platform["platform"], p)
                    compared += 1
    assert compared >= 20


# --- the browser ----------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def browser():
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                     "--window-size=1280,3100"):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    yield driver
    driver.quit()


def drawn_charts(driver) -> dict:
    """Per panel: whether its Vega view drew an SVG with marks in it."""
    return driver.execute_script("""
        const out = {};
        for (const el of document.querySelectorAll('.dashboard-card-chart')) {
          const svg = el.querySelector('svg.marks');
          out[el.id.replace('chart-', '')] = !!svg && svg.querySelectorAll('path, rect, line, .mark-text text').length > 0;
        }
        return out;""")


@pytest.mark.parametrize("app", ["", "padel"])
def test_every_panel_draws_its_chart_in_chromium(server, browser, app):
    browser.get_log("browser")  # drop what an earlier page logged
    # `?app=`: every app, chosen (the page opens on one), each series still one app's.
    browser.get(f"{server}/-/dashboards/parity?app={app}")
    WebDriverWait(browser, 30).until(lambda d: all(drawn_charts(d).values()) and len(drawn_charts(d)) == len(CHARTS))
    assert set(drawn_charts(browser)) == set(CHARTS)
    errors = [e for e in browser.get_log("browser") if e["level"] == "SEVERE"]
    assert not errors, errors
    # Each chart's vega-embed error box stays empty, and no panel asks for a CDN.
    assert not browser.find_elements("css selector", ".vega-embed .error, .chart-error")
    sources = browser.execute_script("return [...document.scripts].map(s => s.src).filter(Boolean)")
    assert all(src.startswith(server) for src in sources), sources
    if not app:
        # The window is tall enough for the whole dashboard, so the screenshot needs no resize
        # (after which the charts would have to be waited for again).
        assert browser.execute_script("return document.body.scrollHeight <= window.innerHeight")
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        browser.save_screenshot(str(ARTIFACTS / "dashboard.png"))


def drawn_values(driver, chart: str, *fields: str) -> list[dict]:
    """The values a chart drew, from the ARIA labels Vega gives each mark ("UTC day: …; flash %:
    …"): those of its points and bars, which name every field (a line names only its colour)."""
    labels = driver.execute_script(
        "return [...document.querySelectorAll(arguments[0])].map(e => e.getAttribute('aria-label'))",
        f"#chart-{chart} svg.marks [aria-label]")
    marks = []
    for label in dict.fromkeys(labels):  # a line's points and its path repeat one another
        mark = dict(part.split(": ", 1) for part in label.split("; ") if ": " in part)
        if all(field in mark for field in fields):
            marks.append(mark)
    return marks


def number(text: str) -> float:
    return float(text.replace(",", "").replace("−", "-"))


def test_the_charts_draw_the_reports_numbers(server, browser, report):
    """Per app: each rate chart draws one point per day and platform at the percentage of the
    panel's numerator and denominator (which add up to the report's, above), and the percentile
    charts draw the report's p50, p90 and p95."""
    for app in report["apps"]:
        browser.get(f"{server}/-/dashboards/parity?app={app['app']}")
        WebDriverWait(browser, 30).until(lambda d: all(drawn_charts(d).values()) and len(drawn_charts(d)) == len(CHARTS))
        rows = panel_rows(server, "flash", app["app"])
        for chart, field, title in (("flash", "flash_pct", "flash %"), ("stuck", "stuck_pct", "stuck %"),
                                    ("dropped", "dropped_pct", "dropped %"),
                                    ("hold", "hold_compliance_pct", "hold compliant %")):
            drawn = {(m["UTC day"], m["app · platform"]): number(m[title])
                     for m in drawn_values(browser, chart, "UTC day", "app · platform", title)}
            want = {(r["day"], r["series"]): r[field] for r in rows if r[field] is not None}
            assert want and drawn == want, (app["app"], chart)
        pull = next(g for g in app["groups"] if g["value"] == "pull")
        for chart, metric in (("arm-percentiles", "time_to_arm_ms"), ("visible-percentiles", "visible_ms")):
            drawn = {(m["percentile"], m["app · platform"]): number(m["ms"])
                     for m in drawn_values(browser, chart, "percentile", "app · platform", "ms")}
            want = {(p, series(app["app"], platform["platform"])): platform["distributions"][metric][p]
                    for platform in pull["platforms"] for p in ("p50", "p90", "p95")
                    if platform["distributions"][metric][p] is not None}
            assert want and drawn.keys() == want.keys(), (app["app"], chart)
            for key, value in want.items():
                assert drawn[key] == pytest.approx(value, abs=0.01), (app["app"], chart, key)


# --- verdicts, the default view, a failing query --------------------------------------------------

def lines_of(sample: Path, keep) -> list[str]:
    """The JSON lines of a sample log that `keep(event)` keeps (and maybe edits)."""
    out = []
    for line in sample.read_text(encoding="utf-8").splitlines():
        if line.startswith("{") and (event := keep(json.loads(line))):
            out.append(json.dumps(event))
    return out


@pytest.fixture(scope="module")
def verdict_db(tmp_path_factory, sample_db) -> Path:
    """A file where each verdict shows: ffci's iOS app fails (the sample's), padel's PWA passes
    (only its sessions without a finding), and an app with three sessions has too few."""
    with sqlite3.connect(sample_db) as conn:
        clean = {r[0] for r in conn.execute(
            "SELECT session_id FROM sessions WHERE app = 'padel' AND platform = 'pwa' AND violation_count = 0")}
    firsts: list[str] = []

    def tiny(event: dict) -> dict | None:
        if event["session_id"] not in firsts:
            if len(firsts) == 3:
                return None
            firsts.append(event["session_id"])
        return event | {"app": "tiny", "event_id": "tiny-" + event["event_id"]}

    folder = tmp_path_factory.mktemp("verdicts")
    lines = lines_of(REPO / "sample-events" / "padel-pwa.jsonl", lambda e: e if e["session_id"] in clean else None)
    lines += lines_of(REPO / "sample-events" / "phlock-ios.jsonl", tiny)
    (folder / "mixed.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    db = folder / "pullparity.sqlite"
    subprocess.run([str(pullparity_bin()), "ingest", "--quiet", "--db", str(db), str(folder / "mixed.jsonl"),
                    str(REPO / "sample-events" / "ffci-ios.jsonl.gz")], check=True, capture_output=True)
    return db


def gate_verdicts(check: dict) -> dict:
    """Each app's platform as `report --check --format json` judges it, read here from its figures:
    fail when one of its rules, or a comparison of it with the reference platform, failed in any
    group (with how many failed); pass when a figure passed and none failed; too_few otherwise."""
    verdicts = defaultdict(list)
    for app in check["apps"]:
        for group in app["groups"]:
            for platform in group["platforms"]:
                verdicts[app["app"], platform["platform"]] += [rule["verdict"] for rule in platform["rules"]]
            for comparison in group["comparisons"]:
                verdicts[app["app"], comparison["platform"]].append(comparison["verdict"])
    return {key: ("fail", found.count("fail")) if "fail" in found else ("pass", 0) if "pass" in found
            else ("too_few", 0) for key, found in verdicts.items()}


def drawn_verdicts(driver) -> dict:
    """The verdict panel's lines, read back: {(app, platform): (verdict, failing figures)}."""
    words = {"FAIL": "fail", "PASS": "pass", "NO VERDICT": "too_few"}
    drawn = {}
    for line in driver.execute_script(
            "return [...document.querySelectorAll('#chart-verdicts svg .mark-text text')].map(t => t.textContent)"):
        name, said = line.split(": ", 1)
        app, platform = name.split(" · ")
        word = next(w for w in words if said.startswith(w))
        failing = int(said.split(", ")[1].split(" ")[0]) if word == "FAIL" else 0
        drawn[app, platform] = (words[word], failing)
    return drawn


def test_the_verdict_panel_says_what_report_check_says(verdict_db, browser):
    run = subprocess.run([str(pullparity_bin()), "report", "--check", "--format", "json", "--db", str(verdict_db)],
                         capture_output=True, text=True)
    assert run.returncode == 1, run.stderr  # ffci fails
    want = gate_verdicts(json.loads(run.stdout))
    assert sorted(v for v, _ in want.values()) == ["fail", "pass", "too_few"]
    for base in serving(verdict_db):
        drawn = {}
        for app in sorted({app for app, _ in want}):
            browser.get(f"{base}/-/dashboards/parity?app={app}")
            WebDriverWait(browser, 30).until(lambda d: all(drawn_charts(d).values()) and len(drawn_charts(d)) == len(CHARTS))
            shown = drawn_verdicts(browser)
            assert {a for a, _ in shown} == {app}  # one app, never a mix
            drawn |= shown
        assert drawn == want


def test_the_dashboard_opens_on_the_app_with_the_most_sessions(server, browser, sample_db):
    with sqlite3.connect(sample_db) as conn:
        busiest = conn.execute("SELECT app FROM sessions GROUP BY app ORDER BY count(*) DESC LIMIT 1").fetchone()[0]
    browser.get(f"{server}/-/dashboards/parity")
    WebDriverWait(browser, 30).until(lambda d: all(drawn_charts(d).values()) and len(drawn_charts(d)) == len(CHARTS))
    assert browser.current_url.endswith("?" + urllib.parse.urlencode({"app": busiest}))
    assert browser.execute_script("return document.getElementById('app').value") == busiest
    named = set()
    for chart in CHARTS:
        if chart != "quarantine":  # lines of files, no app's
            named |= {m["app · platform"].split(" · ")[0] for m in drawn_values(browser, chart, "app · platform")}
    named |= {app for app, _ in drawn_verdicts(browser)}
    assert named == {busiest}


def test_a_panel_whose_query_fails_says_so(tmp_path, sample_db, browser):
    """A file that lacks a table a panel reads (here the percentiles): those panels say which
    query failed and why, as text, and the others draw."""
    db = tmp_path / "pullparity.sqlite"
    with sqlite3.connect(sample_db) as source, sqlite3.connect(db) as copy:
        source.backup(copy)
        copy.execute("DROP TABLE metric_percentiles")
    for base in serving(db):
        browser.get(f"{base}/-/dashboards/parity")
        failing = {"arm-percentiles", "visible-percentiles"}
        WebDriverWait(browser, 30).until(
            lambda d: len(d.find_elements("css selector", ".pullparity-query-failed")) == len(failing))
        for chart in failing:
            said = browser.find_element("css selector", f"#chart-{chart} .pullparity-query-failed").text
            assert said == "This panel's query failed: no such table: metric_percentiles"
        drawn = drawn_charts(browser)
        assert all(drawn[chart] for chart in set(CHARTS) - failing), drawn


# --- hostile names from logs ----------------------------------------------------------------------

HOSTILE = {"padel": '<img src=x onerror="window.pwned=1">', "3.8.0": "</script><script>window.pwned=2</script>"}
# A platform must be a lowercase token: a line with this one is quarantined, reason and raw line kept.
HOSTILE_PLATFORM = "<b id=bold>pwa</b>"


@pytest.fixture(scope="module")
def hostile_db(tmp_path_factory) -> Path:
    """The sample's padel PWA sessions with markup for app and app version names, and a line with
    markup for a platform."""
    folder = tmp_path_factory.mktemp("hostile")
    lines = []
    for line in (REPO / "sample-events" / "padel-pwa.jsonl").read_text(encoding="utf-8").splitlines():
        if not line.startswith("{"):
            continue  # the sample's few non-JSON lines, for the quarantine
        event = json.loads(line)
        for field in ("app", "platform", "app_version"):
            if event.get(field) in HOSTILE:
                event[field] = HOSTILE[event[field]]
        lines.append(json.dumps(event))
    lines.append(json.dumps(event | {"event_id": "hostile-platform", "platform": HOSTILE_PLATFORM}))
    (folder / "hostile.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    db = folder / "hostile.sqlite"
    subprocess.run([str(pullparity_bin()), "ingest", "--quiet", "--db", str(db), str(folder / "hostile.jsonl")],
                   check=True, capture_output=True)
    return db


def test_names_from_logs_are_shown_as_text_never_as_markup(hostile_db, browser):
    version = f"{HOSTILE['padel']} {HOSTILE['3.8.0']}"
    for base in serving(hostile_db):
        for page in ("/-/dashboards/parity", "/-/dashboards/parity?" + urllib.parse.urlencode({"app": HOSTILE["padel"]}),
                     "/hostile/sessions", "/hostile/daily_parity", "/hostile/quarantine",
                     "/hostile/rates_per_version?app="):
            browser.get(base + page)
            if "dashboards" in page:
                WebDriverWait(browser, 30).until(lambda d: all(drawn_charts(d).values()))
                labels = browser.execute_script(
                    "return [...document.querySelectorAll('#chart-versions svg text')].map(t => t.textContent)")
                # Drawn as its text (Vega shortens a long axis label with an ellipsis).
                assert any(label.rstrip("…") and version.startswith(label.rstrip("…")) for label in labels), labels
            else:
                shown = browser.find_element("css selector", "body").text
                assert HOSTILE["padel"] in shown or HOSTILE_PLATFORM in shown, page
            assert browser.execute_script("return window.pwned === undefined"), page
            assert not browser.find_elements("css selector", "#bold, img[src=x]"), page


def test_serve_says_what_is_wrong_with_its_arguments(tmp_path, sample_db):
    serve = str(REPO / "dashboards" / "serve.sh")
    missing = subprocess.run([serve, str(tmp_path / "none.sqlite")], capture_output=True, text=True, timeout=30)
    assert missing.returncode == 2 and "no such database file" in missing.stderr
    unknown = subprocess.run([serve, str(sample_db), "--prot", "1"], capture_output=True, text=True, timeout=30)
    assert unknown.returncode == 2 and unknown.stderr.startswith("usage:")
