-- People's answers to the calls a run waited on (POST /v1/threads/:id/approvals): the texts live
-- here, the Run's spec keeps only the latest answer's call id, decision and time. One row per call:
-- the first answer recorded is the answer.
CREATE TABLE run_answers (
  namespace   TEXT    NOT NULL,
  thread      TEXT    NOT NULL,
  run         TEXT    NOT NULL,
  call_id     TEXT    NOT NULL,
  decision    TEXT,
  message     TEXT,
  answer      TEXT,
  answered_at TEXT    NOT NULL,
  bytes       INTEGER NOT NULL,
  PRIMARY KEY (namespace, run, call_id)
);
CREATE INDEX run_answers_by_thread ON run_answers (namespace, thread, call_id);
