-- wrk script for latency.py: POSTs one form body on every request of every keep-alive
-- connection and prints one machine-readable line at the end.
-- Usage: wrk ... -s latency.lua URL -- bet_request STATE.json   (or: -- check)
-- The body is built exactly as a dealer sends it: application/x-www-form-urlencoded, the
-- game_state's JSON percent-encoded.

local function urlencode(text)
  return (text:gsub("[^%w%-%._~]", function(c)
    return string.format("%%%02X", string.byte(c))
  end))
end

function init(args)
  local action = args[1] or "bet_request"
  wrk.method = "POST"
  wrk.headers["Content-Type"] = "application/x-www-form-urlencoded"
  if action == "check" then
    wrk.body = "action=check"
  else
    local file = assert(io.open(args[2], "rb"), "cannot open the game_state file " .. tostring(args[2]))
    local json = file:read("*a")
    file:close()
    wrk.body = "action=bet_request&game_state=" .. urlencode(json)
  end
end

-- Latencies in microseconds; errors are any non-2xx/3xx answer or socket error.
function done(summary, latency, requests)
  local errors = summary.errors.connect + summary.errors.read + summary.errors.write
    + summary.errors.status + summary.errors.timeout
  io.write(string.format("LATENCY requests=%d duration_us=%d p50_us=%d p90_us=%d p99_us=%d max_us=%d errors=%d\n",
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(90),
    latency:percentile(99), latency.max, errors))
end
