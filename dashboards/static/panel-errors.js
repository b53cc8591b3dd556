// A panel whose query fails says so. datasette-dashboards fetches each panel's rows and hands
// them to Vega without looking at the answer: a failed query (an SQL error, Datasette's time
// limit, a table a file from an older schema lacks) came back as `{ok: false, error}` and was
// drawn as an empty chart, indistinguishable from "no data". This script, loaded in the page's
// head before the plugin's, turns such an answer into one row that carries the error, and has
// vegaEmbed write that error on the panel, as text, instead of drawing.
(function () {
  'use strict'
  const FAILED = '__pullparity_query_failed'

  const originalFetch = window.fetch.bind(window)
  window.fetch = async function (resource, options) {
    const response = await originalFetch(resource, options)
    const url = String(resource instanceof Request ? resource.url : resource)
    if (response.ok || !url.includes('.json?sql=')) return response
    let message = `HTTP ${response.status} ${response.statusText}`.trim()
    try {
      const body = await response.clone().json()
      if (body && body.error) message = body.error
    } catch (_) {
      // Not JSON (a proxy's error page): the status says enough.
    }
    const rows = [{ [FAILED]: message }]
    return new Response(JSON.stringify({ ok: false, rows }), {
      status: 200,
      headers: { 'content-type': 'application/json' },
    })
  }

  function failure(spec) {
    const rows = spec && spec.data && spec.data.values
    return Array.isArray(rows) && rows.length === 1 && rows[0] && rows[0][FAILED] !== undefined
      ? rows[0][FAILED]
      : null
  }

  function show(element, message) {
    const box = document.createElement('p')
    box.className = 'chart-error pullparity-query-failed'
    box.setAttribute('role', 'alert')
    box.style.color = '#b03a2e'
    box.style.whiteSpace = 'pre-wrap'
    // textContent: the message may quote SQL or names from the logs; it is never markup.
    box.textContent = `This panel's query failed: ${message}`
    element.replaceChildren(box)
  }

  // vega-embed's bundle assigns the global once it loads: wrap whatever it assigns.
  let embed
  Object.defineProperty(window, 'vegaEmbed', {
    configurable: true,
    get() {
      return embed
    },
    set(real) {
      embed = function (element, spec, options) {
        const message = failure(spec)
        if (message === null) return real(element, spec, options)
        show(typeof element === 'string' ? document.querySelector(element) : element, message)
        return Promise.resolve(null)
      }
      Object.assign(embed, real)
    },
  })
})()
