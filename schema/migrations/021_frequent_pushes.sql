-- Whether the device's user allows the app more frequent Live Activity updates (ActivityKit's
-- frequentPushesEnabled), as the SDK reports it beside a state: which hourly priority budget the device
-- is held to. Null until a report carries it; a report without it keeps it. It has its own time by the
-- device's clock, apart from the state's: a report older than the stored value never replaces it, and a
-- newer one does even when its state is older than the row's (that state is still ignored).
ALTER TABLE activity_device_states
    ADD COLUMN frequent_pushes_enabled     boolean,
    ADD COLUMN frequent_pushes_reported_at timestamptz;
