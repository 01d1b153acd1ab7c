-- POST /v2/tracking_requests with a unique booking number per request, counting 201s.
-- Each wrk thread has its own Lua state: numbers are unique per thread by a prefix, and
-- per round of bench/run.sh by BENCH_ROUND.
-- Globals on purpose: wrk reads and writes them across Lua states with thread:get/set.
counter = 0
created = 0
threads = {}
prefix = 0

function setup(thread)
  prefix = prefix + 1
  thread:set("prefix", (os.getenv("BENCH_ROUND") or "") .. prefix)
  table.insert(threads, thread)
end

function init(args)
  wrk.method = "POST"
  wrk.headers["Content-Type"] = "application/vnd.api+json"
  wrk.headers["Authorization"] = "Token " .. os.getenv("TIDEMARK_BENCH_KEY")
end

function request()
  counter = counter + 1
  local number = string.format("B%s%012d", prefix, counter)
  local body = '{"data":{"type":"tracking_request","attributes":{"request_type":"booking_number","request_number":"'
    .. number .. '","scac":"MAEU"}}}'
  return wrk.format(nil, "/v2/tracking_requests", nil, body)
end

function response(status, headers, body)
  if status == 201 then
    created = created + 1
  end
end

function done(summary, latency, requests)
  local total = 0
  for _, thread in ipairs(threads) do
    total = total + thread:get("created")
  end
  io.write(string.format("created_201 %d\n", total))
end
