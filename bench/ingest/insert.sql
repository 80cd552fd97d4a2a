-- pgbench baseline: one single-row INSERT transaction, the least a durable accept can cost.
INSERT INTO bench_dispatches (app_id, activity_id, payload)
VALUES ('11111111-1111-1111-1111-111111111111', 'match-' || (random() * 100)::int,
        '{"aps":{"timestamp":1685952000,"event":"update","content-state":{"home":1,"away":0,"minute":42,"event":"Goal!"}}}');
