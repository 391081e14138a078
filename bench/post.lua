-- wrk script: POST a JSON body with the gateway headers, and report the
-- figures on one line for bench/run.sh.
--
--   wrk -s bench/post.lua http://127.0.0.1:8080/v1/dev/data/base64/encode
--
-- QUIVER_KEY is the X-Gateway-Key; BODY the JSON body.

wrk.method = "POST"
wrk.body = os.getenv("BODY") or '{"value":"hello, world"}'
wrk.headers["Content-Type"] = "application/json"
wrk.headers["X-Gateway-Key"] = os.getenv("QUIVER_KEY") or "bench"
wrk.headers["X-Gateway-Host"] = "bench"

-- Count non-200 answers: a benchmark of error pages is no benchmark.
non200 = 0 -- global: done() reads it from every thread with get
local threads = {}

function setup(thread)
   table.insert(threads, thread)
end

function response(status, headers, body)
   if status ~= 200 then
      non200 = non200 + 1
   end
end

function done(summary, latency, requests)
   local bad = 0
   for _, t in ipairs(threads) do
      bad = bad + t:get("non200")
   end
   local errors = summary.errors.connect + summary.errors.read + summary.errors.write
      + summary.errors.status + summary.errors.timeout
   io.write(string.format(
      "RESULT requests=%d rps=%.0f p50_ms=%.3f p90_ms=%.3f p99_ms=%.3f max_ms=%.3f errors=%d non200=%d\n",
      summary.requests, summary.requests / (summary.duration / 1e6),
      latency:percentile(50) / 1000, latency:percentile(90) / 1000,
      latency:percentile(99) / 1000, latency.max / 1000, errors, bad))
end
