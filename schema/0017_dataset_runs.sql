-- PullParity schema, version 17: which runs of a daily dataset a load put in the file.
-- Frozen once shipped.
--
-- Issue 43: a daily `--append` dataset (spark/pullparity_spark.py) holds every day so far, and
-- `pullparity load` of it into the file of the days before read every earlier day again and
-- counted its lines again in the ledger. Each run of a dataset now also writes its own part
-- (OUT/runs/NNNN: its new events, the sessions it derived, its new bad lines), and the file
-- records which runs it holds: `load` of the dataset loads only the later runs' parts, each a
-- run of the ledger, and refuses a copy of the dataset older than what the file holds.

CREATE TABLE dataset_runs (
  dataset_id TEXT    NOT NULL,  -- summary.json's dataset_id, given by the dataset's first run
  run_number INTEGER NOT NULL,  -- the dataset's run, from 1, in the order the job ran them
  run_id     INTEGER NOT NULL REFERENCES ingest_runs(run_id),  -- the load that stored it
  PRIMARY KEY (dataset_id, run_number)
) WITHOUT ROWID;
