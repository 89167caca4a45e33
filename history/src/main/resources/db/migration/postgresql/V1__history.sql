-- The history store's tables (PostgreSQL). Every row names its namespace (the user) and its thread, so
-- that a thread's history is removed in one statement per table and a user's share is counted.

-- One row per run: the user's message and the whole answer; the Run object once it left the API.
CREATE TABLE runs (
  namespace   TEXT    NOT NULL,
  thread      TEXT    NOT NULL,
  name        TEXT    NOT NULL,
  sequence    BIGINT NOT NULL,
  message     TEXT    NOT NULL,
  response    TEXT,
  created_at  TEXT    NOT NULL,
  archived    TEXT,
  bytes       BIGINT NOT NULL,
  PRIMARY KEY (namespace, name)
);
CREATE INDEX runs_by_thread ON runs (namespace, thread, sequence);

-- A message too long for its Run's spec, stored before the Run exists under an id the spec names.
CREATE TABLE message_bodies (
  namespace TEXT    NOT NULL,
  thread    TEXT    NOT NULL,
  id        TEXT    NOT NULL,
  body      TEXT    NOT NULL,
  bytes     BIGINT NOT NULL,
  PRIMARY KEY (namespace, id)
);
CREATE INDEX message_bodies_by_thread ON message_bodies (namespace, thread);

-- Every event of every run, in full, numbered from 1 without gaps. The key names the event for its
-- writer (e.g. the runner's sequence number), so a step repeated after a failover adds nothing.
CREATE TABLE run_events (
  namespace TEXT    NOT NULL,
  thread    TEXT    NOT NULL,
  run       TEXT    NOT NULL,
  seq       BIGINT NOT NULL,
  event_key TEXT    NOT NULL,
  type      TEXT    NOT NULL,
  time      TEXT    NOT NULL,
  data      TEXT    NOT NULL,
  bytes     BIGINT NOT NULL,
  PRIMARY KEY (namespace, run, seq)
);
CREATE UNIQUE INDEX run_events_by_key ON run_events (namespace, run, event_key);
CREATE INDEX run_events_by_thread ON run_events (namespace, thread);

-- The last number given to an event of each run: the lock that orders a run's writers.
CREATE TABLE run_event_counters (
  namespace TEXT    NOT NULL,
  thread    TEXT    NOT NULL,
  run       TEXT    NOT NULL,
  last_seq  BIGINT NOT NULL,
  PRIMARY KEY (namespace, run)
);
CREATE INDEX run_event_counters_by_thread ON run_event_counters (namespace, thread);

-- The agent's memory: an append-only log of steps; the step number is the memory's version.
CREATE TABLE memory_steps (
  namespace TEXT    NOT NULL,
  thread    TEXT    NOT NULL,
  run       TEXT    NOT NULL,
  step      BIGINT NOT NULL,
  entry     TEXT    NOT NULL,
  bytes     BIGINT NOT NULL,
  PRIMARY KEY (namespace, run, step)
);
CREATE INDEX memory_steps_by_thread ON memory_steps (namespace, thread);

-- The files each run created, modified or deleted.
CREATE TABLE run_diffs (
  namespace    TEXT    NOT NULL,
  thread       TEXT    NOT NULL,
  run          TEXT    NOT NULL,
  run_sequence BIGINT NOT NULL,
  position     BIGINT NOT NULL,
  path         TEXT    NOT NULL,
  change       TEXT    NOT NULL,
  content      TEXT,
  additions    BIGINT,
  deletions    BIGINT,
  bytes        BIGINT NOT NULL,
  PRIMARY KEY (namespace, run, position)
);
CREATE INDEX run_diffs_by_thread ON run_diffs (namespace, thread, run_sequence);

-- A thread's workspace between runs of pool sandboxes (a zip).
CREATE TABLE workspace_archives (
  namespace  TEXT    NOT NULL,
  thread     TEXT    NOT NULL,
  archive    BYTEA    NOT NULL,
  updated_at TEXT    NOT NULL,
  bytes      BIGINT NOT NULL,
  PRIMARY KEY (namespace, thread)
);

-- Threads that left the Kubernetes API: the object as it was.
CREATE TABLE archived_threads (
  namespace   TEXT    NOT NULL,
  name        TEXT    NOT NULL,
  created_at  TEXT    NOT NULL,
  archived_at TEXT    NOT NULL,
  object      TEXT    NOT NULL,
  bytes       BIGINT NOT NULL,
  PRIMARY KEY (namespace, name)
);
CREATE INDEX archived_threads_by_age ON archived_threads (namespace, created_at, name);

-- Bytes each namespace holds, kept in the same transaction as every change.
CREATE TABLE namespace_usage (
  namespace TEXT    NOT NULL PRIMARY KEY,
  bytes     BIGINT NOT NULL
);
