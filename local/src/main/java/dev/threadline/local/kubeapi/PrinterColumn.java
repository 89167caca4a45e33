package dev.threadline.local.kubeapi;

/** One column of a {@code kubectl get} table: a CRD's additionalPrinterColumn or a built-in one. */
record PrinterColumn(
    String name, String type, String format, String description, int priority, String jsonPath) {

  static PrinterColumn of(String name, String type, String jsonPath) {
    return new PrinterColumn(name, type, "", "", 0, jsonPath);
  }

  static final PrinterColumn NAME =
      new PrinterColumn(
          "Name", "string", "name", "Name must be unique within a namespace.", 0, ".metadata.name");

  static final PrinterColumn AGE =
      new PrinterColumn(
          "Age",
          "date",
          "",
          "CreationTimestamp is a timestamp representing the server time when this object was"
              + " created.",
          0,
          ".metadata.creationTimestamp");
}
