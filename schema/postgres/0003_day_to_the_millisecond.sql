-- The day of a time, as the SQLite views take it. SQLite's date() rounds a time to the
-- millisecond (half up) before taking its day; to_timestamp keeps microseconds, so a session
-- started in the last half millisecond of a UTC day was put on that day here and on the next
-- one in SQLite. 0002 shipped the first body; a database made with it gets this one by
-- running this file (psql -f), as `load_postgres.py --create` does for a new one.
CREATE OR REPLACE FUNCTION pullparity_day(ms double precision) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  RETURN to_char(to_timestamp(floor(ms + 0.5) / 1000.0) AT TIME ZONE 'UTC', 'YYYY-MM-DD');
