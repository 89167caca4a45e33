package dev.threadline.local.kubeapi.store;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/**
 * One page of a list.
 *
 * @param items the objects, ordered by namespace and name
 * @param revision the store's revision when the page was read (the list's resourceVersion)
 * @param continueToken where the next page starts, or null on the last page
 */
public record ListPage(List<ObjectNode> items, long revision, String continueToken) {}
