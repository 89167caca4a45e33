-- How many threads each namespace has archived, changed in the same transaction as archived_threads,
-- so a thread list's total reads one row instead of counting a million.
CREATE TABLE archived_thread_counts (
  namespace TEXT   NOT NULL PRIMARY KEY,
  threads   INTEGER NOT NULL
);
INSERT INTO archived_thread_counts (namespace, threads)
  SELECT namespace, COUNT(*) FROM archived_threads GROUP BY namespace;
