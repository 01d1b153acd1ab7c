-- GET with the bench key.
function init(args)
  wrk.headers["Authorization"] = "Token " .. os.getenv("TIDEMARK_BENCH_KEY")
end
