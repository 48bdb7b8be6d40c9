-- wrk's script of scripts/bench-screen.sh: every request a POST
-- /v1/sanctions/screen of a new user (a user_id no request has sent before, so
-- none is a replay), its name, date of birth and nationality taken in turn from
-- NAMES, a file of JSON fragments, one a line
-- ("first_name":"…","last_name":"…","date_of_birth":"…","nationality":"…").
--   wrk … -s scripts/bench-screen.lua URL -- NAMES API_KEY PREFIX
-- PREFIX (unique to the run) starts every user_id: PREFIX-THREAD-COUNTER.
-- done() prints one line:
--   RESULT req/s p50 p90 p99 max (ms) errors non-2xx replays clear hit other
-- (a replay is a 200: the server had screened that user_id already; a new
-- user's screening answers 201; a hit is status hit_review_pending)

-- thread_id is a global: thread:set writes the thread's globals, and a local
-- of the same name would keep every thread at 0 (the same user ids)
thread_id = 0
local threads = {}
function setup(thread)
  table.insert(threads, thread)
  thread:set("thread_id", #threads)
end

local names, key, prefix = {}, "", ""
local counter = 0
-- the screenings' statuses this thread saw (globals, read by done through thread:get)
n_clear, n_hit, n_other, n_non2xx, n_replay = 0, 0, 0, 0, 0

function init(args)
  local file = assert(io.open(args[1], "r"), "cannot read " .. tostring(args[1]))
  for line in file:lines() do
    if #line > 0 then names[#names + 1] = line end
  end
  file:close()
  assert(#names > 0, "no names in " .. args[1])
  key, prefix = args[2], args[3]
end

function request()
  counter = counter + 1
  -- every thread walks the same sequence of names, each from its own offset
  local name = names[((thread_id - 1) * 997 + counter - 1) % #names + 1]
  local user = prefix .. "-" .. thread_id .. "-" .. counter
  local body = '{"user_id":"' .. user .. '",' .. name .. ',"email":"' .. user .. '@example.com"}'
  return wrk.format("POST", "/v1/sanctions/screen",
    { ["content-type"] = "application/json", ["authorization"] = "Bearer " .. key }, body)
end

function response(status, headers, body)
  if status < 200 or status > 299 then
    n_non2xx = n_non2xx + 1
  elseif status ~= 201 then
    n_replay = n_replay + 1
  elseif string.find(body, '"status":"clear"', 1, true) then
    n_clear = n_clear + 1
  elseif string.find(body, '"status":"hit_review_pending"', 1, true) then
    n_hit = n_hit + 1
  else
    n_other = n_other + 1
  end
end

function done(summary, latency, requests)
  local clear, hit, other, non2xx, replay = 0, 0, 0, 0, 0
  for _, thread in ipairs(threads) do
    clear = clear + thread:get("n_clear")
    replay = replay + thread:get("n_replay")
    hit = hit + thread:get("n_hit")
    other = other + thread:get("n_other")
    non2xx = non2xx + thread:get("n_non2xx")
  end
  local e = summary.errors
  local errors = e.connect + e.read + e.write + e.timeout
  io.write(string.format("RESULT %.1f %.3f %.3f %.3f %.3f %d %d %d %d %d %d\n",
    summary.requests / (summary.duration / 1e6),
    latency:percentile(50) / 1000, latency:percentile(90) / 1000, latency:percentile(99) / 1000,
    latency.max / 1000, errors, non2xx, replay, clear, hit, other))
end
