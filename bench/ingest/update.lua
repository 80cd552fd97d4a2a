-- wrk script: POST /messages/live_activity/update with the benchmark tenant's key and app.
-- Each request carries a different score, so every dispatch is a distinct row.
local counter = 0
local app_id = os.getenv("BENCH_APP_ID")
local api_key = os.getenv("BENCH_API_KEY")
local tags = tonumber(os.getenv("BENCH_TAGS") or "100")
local failures = 0

wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Authorization"] = "Bearer " .. api_key

request = function()
    counter = counter + 1
    local body = string.format(
        '{"app_id":"%s","activity_id":"match-%d","content_state":{"home":%d,"away":%d,"minute":%d,"event":"Goal!"}}',
        app_id, counter % tags, counter % 7, counter % 5, counter % 90)
    return wrk.format(nil, "/messages/live_activity/update", nil, body)
end

response = function(status, headers, body)
    if status ~= 201 then
        failures = failures + 1
        if failures <= 3 then io.stderr:write("unexpected status " .. status .. ": " .. body .. "\n") end
    end
end
