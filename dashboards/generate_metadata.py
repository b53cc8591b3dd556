#!/usr/bin/env python3
"""Writes Datasette's metadata for a PullParity database from the schema documentation.

Titles, descriptions, units and "which way is better" come from schema/README.md (what
`pullparity schema` prints), so the dashboard says what the documentation says and cannot
drift from it; the canned queries and dashboard panels come from dashboards/panels.yaml.

    python3 dashboards/generate_metadata.py --database pullparity [--default-app padel] > metadata.json
"""

import argparse
import copy
import json
import re
import sys
from pathlib import Path

import yaml

HERE = Path(__file__).resolve().parent
SCHEMA_DOC = HERE.parent / "schema" / "README.md"
PANELS = HERE / "panels.yaml"

HEADING = re.compile(r"^### (\w+): (.+)$")


def parse_schema_doc(text: str) -> dict:
    """{name: {"title", "description", "hidden", "columns": {column: description}}} for every
    documented table and view: a `### name: title` heading under "## Tables" or "## Views", the
    paragraph after it, if any, and its first table."""
    objects = {}
    section = None
    current = None
    for line in text.splitlines():
        if line.startswith("## "):
            section = line[3:].strip()
            current = None
        elif section in ("Tables", "Views") and (match := HEADING.match(line)):
            current = {"title": match.group(2), "prose": [], "header": None, "rows": [], "state": "intro"}
            objects[match.group(1)] = current
        elif current is not None:
            read_section_line(current, line)
    return {name: finish(obj) for name, obj in objects.items()}


def read_section_line(obj: dict, line: str) -> None:
    """Keeps the first paragraph (until a blank line or the table) and the first table."""
    if line.startswith("|") and obj["state"] != "after table":
        obj["state"] = "table"
        add_table_line(obj, line)
    elif obj["state"] == "table":
        obj["state"] = "after table"
    elif obj["state"] == "intro" and line.strip():
        obj["prose"].append(line.strip())
    elif obj["state"] == "intro" and obj["prose"]:
        obj["state"] = "after intro"


def add_table_line(obj: dict, line: str) -> None:
    cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
    if obj["header"] is None:
        obj["header"] = [cell.lower() for cell in cells]
    elif set("".join(cells)) <= set("-: "):
        return  # the separator under the header
    elif cells[0] == "" and obj["rows"]:
        # A continuation: its cells extend the row above, column by column.
        previous = obj["rows"][-1]
        for index, cell in enumerate(cells):
            if cell:
                previous[index] = f"{previous[index]} {cell}".strip()
    else:
        obj["rows"].append(cells)


def finish(obj: dict) -> dict:
    columns = {}
    for cells in obj["rows"]:
        row = dict(zip(obj["header"], cells))
        columns[row["column"]] = describe(row)
    hidden = "internal" in obj["title"]
    title = obj["title"].replace("(internal)", "").replace(", internal", "").strip()
    # Backticks are Markdown; Datasette shows descriptions as plain (escaped) text.
    description = " ".join(obj["prose"]).replace("`", "") or title
    return {"title": title, "description": description, "hidden": hidden, "columns": columns}


def describe(row: dict) -> str:
    """The column's meaning, then its unit and direction: "mean visible time [ms; lower is better]"."""
    notes = []
    if row.get("unit"):
        notes.append(row["unit"])
    if row.get("better") in ("lower", "higher"):
        notes.append(f"{row['better']} is better")
    elif row.get("better") == "match":
        notes.append("should match the profile and every platform")
    meaning = row.get("meaning", "").replace("`", "")
    return f"{meaning} [{'; '.join(notes)}]" if notes else meaning


# Where serve.sh mounts dashboards/static (`datasette --static`): a name no database file takes.
STATIC_MOUNT = "pullparity-assets"


def metadata(objects: dict, database: str, default_app: str | None = None) -> dict:
    panels = yaml.safe_load(PANELS.read_text(encoding="utf-8"))
    tables = {}
    for name, obj in objects.items():
        # The name stays in the title: it is what a query names.
        entry = {"title": f"{name}: {obj['title']}", "description": obj["description"], "columns": obj["columns"]}
        if obj["hidden"]:
            entry["hidden"] = True
        tables[name] = entry
    dashboards = {}
    for slug, dashboard in panels["dashboards"].items():
        dashboard = copy.deepcopy(dashboard)
        for chart in dashboard["charts"].values():
            chart["db"] = database
        for flt in dashboard.get("filters", {}).values():
            flt["db"] = database
        if default_app:
            # The page opens on one app, never on a mix of them (the plugin redirects to it).
            dashboard["filters"]["app"]["default"] = default_app
        dashboards[slug] = dashboard
    return {
        "title": "PullParity",
        "description": "Pull-to-refresh parity across platforms; columns are described in schema/README.md.",
        "databases": {database: {"tables": tables, "queries": panels["queries"]}},
        # In every page's head, before the plugin's scripts: a panel whose query fails says so.
        "extra_js_urls": [f"/{STATIC_MOUNT}/panel-errors.js"],
        "plugins": {"datasette-dashboards": dashboards},
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database", required=True, help="Datasette's name of the file: its name without .sqlite")
    parser.add_argument("--default-app", help="the app the dashboard opens on (serve.sh: the one with the most sessions)")
    parser.add_argument("--schema-doc", type=Path, default=SCHEMA_DOC, help="the schema documentation to read")
    args = parser.parse_args()
    objects = parse_schema_doc(args.schema_doc.read_text(encoding="utf-8"))
    json.dump(metadata(objects, args.database, args.default_app), sys.stdout, indent=2, ensure_ascii=False)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
