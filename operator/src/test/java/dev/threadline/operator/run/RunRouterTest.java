package dev.threadline.operator.run;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.threadline.core.routing.Route;
import dev.threadline.models.ChatMessage;
import dev.threadline.models.ModelProvider;
import dev.threadline.models.ModelProviders;
import dev.threadline.models.ModelSettings;
import dev.threadline.operator.model.AgentProfile;
import dev.threadline.operator.support.OpenAiStandIn;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** One model call decides and answers, against a stand-in OpenAI-compatible endpoint. */
class RunRouterTest {
  private static final AgentProfile AGENT = new AgentProfile("openai", "stand-in", "Be brief.");

  private final RunRouter router = new RunRouter(new DirectAnswer());
  private final List<String> deltas = new CopyOnWriteArrayList<>();
  private OpenAiStandIn endpoint;
  private ModelProvider provider;

  @BeforeEach
  void start() {
    endpoint = new OpenAiStandIn(Duration.ofMillis(5), Duration.ofMillis(1));
    provider = ModelProviders.create(endpoint.settings(Duration.ofSeconds(10)));
  }

  @AfterEach
  void stop() {
    provider.close();
    endpoint.close();
  }

  @Test
  void aTextAnswerIsTheDirectAnswerFromOneCall() {
    endpoint.answerText("Hello", " there", "!");

    RunRouter.Routed routed = route("Hello!", false);

    assertThat(routed.decision().route()).isEqualTo(Route.DIRECT);
    assertThat(routed.decision().reason()).isEqualTo("the model answered directly");
    assertThat(routed.answer()).get().extracting(RunOutcome::response).isEqualTo("Hello there!");
    assertThat(routed.answer().get().usage().outputTokens()).isEqualTo(3);
    assertThat(deltas).containsExactly("Hello", " there", "!");
    assertThat(endpoint.requests()).hasSize(1);
    JsonNode request = endpoint.requests().get(0);
    assertThat(request.path("tools").get(0).path("function").path("name").asText())
        .isEqualTo(ComputerHandoff.TOOL_NAME);
    assertThat(request.path("messages").get(0).path("content").asText()).isEqualTo("Be brief.");
  }

  @Test
  void aHandOffSendsTheRunToTheComputerWithTheModelsReasonAfterOneCall() {
    endpoint.answerToolCall(
        ComputerHandoff.TOOL_NAME,
        "{\"task\":\"create notes.txt\",\"reason\":\"it writes a file\"}");

    RunRouter.Routed routed = route("Make me a notes file", false);

    assertThat(routed.decision().route()).isEqualTo(Route.COMPUTER);
    assertThat(routed.decision().reason())
        .isEqualTo(
            "the model handed the message to the computer: it writes a file (task: create"
                + " notes.txt)");
    assertThat(routed.answer()).isEmpty();
    assertThat(endpoint.requests()).hasSize(1);
    // The hand-off call was billed: the run's usage starts from it.
    assertThat(routed.spent().inputTokens()).isEqualTo(20);
    assertThat(routed.spent().outputTokens()).isEqualTo(1);
  }

  @Test
  void attachedFilesAreMentionedToTheModel() {
    endpoint.answerText("ok");

    route("What is in the file?", true);

    assertThat(endpoint.requests().get(0).path("messages").get(0).path("content").asText())
        .endsWith(DirectAnswer.ATTACHMENTS_NOTE);
  }

  @Test
  void aFailingModelLeavesTheRouteToTheRulesWithoutASecondCall() {
    RunRouter.Routed computer = route("Run `ls -la` please", false);
    assertThat(computer.decision().route()).isEqualTo(Route.COMPUTER);
    assertThat(computer.decision().reason()).endsWith("(the model was unavailable)");
    assertThat(computer.answer()).isEmpty();

    RunRouter.Routed direct = route("What is a monad?", false);
    assertThat(direct.decision().route()).isEqualTo(Route.DIRECT);
    assertThat(direct.answer()).get().extracting(RunOutcome::succeeded).isEqualTo(false);
    assertThat(endpoint.requests()).hasSize(2);
  }

  @Test
  void theScriptedModelRoutesByItsRules() {
    AgentProfile scripted = new AgentProfile("scripted", "scripted", null);
    ModelProvider offline = ModelProviders.create(ModelSettings.scripted());

    deltas.clear();
    RunRouter.Routed greeting =
        router.route(
            "Hello!", false, scripted, offline, List.of(ChatMessage.user("Hello!")), deltas::add);
    RunRouter.Routed command =
        router.route(
            "Run `ls`",
            false,
            scripted,
            offline,
            List.of(ChatMessage.user("Run `ls`")),
            deltas::add);

    assertThat(greeting.decision().route()).isEqualTo(Route.DIRECT);
    assertThat(greeting.decision().reason()).contains("greeting");
    assertThat(greeting.answer()).get().extracting(RunOutcome::response).asString().isNotBlank();
    assertThat(String.join("", deltas)).isEqualTo(greeting.answer().get().response());
    assertThat(command.decision().route()).isEqualTo(Route.COMPUTER);
    assertThat(command.answer()).isEmpty();
    assertThat(endpoint.requests()).isEmpty();
  }

  private RunRouter.Routed route(String message, boolean attachments) {
    return router.route(
        message, attachments, AGENT, provider, List.of(ChatMessage.user(message)), deltas::add);
  }
}
