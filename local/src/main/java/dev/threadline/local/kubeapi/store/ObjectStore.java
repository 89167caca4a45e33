package dev.threadline.local.kubeapi.store;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.threadline.core.batching.GroupCommit;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The embedded API's object store, on SQLite in WAL mode, the way k3s's kine keeps Kubernetes
 * objects: one revision counter that every write advances (an object's resourceVersion is the
 * revision of its last write), current objects indexed by key, labels and owners, and a log of
 * writes that watches are served from and that compaction trims.
 *
 * <p>Writes run one at a time on one connection; a write is on disk before the call returns, and
 * writes that arrive together share one transaction and one fsync (group commit). Reads run on a
 * small pool of other connections and never wait for writes. Events are handed to watches under the
 * write lock, so every watch sees them in revision order.
 */
public final class ObjectStore implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ObjectStore.class);
  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final int READERS = 4;

  /**
   * The largest object the store writes, in bytes of its JSON: etcd's default request limit ({@code
   * --max-request-bytes}, 1.5 MiB), which refuses any bigger write to a cluster.
   */
  public static final int MAX_OBJECT_BYTES = 1_572_864;

  /** The most writes one transaction commits together; the rest wait for the next. */
  private static final int MAX_BATCH = 256;

  private final Path file;
  private final StoreOptions options;
  private final Connection writer;
  private final BlockingQueue<Connection> readers;
  private final ReentrantLock lock = new ReentrantLock();
  private final List<Watch> watches = new CopyOnWriteArrayList<>();
  private final List<Consumer<ObjectKey>> deletedListeners = new CopyOnWriteArrayList<>();
  private final List<BiConsumer<ObjectKey, ObjectNode>> storedListeners =
      new CopyOnWriteArrayList<>();
  private final GroupCommit<WriteAction, StoredObject> writes = new GroupCommit<>(lock, MAX_BATCH);
  private final ScheduledExecutorService bookmarks;
  private long revision;
  private long compacted;
  private long commits;

  /** Per resource: writes published and the watch events they became (read under the lock). */
  private final Map<String, WatchTraffic> traffic = new HashMap<>();

  private ObjectStore(Path file, StoreOptions options, Connection writer, List<Connection> readers)
      throws SQLException {
    this.file = file;
    this.options = options;
    this.writer = writer;
    this.readers = new ArrayBlockingQueue<>(readers.size(), false, readers);
    this.revision = queryLong(writer, "SELECT coalesce(max(revision), 0) FROM log");
    this.compacted = queryLong(writer, "SELECT value FROM meta WHERE key = 'compacted'");
    this.bookmarks =
        Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().daemon().name("store-bookmarks").factory());
    long every = Math.max(1, options.bookmarkInterval().toMillis());
    bookmarks.scheduleAtFixedRate(this::sendBookmarks, every, every, TimeUnit.MILLISECONDS);
  }

  /** Opens (creating when absent) the store in {@code file}. */
  public static ObjectStore open(Path file, StoreOptions options) {
    try {
      Files.createDirectories(file.toAbsolutePath().getParent());
      String url = "jdbc:sqlite:" + file.toAbsolutePath();
      Connection writer = DriverManager.getConnection(url);
      StoreSchema.configure(writer);
      StoreSchema.create(writer);
      writer.setAutoCommit(false);
      List<Connection> readers = new ArrayList<>();
      for (int i = 0; i < READERS; i++) {
        Connection reader = DriverManager.getConnection(url);
        StoreSchema.configure(reader);
        readers.add(reader);
      }
      ObjectStore store = new ObjectStore(file, options, writer, readers);
      LOG.info("Object store {} open at revision {}", file, store.revision);
      return store;
    } catch (SQLException | java.io.IOException e) {
      throw new IllegalStateException("Cannot open the object store " + file + ": " + e, e);
    }
  }

  public Path file() {
    return file;
  }

  /** The revision of the last write. */
  public long revision() {
    lock.lock();
    try {
      return revision;
    } finally {
      lock.unlock();
    }
  }

  // ---- reads ----

  public Optional<StoredObject> get(ObjectKey key) {
    return read(connection -> {
      try (PreparedStatement select =
          connection.prepareStatement(
              "SELECT revision, body FROM objects WHERE resource = ? AND namespace = ? AND name"
                  + " = ?")) {
        bindKey(select, key, 1);
        try (ResultSet rs = select.executeQuery()) {
          return rs.next()
              ? Optional.of(new StoredObject(key, rs.getLong(1), parse(rs.getString(2))))
              : Optional.empty();
        }
      }
    });
  }

  /**
   * One page of the objects a selection picks, in (namespace, name) order, read in one snapshot
   * with the revision it reflects.
   *
   * @param limit the most items to return; 0 for all
   * @param continueToken the previous page's token, or null for the first page
   * @throws IllegalArgumentException for a token this store did not hand out
   */
  public ListPage list(Selection selection, int limit, String continueToken) {
    ListQuery query =
        new ListQuery(selection, limit, ListQuery.ContinueToken.decode(continueToken));
    return read(connection -> {
      try (Statement begin = connection.createStatement()) {
        begin.execute("BEGIN");
      }
      try {
        long at = queryLong(connection, "SELECT coalesce(max(revision), 0) FROM log");
        return query.run(connection, at);
      } finally {
        try (Statement end = connection.createStatement()) {
          end.execute("COMMIT");
        }
      }
    });
  }

  /** The objects that name {@code ownerUid} in an owner reference. */
  public List<StoredObject> ownedBy(String ownerUid) {
    return selectObjects(
        "SELECT o.resource, o.namespace, o.name, o.revision, o.body FROM owners w"
            + " JOIN objects o ON o.id = w.object_id WHERE w.owner_uid = ?",
        ownerUid);
  }

  /** The keys of every object that has an owner reference. */
  public List<ObjectKey> withOwners() {
    return read(connection -> {
      try (PreparedStatement select =
          connection.prepareStatement(
              "SELECT DISTINCT o.resource, o.namespace, o.name FROM owners w"
                  + " JOIN objects o ON o.id = w.object_id")) {
        List<ObjectKey> keys = new ArrayList<>();
        try (ResultSet rs = select.executeQuery()) {
          while (rs.next()) {
            keys.add(new ObjectKey(rs.getString(1), rs.getString(2), rs.getString(3)));
          }
        }
        return keys;
      }
    });
  }

  /** Every object of every resource in {@code namespace}. */
  public List<StoredObject> inNamespace(String namespace) {
    return selectObjects(
        "SELECT resource, namespace, name, revision, body FROM objects WHERE namespace = ?",
        namespace);
  }

  private List<StoredObject> selectObjects(String sql, String parameter) {
    return read(connection -> {
      try (PreparedStatement select = connection.prepareStatement(sql)) {
        select.setString(1, parameter);
        return objects(select);
      }
    });
  }

  // ---- writes ----

  /** Stores a new object; its {@code metadata.resourceVersion} is set to the new revision. */
  public StoredObject create(ObjectKey key, ObjectNode object) {
    return write(() -> insert(key, object, revision + 1));
  }

  /**
   * Stores many new objects in one transaction (one revision each): for seeding a store, where one
   * transaction per object would wait for the disk each time.
   */
  public void createAll(Map<ObjectKey, ObjectNode> objects) {
    write(() -> {
      long next = revision;
      StoredObject last = null;
      for (Map.Entry<ObjectKey, ObjectNode> entry : objects.entrySet()) {
        last = insert(entry.getKey(), entry.getValue(), ++next);
      }
      return last;
    });
  }

  private StoredObject insert(ObjectKey key, ObjectNode object, long next) throws SQLException {
    if (currentRow(key) != null) {
      throw new StoreException(StoreException.Reason.ALREADY_EXISTS, key);
    }
    stampRevision(object, next);
    String body = writeBounded(key, object);
    long id;
    try (PreparedStatement insert =
        writer.prepareStatement(
            "INSERT INTO objects (resource, namespace, name, revision, body)"
                + " VALUES (?, ?, ?, ?, ?) RETURNING id")) {
      bindKey(insert, key, 1);
      insert.setLong(4, next);
      insert.setString(5, body);
      try (ResultSet rs = insert.executeQuery()) {
        rs.next();
        id = rs.getLong(1);
      }
    }
    index(id, object);
    return logged(key, next, WatchEvent.ADDED, object, body, null);
  }

  /**
   * Replaces an object.
   *
   * @param expectedRevision the revision the writer read; 0 to replace whatever is there
   */
  public StoredObject update(ObjectKey key, long expectedRevision, ObjectNode object) {
    return write(() -> {
      Row current = checkedRow(key, expectedRevision);
      long next = revision + 1;
      stampRevision(object, next);
      String body = writeBounded(key, object);
      try (PreparedStatement update =
          writer.prepareStatement("UPDATE objects SET revision = ?, body = ? WHERE id = ?")) {
        update.setLong(1, next);
        update.setString(2, body);
        update.setLong(3, current.id());
        update.executeUpdate();
      }
      unindex(current.id());
      index(current.id(), object);
      return logged(key, next, WatchEvent.MODIFIED, object, body, current.body());
    });
  }

  /**
   * Removes an object; the answer is the object as it was, at the revision of its deletion.
   *
   * @param expectedRevision the revision the writer read; 0 to delete whatever is there
   */
  public StoredObject delete(ObjectKey key, long expectedRevision) {
    return write(() -> {
      Row current = checkedRow(key, expectedRevision);
      long next = revision + 1;
      ObjectNode object = parse(current.body());
      stampRevision(object, next);
      unindex(current.id());
      try (PreparedStatement delete = writer.prepareStatement("DELETE FROM objects WHERE id = ?")) {
        delete.setLong(1, current.id());
        delete.executeUpdate();
      }
      return logged(key, next, WatchEvent.DELETED, object, write(object), null);
    });
  }

  private interface WriteAction {
    StoredObject run() throws SQLException;
  }

  /**
   * Runs one write and returns once it is committed (on disk). Writes that arrive while another
   * batch is being committed wait together; the next writer to take the lock commits all of them in
   * one transaction, one fsync for the batch ({@link GroupCommit}). Each write runs inside its own
   * savepoint, so a write that fails (a conflict, say) is undone alone and fails alone.
   */
  private StoredObject write(WriteAction action) {
    return writes.submit(action, this::commitBatch);
  }

  /** Runs a batch of writes (under the lock) as one transaction; publishes their events after. */
  private void commitBatch(List<GroupCommit.Request<WriteAction, StoredObject>> batch) {
    long before = revision;
    List<StoredObject> written = new ArrayList<>(batch.size());
    try {
      for (GroupCommit.Request<WriteAction, StoredObject> request : batch) {
        written.add(runInSavepoint(request));
      }
      writer.commit();
      commits++;
    } catch (SQLException | RuntimeException e) {
      rollback();
      revision = before;
      pending.clear();
      throw failure(e);
    }
    try {
      pending.forEach(this::publish);
    } finally {
      pending.clear();
    }
    for (int i = 0; i < batch.size(); i++) {
      if (!batch.get(i).settled()) {
        batch.get(i).succeed(written.get(i));
      }
    }
    compactIfDue();
  }

  /**
   * Runs one write of a batch; a write that fails is rolled back to its savepoint and fails alone.
   */
  private StoredObject runInSavepoint(GroupCommit.Request<WriteAction, StoredObject> request)
      throws SQLException {
    int events = pending.size();
    try (Statement savepoint = writer.createStatement()) {
      savepoint.execute("SAVEPOINT write");
      StoredObject written;
      try {
        written = request.input().run();
        savepoint.execute("RELEASE write");
      } catch (SQLException | RuntimeException e) {
        savepoint.execute("ROLLBACK TO write");
        savepoint.execute("RELEASE write");
        pending.subList(events, pending.size()).clear();
        request.fail(failure(e));
        return null;
      }
      if (written != null) {
        revision = written.revision();
      }
      return written;
    }
  }

  private static RuntimeException failure(Exception e) {
    return e instanceof RuntimeException runtime
        ? runtime
        : new IllegalStateException("The object store failed to write: " + e.getMessage(), e);
  }

  /** The events of the write in progress, published once it is committed. */
  private final List<WatchEvent> pending = new ArrayList<>();

  private StoredObject logged(
      ObjectKey key, long next, String type, ObjectNode object, String body, String previousBody)
      throws SQLException {
    try (PreparedStatement insert =
        writer.prepareStatement(
            "INSERT INTO log (revision, resource, namespace, name, type, body)"
                + " VALUES (?, ?, ?, ?, ?, ?)")) {
      insert.setLong(1, next);
      insert.setString(2, key.resource());
      insert.setString(3, key.namespace());
      insert.setString(4, key.name());
      insert.setString(5, type);
      insert.setString(6, body);
      insert.executeUpdate();
    }
    pending.add(new WatchEvent(type, key, object, body, previousBody));
    return new StoredObject(key, next, object);
  }

  private record Row(long id, long revision, String body) {}

  private Row currentRow(ObjectKey key) throws SQLException {
    try (PreparedStatement select =
        writer.prepareStatement(
            "SELECT id, revision, body FROM objects"
                + " WHERE resource = ? AND namespace = ? AND name = ?")) {
      bindKey(select, key, 1);
      try (ResultSet rs = select.executeQuery()) {
        return rs.next() ? new Row(rs.getLong(1), rs.getLong(2), rs.getString(3)) : null;
      }
    }
  }

  private Row checkedRow(ObjectKey key, long expectedRevision) throws SQLException {
    Row current = currentRow(key);
    if (current == null) {
      throw new StoreException(StoreException.Reason.NOT_FOUND, key);
    }
    if (expectedRevision > 0 && expectedRevision != current.revision()) {
      throw new StoreException(StoreException.Reason.CONFLICT, key);
    }
    return current;
  }

  private void index(long id, ObjectNode object) throws SQLException {
    JsonNode labels = object.path("metadata").path("labels");
    if (labels.isObject() && !labels.isEmpty()) {
      try (PreparedStatement insert =
          writer.prepareStatement("INSERT INTO labels (object_id, key, value) VALUES (?, ?, ?)")) {
        for (Iterator<Map.Entry<String, JsonNode>> it = labels.fields(); it.hasNext(); ) {
          Map.Entry<String, JsonNode> label = it.next();
          insert.setLong(1, id);
          insert.setString(2, label.getKey());
          insert.setString(3, label.getValue().asText());
          insert.addBatch();
        }
        insert.executeBatch();
      }
    }
    JsonNode owners = object.path("metadata").path("ownerReferences");
    if (owners.isArray() && !owners.isEmpty()) {
      try (PreparedStatement insert =
          writer.prepareStatement(
              "INSERT OR IGNORE INTO owners (owner_uid, object_id) VALUES (?, ?)")) {
        for (JsonNode owner : owners) {
          String uid = owner.path("uid").asText("");
          if (!uid.isEmpty()) {
            insert.setString(1, uid);
            insert.setLong(2, id);
            insert.addBatch();
          }
        }
        insert.executeBatch();
      }
    }
  }

  private void unindex(long id) throws SQLException {
    for (String table : List.of("labels", "owners")) {
      try (PreparedStatement delete =
          writer.prepareStatement("DELETE FROM " + table + " WHERE object_id = ?")) {
        delete.setLong(1, id);
        delete.executeUpdate();
      }
    }
  }

  // ---- compaction ----

  /**
   * Trims the log to the last {@link StoreOptions#retainedRevisions()} once it is a quarter over.
   */
  private void compactIfDue() {
    long keepFrom = revision - options.retainedRevisions();
    if (keepFrom - compacted > Math.max(1, options.retainedRevisions() / 4)) {
      compact(keepFrom);
    }
  }

  /** Removes the log's revisions up to and including {@code upTo}; watches from there get 410. */
  public void compact(long upTo) {
    lock.lock();
    try {
      long target = Math.min(upTo, revision - 1);
      if (target <= compacted) {
        return;
      }
      try (PreparedStatement delete =
              writer.prepareStatement("DELETE FROM log WHERE revision <= ?");
          PreparedStatement mark =
              writer.prepareStatement("UPDATE meta SET value = ? WHERE key = 'compacted'")) {
        delete.setLong(1, target);
        int removed = delete.executeUpdate();
        mark.setLong(1, target);
        mark.executeUpdate();
        writer.commit();
        compacted = target;
        LOG.debug("Compacted {} log entries up to revision {}", removed, target);
      } catch (SQLException e) {
        rollback();
        LOG.warn("Compacting the object store failed; it will be tried again", e);
      }
    } finally {
      lock.unlock();
    }
  }

  /** How many transactions have committed writes since the store opened. */
  long commits() {
    lock.lock();
    try {
      return commits;
    } finally {
      lock.unlock();
    }
  }

  public long compactedRevision() {
    lock.lock();
    try {
      return compacted;
    } finally {
      lock.unlock();
    }
  }

  // ---- watches ----

  /**
   * Opens a watch. From revision 0 it starts with an {@code ADDED} event for every object the
   * selection picks; from a later revision it replays the log after it ({@code 410 Expired} when
   * compaction has removed part of that); then it follows every write.
   *
   * @param bookmarks the shape of bookmark events, or null for none
   */
  public Watch watch(
      Selection selection, long fromRevision, BookmarkShape bookmarks, WatchListener listener) {
    Watch registered =
        new Watch(selection, bookmarks, listener, options.watchQueueCapacity(), watches::remove);
    lock.lock();
    try {
      if (fromRevision > 0 && fromRevision < compacted) {
        registered.fail("too old resource version: " + fromRevision + " (" + compacted + ")");
      } else {
        replay(registered, selection, fromRevision);
        watches.add(registered);
      }
    } catch (SQLException e) {
      registered.fail("the store could not replay the watch: " + e.getMessage());
    } finally {
      lock.unlock();
    }
    registered.start();
    return registered;
  }

  private void replay(Watch watch, Selection selection, long fromRevision) throws SQLException {
    if (fromRevision <= 0) {
      for (ObjectNode item : new ListQuery(selection, 0, null).run(writer, revision).items()) {
        ObjectKey key =
            new ObjectKey(
                selection.resource(),
                item.path("metadata").path("namespace").asText(""),
                item.path("metadata").path("name").asText());
        watch.replay(new WatchEvent(WatchEvent.ADDED, key, item));
      }
      return;
    }
    // The object before each update, for a selection an update can enter or leave (Selection#seen):
    // the replay's own previous write of the key, else the last one before the replay.
    boolean needsPrevious = selection.dependsOnContent();
    Map<ObjectKey, String> last = new HashMap<>();
    try (PreparedStatement select =
        writer.prepareStatement(
            "SELECT namespace, name, type, body FROM log"
                + " WHERE resource = ? AND revision > ? ORDER BY revision")) {
      select.setString(1, selection.resource());
      select.setLong(2, fromRevision);
      try (ResultSet rs = select.executeQuery()) {
        while (rs.next()) {
          ObjectKey key = new ObjectKey(selection.resource(), rs.getString(1), rs.getString(2));
          String type = rs.getString(3);
          String body = rs.getString(4);
          String previous = null;
          if (needsPrevious && type.equals(WatchEvent.MODIFIED)) {
            previous = last.containsKey(key) ? last.get(key) : loggedBefore(key, fromRevision);
          }
          if (needsPrevious) {
            last.put(key, type.equals(WatchEvent.DELETED) ? null : body);
          }
          WatchEvent seen = selection.seen(new WatchEvent(type, key, parse(body), body, previous));
          if (seen != null) {
            watch.replay(seen);
          }
        }
      }
    }
  }

  /** The key's object at {@code revision} as the log has it; null when compacted away. */
  private String loggedBefore(ObjectKey key, long revision) throws SQLException {
    try (PreparedStatement select =
        writer.prepareStatement(
            "SELECT type, body FROM log WHERE resource = ? AND namespace = ? AND name = ?"
                + " AND revision <= ? ORDER BY revision DESC LIMIT 1")) {
      bindKey(select, key, 1);
      select.setLong(4, revision);
      try (ResultSet rs = select.executeQuery()) {
        return rs.next() && !rs.getString(1).equals(WatchEvent.DELETED) ? rs.getString(2) : null;
      }
    }
  }

  /**
   * Tells {@code listener} of every object created or replaced, once committed, in revision order.
   * It is called under the write lock: it must hand the work on, never block or write.
   */
  public void onStored(BiConsumer<ObjectKey, ObjectNode> listener) {
    storedListeners.add(listener);
  }

  /**
   * Tells {@code listener} of every object deleted, once committed, in revision order; as {@link
   * #onStored}, under the write lock.
   */
  public void onDeleted(Consumer<ObjectKey> listener) {
    deletedListeners.add(listener);
  }

  private void publish(WatchEvent event) {
    if (!event.type().equals(WatchEvent.DELETED)) {
      storedListeners.forEach(listener -> listener.accept(event.key(), event.object()));
    } else {
      deletedListeners.forEach(listener -> listener.accept(event.key()));
    }
    int delivered = 0;
    for (Watch watch : watches) {
      WatchEvent seen = watch.selection().seen(event);
      if (seen != null) {
        watch.offer(seen);
        delivered++;
      }
    }
    String resource = event.key().resource();
    traffic.put(resource, traffic.getOrDefault(resource, WatchTraffic.NONE).plus(delivered));
  }

  /** How many writes of a resource were published, and how many watch events they became. */
  record WatchTraffic(long writes, long events) {
    static final WatchTraffic NONE = new WatchTraffic(0, 0);

    WatchTraffic plus(int delivered) {
      return new WatchTraffic(writes + 1, events + delivered);
    }

    @Override
    public String toString() {
      return writes + " writes, " + events + " watch events";
    }
  }

  /** The watch traffic of one resource since the store opened. */
  WatchTraffic traffic(String resource) {
    lock.lock();
    try {
      return traffic.getOrDefault(resource, WatchTraffic.NONE);
    } finally {
      lock.unlock();
    }
  }

  private void sendBookmarks() {
    lock.lock();
    try {
      for (Watch watch : watches) {
        if (watch.bookmarks() != null) {
          watch.offer(watch.bookmarks().at(revision));
        }
      }
    } finally {
      lock.unlock();
    }
  }

  public int openWatches() {
    return watches.size();
  }

  @Override
  public void close() {
    bookmarks.shutdownNow();
    lock.lock();
    try {
      for (Watch watch : watches) {
        watch.close();
      }
      watches.clear();
      closeQuietly(writer);
      for (Connection reader : readers) {
        closeQuietly(reader);
      }
      LOG.info("Object store {} closed at revision {}", file, revision);
      // What each write cost the watchers: the store's share of every informer's work.
      traffic.forEach(
          (resource, counted) -> LOG.info("Watch traffic of {}: {}", resource, counted));
    } finally {
      lock.unlock();
    }
  }

  // ---- helpers ----

  private interface ReadAction<T> {
    T run(Connection connection) throws SQLException;
  }

  private <T> T read(ReadAction<T> action) {
    Connection connection;
    try {
      connection = readers.take();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted while waiting for the object store", e);
    }
    try {
      return action.run(connection);
    } catch (SQLException e) {
      throw new IllegalStateException("The object store failed to read: " + e.getMessage(), e);
    } finally {
      readers.add(connection);
    }
  }

  static List<StoredObject> objects(PreparedStatement select) throws SQLException {
    List<StoredObject> found = new ArrayList<>();
    try (ResultSet rs = select.executeQuery()) {
      while (rs.next()) {
        found.add(
            new StoredObject(
                new ObjectKey(rs.getString(1), rs.getString(2), rs.getString(3)),
                rs.getLong(4),
                parse(rs.getString(5))));
      }
    }
    return found;
  }

  private static void bindKey(PreparedStatement statement, ObjectKey key, int first)
      throws SQLException {
    statement.setString(first, key.resource());
    statement.setString(first + 1, key.namespace());
    statement.setString(first + 2, key.name());
  }

  private static long queryLong(Connection connection, String sql) throws SQLException {
    try (Statement statement = connection.createStatement();
        ResultSet rs = statement.executeQuery(sql)) {
      return rs.next() ? rs.getLong(1) : 0;
    }
  }

  private static void stampRevision(ObjectNode object, long revision) {
    JsonNode metadata = object.get("metadata");
    ObjectNode meta =
        metadata instanceof ObjectNode existing ? existing : object.putObject("metadata");
    meta.put("resourceVersion", Long.toString(revision));
  }

  static ObjectNode parse(String body) {
    try {
      return (ObjectNode) MAPPER.readTree(body);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("A stored object is not JSON: " + e.getOriginalMessage(), e);
    }
  }

  /** The object's JSON as the store writes it; refused as etcd would when it is too large. */
  private static String writeBounded(ObjectKey key, ObjectNode object) {
    String body = write(object);
    if (Utf8.longerThan(body, MAX_OBJECT_BYTES)) {
      throw StoreException.tooLarge(key, Utf8.length(body), MAX_OBJECT_BYTES);
    }
    return body;
  }

  private static String write(ObjectNode object) {
    try {
      return MAPPER.writeValueAsString(object);
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }

  private void rollback() {
    try {
      writer.rollback();
    } catch (SQLException e) {
      LOG.warn("Rolling back a write of the object store failed", e);
    }
  }

  private static void closeQuietly(Connection connection) {
    try {
      connection.close();
    } catch (SQLException e) {
      LOG.debug("Closing a connection of the object store failed", e);
    }
  }
}
