-- wrk script for scripts/bench-collect.sh: every request POSTs the same 20-line body of valid
-- events (BODY_FILE) to /events, and the acknowledged (2xx) answers are counted per thread.
local threads = {}

function setup(thread)
  table.insert(threads, thread)
end

function init(args)
  local file = assert(io.open(os.getenv("BODY_FILE"), "rb"))
  wrk.method = "POST"
  wrk.body = file:read("*a")
  wrk.headers["Content-Type"] = "text/plain;charset=UTF-8"
  file:close()
  acknowledged = 0
end

function response(status, headers, body)
  if status >= 200 and status < 300 then acknowledged = acknowledged + 1 end
end

function done(summary, latency, requests)
  local total = 0
  for _, thread in ipairs(threads) do total = total + thread:get("acknowledged") end
  io.write(string.format("acknowledged %d\n", total))
  for _, p in ipairs({ 50, 90, 99 }) do
    io.write(string.format("latency_p%d_ms %.3f\n", p, latency:percentile(p) / 1000))
  end
  io.write(string.format("requests_per_second %.0f\n", summary.requests / (summary.duration / 1e6)))
end
