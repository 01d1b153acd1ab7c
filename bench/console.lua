-- GET a console page, signed in with the bench key's session cookie.
function init(args)
  wrk.headers["Cookie"] = "tidemark_session=" .. os.getenv("TIDEMARK_BENCH_KEY")
end
