-- wrk script: POST /messages/live_activity/update with the benchmark tenant's key and app.
-- Each request carries a different score, so every dispatch is a distinct row.
local counter = 0
local app_id = os.getenv("BENCH_APP_ID")
local api_key = os.getenv("BENCH_API_KEY")
local tags = tonumber(os.getenv("BENCH_TAGS") or "100")
-- Global, not local: done() reads each thread's count with thread:get.
failures = 0
local threads = {}

function setup(thread)
    table.insert(threads, thread)
end

wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Authorization"] = "Bearer " .. api_key

-- BENCH_FIELDS=20: sixteen more fields of every kind a ContentState has (bench/ingest/schema.sh checks
-- them against a schema of twenty).
local wide = os.getenv("BENCH_FIELDS") == "20"
local extra = ',"possession":0.55,"shots":12,"corners":4,"fouls":9,"yellow":2,"red":0,"period":"second",'
    .. '"stoppage":3,"var":false,"homeName":"Lions","awayName":"Bears","venue":"Main Stadium","attendance":41234,'
    .. '"kickoff":819829800.5,"scorers":["A. One","B. Two"],"live":true'

request = function()
    counter = counter + 1
    local body = string.format(
        '{"app_id":"%s","activity_id":"match-%d","content_state":{"home":%d,"away":%d,"minute":%d,"event":"Goal!"%s}}',
        app_id, counter % tags, counter % 7, counter % 5, counter % 90, wide and extra or "")
    return wrk.format(nil, "/messages/live_activity/update", nil, body)
end

response = function(status, headers, body)
    if status ~= 201 then
        failures = failures + 1
        if failures <= 3 then io.stderr:write("unexpected status " .. status .. ": " .. body .. "\n") end
    end
end

-- Only 201s are accepted updates: wrk's own Requests/sec counts every answer, 429s and 500s included.
function done(summary, latency, requests)
    local failed = 0
    for _, thread in ipairs(threads) do failed = failed + thread:get("failures") end
    local seconds = summary.duration / 1e6
    io.write(string.format("accepted/s: %d\nnot 201: %d\n", math.floor((summary.requests - failed) / seconds), failed))
end
