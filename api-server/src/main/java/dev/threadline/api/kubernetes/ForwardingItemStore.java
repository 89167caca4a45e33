package dev.threadline.api.kubernetes;

import io.fabric8.kubernetes.client.informers.cache.ItemStore;
import java.util.stream.Stream;

/**
 * An informer's item store that keeps its objects in another and adds bookkeeping of its own to
 * {@link #put} and {@link #remove}, which the informer's cache calls under its lock.
 */
public abstract class ForwardingItemStore<T> implements ItemStore<T> {
  private final ItemStore<T> items;

  protected ForwardingItemStore(ItemStore<T> items) {
    this.items = items;
  }

  @Override
  public T put(String key, T object) {
    return items.put(key, object);
  }

  @Override
  public T remove(String key) {
    return items.remove(key);
  }

  @Override
  public String getKey(T object) {
    return items.getKey(object);
  }

  @Override
  public Stream<String> keySet() {
    return items.keySet();
  }

  @Override
  public Stream<T> values() {
    return items.values();
  }

  @Override
  public int size() {
    return items.size();
  }

  @Override
  public T get(String key) {
    return items.get(key);
  }

  @Override
  public boolean isFullState() {
    return items.isFullState();
  }
}
