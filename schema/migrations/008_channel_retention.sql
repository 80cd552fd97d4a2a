-- Ended activities' channels: housekeeping finds those past their retention without a scan.
CREATE INDEX broadcast_channels_delete_after_idx ON broadcast_channels (delete_after) WHERE state = 'ending';
