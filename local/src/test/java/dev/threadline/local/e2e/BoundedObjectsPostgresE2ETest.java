package dev.threadline.local.e2e;

import dev.threadline.history.Engine;
import dev.threadline.history.HistoryEngines;

/**
 * {@link BoundedObjectsScenario} with the history store on PostgreSQL, as a cluster has it: a real
 * server started by this test JVM, a database of its own, reached through {@code
 * THREADLINE_HISTORY_URL}, {@code _USER} and {@code _PASSWORD}.
 */
class BoundedObjectsPostgresE2ETest extends BoundedObjectsScenario {
  BoundedObjectsPostgresE2ETest() {
    super(HistoryEngines.variables(Engine.POSTGRESQL));
  }
}
