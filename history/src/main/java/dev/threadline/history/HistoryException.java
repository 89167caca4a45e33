package dev.threadline.history;

import java.sql.SQLException;

/** The history store could not be read or written; the cause says why. */
public class HistoryException extends RuntimeException {
  HistoryException(SQLException cause) {
    super("history store: " + cause.getMessage(), cause);
  }

  HistoryException(String message) {
    super(message);
  }
}
