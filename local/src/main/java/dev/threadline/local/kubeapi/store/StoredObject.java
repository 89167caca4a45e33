package dev.threadline.local.kubeapi.store;

import com.fasterxml.jackson.databind.node.ObjectNode;

/** An object as stored, with the revision of its last write (its resourceVersion). */
public record StoredObject(ObjectKey key, long revision, ObjectNode object) {}
