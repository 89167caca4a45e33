package dev.threadline.api.auth;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.EnumSet;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ScopePolicyTest {
  @ParameterizedTest(name = "{1} {2} with [{0}] -> missing {3}")
  @CsvSource(
      delimiter = '|',
      nullValues = "-",
      textBlock =
          """
          read                 | GET    | /v1/threads/thread_a          | -
          read                 | POST   | /v1/threads                   | THREADS
          threads              | POST   | /v1/threads/thread_a/messages | -
          threads              | GET    | /v1/schedules                 | SCHEDULES
          read                 | GET    | /v1/schedules                 | -
          environments         | DELETE | /environments/env_a           | -
          agents               | PATCH  | /v1/agents/agent_a            | -
          threads              | GET    | /v1/usage                     | READ
          read                 | GET    | /v1/usage                     | -
          read                 | GET    | /v1/webhooks/deliveries       | -
          agents               | GET    | /v1/webhooks/deliveries/m_1   | READ
          read                 | GET    | /api/v1/containers            | -
          read                 | POST   | /api/v1/containers            | CONTAINERS
          containers           | DELETE | /api/v1/containers/ctr_a      | -
          agents               | GET    | /api/v1/containers/ctr_a      | CONTAINERS
          read                 | POST   | /mcp                          | -
          threads              | POST   | /mcp                          | -
          schedules            | POST   | /mcp                          | THREADS
          schedules            | GET    | /mcp                          | THREADS
          admin                | DELETE | /api/v1/containers/ctr_a      | -
          containers           | GET    | /api/v1/other                 | ADMIN
          threads,schedules    | GET    | /v1/threadsX                  | ADMIN
          """)
  void eachRequestNeedsItsResourceScopeOrReadForReads(
      String granted, String method, String path, Scope missing) {
    assertThat(ScopePolicy.missing(Scope.parseList(granted), method, path)).isEqualTo(missing);
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      nullValues = "-",
      textBlock =
          """
          -                 | READ,THREADS,SCHEDULES,ENVIRONMENTS,AGENTS,CONTAINERS,ADMIN
          ''                | -
          ' Read , nonsense' | READ
          """)
  void scopeListsKeepOldKeysPowerfulAndDropTypos(String list, String expected) {
    Set<Scope> parsed = Scope.parseList(list);
    Set<Scope> wanted = EnumSet.noneOf(Scope.class);
    if (expected != null) {
      for (String name : expected.split(",")) {
        wanted.add(Scope.valueOf(name));
      }
    }
    assertThat(parsed).isEqualTo(wanted);
  }
}
