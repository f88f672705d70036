-- wrk script: POST a bet_request with a recorded game_state, over keep-alive connections.
-- Usage: wrk -t1 -c16 -d10s --latency -s bet_request.lua http://127.0.0.1:1337/ -- <state.json>

local function urlencode(text)
  return (text:gsub("[^%w%-%._~]", function(c)
    return string.format("%%%02X", string.byte(c))
  end))
end

function init(args)
  local path = args[1] or "../tests/fixtures/captures/09-preflop-r0-6-seats-first-request.json"
  local file = assert(io.open(path, "rb"), "cannot open " .. path)
  local json = file:read("*a")
  file:close()
  wrk.method = "POST"
  wrk.body = "action=bet_request&game_state=" .. urlencode(json)
  wrk.headers["Content-Type"] = "application/x-www-form-urlencoded"
end
