package dev.threadline.local.kubeapi.rbac;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/** The JSON nodes this package builds. */
final class Json {
  private Json() {}

  static ObjectNode object() {
    return JsonNodeFactory.instance.objectNode();
  }
}
