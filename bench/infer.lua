-- POST /v2/tracking_requests/infer_number, cycling through numbers of every kind:
-- containers (carrier and lessor prefixes, a bad check digit), prefixed and bare bills
-- of lading, a booking and numbers of no known shape.
numbers = {
  "MSKU1234565", "TGHU1234567", "MSCU1234567", "CSNU6395607",
  "MEDUN4194175", "HLCUSHA1904CCVX4", "ZIMUSNH1160339", "586118841",
  "003902245109", "QSWB8011462", "SH9FSK690300", "NSE22110345",
}
i = 0

function init(args)
  wrk.method = "POST"
  wrk.headers["Content-Type"] = "application/json"
  wrk.headers["Authorization"] = "Token " .. os.getenv("TIDEMARK_BENCH_KEY")
end

function request()
  i = i % #numbers + 1
  return wrk.format(nil, "/v2/tracking_requests/infer_number", nil,
    '{"number":"' .. numbers[i] .. '"}')
end
