/// The HTML report's only style sheet, inlined: system fonts, no downloads. Colours are custom
/// properties so dark mode and the per-platform classes (`c0`…`c5`) change them in one place.
enum HTMLStyleSheet {
  static let css = """
    :root {
      color-scheme: light dark;
      --fg: #1f2328; --muted: #59636e; --bg: #ffffff; --panel: #f6f8fa; --line: #d1d9e0;
      --good: #1a7f37; --good-bg: #dafbe1; --bad: #cf222e; --bad-bg: #ffebe9; --span: #2da44e;
    }
    @media (prefers-color-scheme: dark) {
      :root {
        --fg: #e6edf3; --muted: #9198a1; --bg: #0d1117; --panel: #151b23; --line: #3d444d;
        --good: #3fb950; --good-bg: #12261e; --bad: #f85149; --bad-bg: #25171c; --span: #3fb950;
      }
    }
    .c0 { --c: #0969da; } .c1 { --c: #8250df; } .c2 { --c: #1a7f37; }
    .c3 { --c: #bc4c00; } .c4 { --c: #bf3989; } .c5 { --c: #57606a; }
    @media (prefers-color-scheme: dark) {
      .c0 { --c: #4493f8; } .c1 { --c: #ab7df8; } .c2 { --c: #3fb950; }
      .c3 { --c: #f0883e; } .c4 { --c: #db61a2; } .c5 { --c: #9198a1; }
    }
    * { box-sizing: border-box; }
    body {
      margin: 0; color: var(--fg); background: var(--bg);
      font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
      -webkit-text-size-adjust: 100%;
    }
    main { max-width: 1120px; margin: 0 auto; padding: 16px; }
    h1 { font-size: 1.6rem; margin: 0.2em 0; }
    h2 { font-size: 1.3rem; margin: 1.6em 0 0.3em; padding-top: 0.6em; border-top: 1px solid var(--line); }
    h3 { font-size: 1.05rem; margin: 1.4em 0 0.4em; }
    p { margin: 0.4em 0; }
    code { font: 0.9em ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; overflow-wrap: anywhere; }
    .meta, .note, figcaption small { color: var(--muted); }
    dl.context { display: grid; grid-template-columns: max-content 1fr; gap: 2px 12px; font-size: 0.85rem; color: var(--muted); margin: 8px 0; }
    dl.context dt { font-weight: 600; }
    dl.context dd { margin: 0; overflow-wrap: anywhere; }
    table.rules th[scope=row] { white-space: nowrap; }
    table.rules caption { text-align: left; color: var(--muted); font-size: 0.85rem; padding: 4px 0; }
    .verdict { padding: 10px 14px; border-radius: 8px; font-weight: 600; }
    .verdict.good { background: var(--good-bg); color: var(--good); }
    .verdict.bad { background: var(--bad-bg); color: var(--bad); }
    .verdict span { font-weight: 400; color: var(--fg); }
    nav { display: flex; flex-wrap: wrap; gap: 6px 14px; margin: 10px 0; }
    nav a { color: inherit; }
    .badge { display: inline-block; padding: 0 8px; border-radius: 999px; font-size: 0.8rem; font-weight: 600; vertical-align: middle; }
    .badge.good { background: var(--good-bg); color: var(--good); }
    .badge.bad { background: var(--bad-bg); color: var(--bad); }
    .badge.none { background: var(--panel); color: var(--muted); }
    .table-wrap {
      display: inline-block; max-width: 100%; vertical-align: top; overflow-x: auto; -webkit-overflow-scrolling: touch;
      border: 1px solid var(--line); border-radius: 8px;
    }
    table { border-collapse: collapse; font-variant-numeric: tabular-nums; font-size: 0.9rem; }
    th, td { padding: 5px 10px; text-align: right; white-space: nowrap; border-bottom: 1px solid var(--line); vertical-align: top; }
    thead th { background: var(--panel); }
    tbody tr:last-child > * { border-bottom: 0; }
    th:first-child { text-align: left; position: sticky; left: 0; background: var(--bg); font-weight: 500; }
    th[scope="row"] { white-space: normal; min-width: 9em; }
    thead th:first-child { background: var(--panel); }
    tr.failing > * { background: var(--bad-bg); }
    td .sub { display: block; color: var(--muted); font-size: 0.8em; }
    td.ok { color: var(--good); text-align: left; }
    td.fail { color: var(--bad); text-align: left; font-weight: 600; }
    td.na { color: var(--muted); text-align: left; }
    td.few-broken { color: var(--bad); text-align: left; white-space: normal; min-width: 12em; }
    .ref { color: var(--muted); font-weight: 400; font-size: 0.85em; }
    .charts { display: grid; grid-template-columns: repeat(auto-fill, minmax(min(100%, 400px), 1fr)); gap: 14px; margin-top: 8px; }
    .legend { margin-top: 12px; font-size: 0.85rem; }
    figure { margin: 0; padding: 10px 12px; border: 1px solid var(--line); border-radius: 8px; min-width: 0; }
    figcaption { margin-bottom: 6px; }
    figcaption .bad { color: var(--bad); font-weight: 600; }
    svg.chart-svg { display: block; width: 100%; height: auto; overflow: visible; }
    svg text { font-size: 11px; fill: var(--fg); font-family: inherit; }
    /* A halo in the page colour keeps labels legible where they cross grid lines and leaders. */
    svg .halo { paint-order: stroke; stroke: var(--bg); stroke-width: 3px; stroke-linejoin: round; }
    svg .tick, svg .muted { fill: var(--muted); }
    svg .pname { fill: var(--c); font-weight: 700; }
    svg .heading { font-weight: 600; }
    svg .heading.bad, svg .violation-label { fill: var(--bad); }
    svg .grid { stroke: var(--line); stroke-width: 0.6; }
    svg .axis { stroke: var(--muted); stroke-width: 1; }
    svg .threshold { stroke: var(--bad); stroke-width: 1.4; stroke-dasharray: 4 3; }
    svg .threshold-label { fill: var(--bad); font-size: 10.5px; }
    svg .threshold.near { stroke: var(--muted); stroke-dasharray: 2 3; }
    svg .box .iqr { fill: var(--c); fill-opacity: 0.22; stroke: var(--c); stroke-width: 1.2; }
    svg .box .median { stroke: var(--c); stroke-width: 3; }
    svg .box .whisker { stroke: var(--c); stroke-width: 1.2; }
    svg .dot { fill: var(--c); fill-opacity: 0.5; }
    svg .track { fill: var(--panel); }
    svg .bar { fill: var(--c); }
    svg .value { font-variant-numeric: tabular-nums; }
    svg .event { stroke: var(--fg); stroke-width: 1.5; }
    svg .event.minor { stroke: var(--muted); stroke-width: 1; opacity: 0.55; }
    svg .leader { stroke: var(--line); stroke-width: 0.8; }
    svg .event-label { font-size: 10.5px; }
    svg .span { fill: var(--span); fill-opacity: 0.16; }
    svg .violation { fill: var(--bad); }
    svg .trend { fill: none; stroke: var(--c); stroke-width: 2; stroke-linejoin: round; }
    svg .trend-dot { fill: var(--c); }
    svg .track-line { stroke: var(--line); stroke-width: 1; }
    svg .dumbbell { stroke: var(--muted); stroke-width: 3; }
    svg .dumbbell.bad { stroke: var(--bad); } svg .dumbbell.good { stroke: var(--good); }
    svg .before { fill: var(--bg); stroke: var(--fg); stroke-width: 1.5; }
    svg .after { fill: var(--muted); } svg .after.bad { fill: var(--bad); } svg .after.good { fill: var(--good); }
    svg .verdict-label.bad { fill: var(--bad); font-weight: 600; } svg .verdict-label.good { fill: var(--good); }
    .timeline .scroll { overflow-x: auto; -webkit-overflow-scrolling: touch; }
    .timeline svg.chart-svg { max-width: 920px; }
    .timeline ul { margin: 6px 0; padding-left: 1.2em; }
    .timeline .kind { color: var(--bad); font-weight: 600; }
    details { margin-top: 6px; }
    summary { cursor: pointer; color: var(--muted); }
    table.events td { text-align: left; white-space: normal; }
    table.events td:first-child { text-align: right; white-space: nowrap; }
    footer { margin: 2em 0 1em; color: var(--muted); font-size: 0.85rem; }
    @media (max-width: 600px) {
      body { font-size: 14px; }
      main { padding: 10px; }
      th, td { padding: 4px 7px; }
      /* A phone gets every column: each row is a card, each cell labelled with its column's name
         (data-label), the header a wrapped list of the columns. */
      .table-wrap { display: block; overflow: visible; border: 0; border-radius: 0; }
      .table-wrap table, .table-wrap thead, .table-wrap tbody, .table-wrap tr, .table-wrap td,
      .table-wrap th[scope="row"] { display: block; width: 100%; }
      .table-wrap caption { display: block; }
      .table-wrap thead tr { display: flex; flex-wrap: wrap; gap: 0 4px; }
      .table-wrap thead th { position: static; white-space: normal; border: 0; font-size: 0.8rem; color: var(--muted); background: none; }
      .table-wrap tbody tr { border: 1px solid var(--line); border-radius: 8px; margin: 6px 0; }
      .table-wrap th[scope="row"] { position: static; text-align: left; font-weight: 600; min-width: 0; border-bottom: 1px solid var(--line); }
      .table-wrap td { position: relative; padding: 3px 8px 3px 45%; text-align: left; white-space: normal; overflow-wrap: anywhere; border: 0; }
      .table-wrap td::before {
        content: attr(data-label); position: absolute; left: 8px; width: calc(45% - 16px);
        color: var(--muted); font-weight: 500; overflow-wrap: anywhere;
      }
      .table-wrap td:empty { display: none; }
    }
    @media print { .table-wrap, .timeline .scroll { overflow: visible; } }
    """
}
