package dev.threadline.local.e2e;

import java.util.Map;

/**
 * {@link BoundedObjectsScenario} on the local mode's default history store: the SQLite file {@code
 * history.db} in its data folder.
 */
class BoundedObjectsE2ETest extends BoundedObjectsScenario {
  BoundedObjectsE2ETest() {
    super(Map.of());
  }
}
