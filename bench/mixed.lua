-- A mixed load, in turn: creates (unique MAEU bookings, which the sandbox's simulated
-- line then tracks), list pages with their shipments, the shipments' list, infer-number,
-- and the containers' list. Counts the answers by status class.
-- Globals on purpose: wrk reads and writes them across Lua states with thread:get/set.
counter = 0
prefix = 0
threads = {}
ok = 0
refused = 0
failed = 0

local numbers = { "MSKU1234565", "MEDUN4194175", "HLCUSHA1904CCVX4", "586118841" }

function setup(thread)
  prefix = prefix + 1
  thread:set("prefix", (os.getenv("BENCH_ROUND") or "") .. prefix)
  table.insert(threads, thread)
end

local token = "Token " .. (os.getenv("TIDEMARK_BENCH_KEY") or "")

function init(args)
  wrk.headers["Authorization"] = token
end

-- wrk.format takes the headers given instead of wrk.headers: a body's carry the key too.
local function with_body(media_type)
  return { ["Authorization"] = token, ["Content-Type"] = media_type }
end

function request()
  counter = counter + 1
  local turn = counter % 10
  if turn < 3 then
    local body = '{"data":{"type":"tracking_request","attributes":{"request_type":"booking_number","request_number":"'
      .. string.format("M%s%011d", prefix, counter) .. '","scac":"MAEU"}}}'
    return wrk.format("POST", "/v2/tracking_requests",
      with_body("application/vnd.api+json"), body)
  elseif turn < 6 then
    return wrk.format("GET", "/v2/tracking_requests?page[size]=30&include=tracked_object")
  elseif turn < 7 then
    return wrk.format("GET", "/v2/shipments?page[size]=30&include=containers")
  elseif turn < 9 then
    return wrk.format("POST", "/v2/tracking_requests/infer_number",
      with_body("application/json"),
      '{"number":"' .. numbers[counter % #numbers + 1] .. '"}')
  else
    return wrk.format("GET", "/v2/containers?page[size]=30")
  end
end

function response(status, headers, body)
  if status < 300 then
    ok = ok + 1
  elseif status < 500 then
    refused = refused + 1
  else
    failed = failed + 1
  end
end

function done(summary, latency, requests)
  local totals = { ok = 0, refused = 0, failed = 0 }
  for _, thread in ipairs(threads) do
    for name, _ in pairs(totals) do
      totals[name] = totals[name] + thread:get(name)
    end
  end
  io.write(string.format("answers 2xx %d, 4xx %d, 5xx %d\n", totals.ok, totals.refused, totals.failed))
end
