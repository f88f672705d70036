-- wrk script: POST a bet_request with a recorded game_state, over keep-alive connections.
-- Usage: wrk -t1 -c16 -d10s --latency -s bet_request.lua http://127.0.0.1:1337/ -- [state.json]
-- The request is latency/latency.lua's (the body built as a dealer sends it), loaded from
-- beside this file so that it is written once; wrk's own --latency report is the output.

local here = debug.getinfo(1, "S").source:match("^@(.*)[/\\]") or "."
dofile(here .. "/latency/latency.lua")

local post_as_a_dealer = init
done = nil -- no machine-readable line: that is for latency.py

-- Capture 09 (6 players, preflop, round 0), the state run-wrk.sh passes.
local default_state = here .. "/../../../shared/tests/fixtures/gamestates/"
  .. "09-preflop-r0-6-seats-first-request.json"

function init(args)
  post_as_a_dealer({ "bet_request", args[1] or default_state })
end
