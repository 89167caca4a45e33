package dev.threadline.local.e2e;

import static dev.threadline.local.e2e.LocalModeFixture.ALICE_KEY;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.threadline.core.threads.ThreadRuns;
import dev.threadline.crds.common.ResourceIds;
import dev.threadline.crds.run.Run;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;

/**
 * The console answering a run that waits for a person, in headless Chromium against the local mode:
 * the page shows the call an agent's policy asks about (tool, command, why) with Approve and Deny,
 * or the model's question with an answer box; the buttons answer through {@code POST
 * /v1/threads/:id/approvals} and the conversation goes on live. A call answered elsewhere (the REST
 * API) or timed out leaves the page without its buttons, from the stream alone, and a click that
 * comes too late is shown in words.
 */
class ConsoleApprovalsE2ETest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Duration INPUT_TIMEOUT = Duration.ofSeconds(30);
  private static final String PUSH_POLICY =
      "{\"commands\": [{\"match\": \"git push*\", \"action\": \"ask\"}]}";
  private static final String PUSH_TASK =
      "Run `echo one > a.txt`, then `git push origin main; echo pushed >> pushes.txt`, then `cat"
          + " pushes.txt`";
  private static final String PUSH_COMMAND = "git push origin main; echo pushed >> pushes.txt";
  private static final By WAITING = By.cssSelector(".conversation .item.approval.waiting");
  private static final By SETTLED = By.cssSelector(".conversation .item.approval.settled");

  @RegisterExtension
  static final LocalModeFixture fixture =
      LocalModeFixture.perClass(
          settings -> settings.withWorker(settings.worker().withInputTimeout(INPUT_TIMEOUT)));

  private static ConsoleBrowser browser;

  @BeforeAll
  static void openBrowser() {
    ConsoleBrowser.assumeInstalled();
    browser = ConsoleBrowser.open(fixture.local().apiUrl());
    browser.signIn(ALICE_KEY);
  }

  @AfterAll
  static void closeBrowser() {
    if (browser != null) {
      browser.close();
    }
  }

  @AfterEach
  void pageLoggedNoErrors() {
    browser.assertNoScriptErrors();
  }

  @Test
  void approvingTheCallRunsItAndTheAnswerAppears() {
    openNewThread(agent(PUSH_POLICY));
    send(PUSH_TASK);

    WebElement request = browser.findText(WAITING, PUSH_COMMAND);
    assertThat(request.getText()).contains("run_command", "Why it asks:", "git push*");
    assertThat(commandsShown()).containsExactly("$ echo one > a.txt");
    browser.findText(By.cssSelector("[role=status]"), "Waiting for your approval");
    browser.screenshot("approval-request");

    request.findElement(By.xpath(".//button[text()='Approve']")).click();

    browser.findText(By.cssSelector(".conversation .item.tool-call .output"), "pushed");
    browser.findText(By.cssSelector(".conversation .item.answer .text"), "Ran 3 commands");
    browser.findText(SETTLED, "Approved; the call runs.");
    assertThat(browser.driver().findElements(By.cssSelector(".item.approval button"))).isEmpty();
    assertThat(commandsShown())
        .containsExactly("$ echo one > a.txt", "$ " + PUSH_COMMAND, "$ cat pushes.txt");
    completedWithoutRefusals();
    browser.screenshot("approval-approved");
  }

  @Test
  void denyingWithAMessageShowsTheModelsRefusal() {
    openNewThread(agent(PUSH_POLICY));
    send(PUSH_TASK);

    WebElement request = browser.findText(WAITING, PUSH_COMMAND);
    browser.type(By.cssSelector(".item.approval textarea[name=denial-message]"), "not on Fridays");
    request.findElement(By.xpath(".//button[text()='Deny']")).click();

    browser.findText(SETTLED, "Denied (not on Fridays)");
    browser.findText(
        By.cssSelector(".conversation .item.answer .text"),
        "the person denied this call: not on Fridays");
    WebElement push =
        browser.findText(By.cssSelector(".conversation .item.tool-call"), PUSH_COMMAND);
    assertThat(push.getAttribute("class")).contains("failure");
    assertThat(push.findElement(By.cssSelector(".output")).getText())
        .contains("the person denied this call: not on Fridays");
    // the push never ran: the file it would have written is not there
    WebElement cat =
        browser.findText(By.cssSelector(".conversation .item.tool-call"), "$ cat pushes.txt");
    assertThat(cat.getAttribute("class")).contains("failure");
    completedWithoutRefusals();
    browser.screenshot("approval-denied");
  }

  @Test
  void theModelsQuestionIsAnsweredInTheAnswerBox() {
    openNewThread(agent("{\"askUser\": true}"));
    send("Do `ask_user: Which branch should I use?`, then `echo done`");

    WebElement question = browser.findText(WAITING, "Which branch should I use?");
    assertThat(question.findElements(By.xpath(".//button[text()='Approve']"))).isEmpty();
    browser.findText(By.cssSelector("[role=status]"), "Waiting for your answer");
    browser.screenshot("approval-question");
    browser.type(By.cssSelector(".item.approval textarea[name=answer]"), "main");
    question.findElement(By.xpath(".//button[text()='Send answer']")).click();

    browser.findText(SETTLED, "You answered: main");
    browser.findText(
        By.cssSelector(".conversation .item.answer .text"),
        "asked: Which branch should I use? → main");
    browser.findText(By.cssSelector(".conversation .item.tool-call .output"), "done");
    completedWithoutRefusals();
  }

  /**
   * The page opened while the run waits shows the request from the thread's stream; the call is
   * then approved through the REST API, and the page follows without its buttons.
   */
  @Test
  void aCallAnsweredElsewhereIsFollowedLive() {
    String threadId = openNewThread(agent(PUSH_POLICY));
    send(PUSH_TASK);
    String callId = browser.find(WAITING).getAttribute("data-call-id");

    browser.go("#/threads");
    browser.findText(By.cssSelector("table tbody"), threadId);
    browser.go("#/threads/" + threadId);
    WebElement rejoined = browser.findText(WAITING, PUSH_COMMAND);
    assertThat(rejoined.getAttribute("data-call-id")).isEqualTo(callId);

    HttpResponse<String> approved =
        fixture.post(
            ALICE_KEY,
            "/v1/threads/" + threadId + "/approvals",
            "{\"callId\": \"" + callId + "\", \"decision\": \"approve\"}");
    assertThat(approved.statusCode()).as(approved.body()).isEqualTo(200);

    browser.findText(SETTLED, "No longer waiting");
    assertThat(browser.driver().findElements(By.cssSelector(".item.approval button"))).isEmpty();
    browser.findText(By.cssSelector(".conversation .item.tool-call .output"), "pushed");
    completedWithoutRefusals();
  }

  /**
   * Nobody answers: the page's stream is held after the request (as a slow connection would), so
   * the buttons are still there when the wait has timed out; a click then is the API's 409, shown
   * in words. Released, the stream shows the timeout's denial and the buttons go.
   */
  @Test
  void aClickAfterTheWaitTimedOutIsShownInWords() {
    String threadId = openNewThread(agent(PUSH_POLICY));
    browser.script(HOLD_STREAMS_AFTER_A_REQUEST);
    try {
      send(PUSH_TASK);
      WebElement request = browser.findText(WAITING, PUSH_COMMAND);
      browser.until(driver -> !waitsFor(threadId));

      request.findElement(By.xpath(".//button[text()='Approve']")).click();
      browser.findText(By.cssSelector(".item.approval [role=alert]"), "Nothing waits on this call");
      browser.screenshot("approval-too-late");
      assertThat(browser.takeRequests())
          .as("the late answer was refused as nothing waiting")
          .anyMatch(r -> r.status() == 409 && r.url().endsWith("/approvals"));

      browser.script("window.threadlineTestRelease()");
      browser.findText(SETTLED, "No longer waiting");
      browser.findText(
          By.cssSelector(".conversation .item.tool-call .output"),
          "nobody answered within " + INPUT_TIMEOUT.toSeconds() + " seconds");
      browser.findText(By.id("thread-status"), "completed");
    } finally {
      browser.driver().navigate().refresh(); // the page's own fetch again for the next test
      browser.find(By.id("nav"));
    }
  }

  /**
   * Wraps the page's fetch: a stream's chunks after the one that carries {@code
   * response.approval_requested} wait until {@code window.threadlineTestRelease()} is called.
   */
  private static final String HOLD_STREAMS_AFTER_A_REQUEST =
      """
      let release;
      const released = new Promise((resolve) => { release = resolve; });
      window.threadlineTestRelease = () => release();
      const original = window.fetch;
      window.fetch = async (input, init) => {
        const response = await original(input, init);
        if (!(response.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
          return response;
        }
        const reader = response.body.getReader();
        let asked = false;
        const body = new ReadableStream({
          async pull(controller) {
            if (asked) await released;
            const { value, done } = await reader.read();
            if (done) { controller.close(); return; }
            asked = asked || new TextDecoder().decode(value).includes('response.approval_requested');
            controller.enqueue(value);
          }
        });
        return new Response(body, { status: response.status, headers: response.headers });
      };
      """;

  /** An agent with this approval policy; the console starts no thread with an agent, so REST. */
  private static String agent(String approvals) {
    HttpResponse<String> response =
        fixture.post(
            ALICE_KEY,
            "/v1/agents",
            "{\"name\": \"careful\", \"model\": \"scripted-model\", \"approvals\": "
                + approvals
                + "}");
    assertThat(response.statusCode()).as(response.body()).isEqualTo(201);
    return json(response.body()).at("/agent/id").asText();
  }

  /** A thread of that agent, made through the API and opened in the console; its id. */
  private static String openNewThread(String agentId) {
    HttpResponse<String> response =
        fixture.post(ALICE_KEY, "/v1/threads", "{\"agentId\": \"" + agentId + "\"}");
    assertThat(response.statusCode()).as(response.body()).isEqualTo(201);
    String threadId = json(response.body()).at("/thread/id").asText();
    browser.go("#/threads/" + threadId);
    browser.findText(By.cssSelector("dl.facts"), threadId);
    browser.takeRequests();
    return threadId;
  }

  /** The thread's run ended completed, and the API accepted every request the page made. */
  private static void completedWithoutRefusals() {
    browser.findText(By.id("thread-status"), "completed");
    browser.assertNoRefusals();
  }

  private static void send(String message) {
    browser.type(By.name("content"), message);
    browser.submit("follow-up");
  }

  private static java.util.List<String> commandsShown() {
    return browser
        .driver()
        .findElements(By.cssSelector(".conversation .item.tool-call .command"))
        .stream()
        .map(WebElement::getText)
        .toList();
  }

  /** Whether the thread's first run still waits for a person (its status.waitingFor). */
  private static boolean waitsFor(String threadId) {
    Run run =
        fixture
            .local()
            .client()
            .resources(Run.class)
            .inNamespace("alice")
            .withName(ThreadRuns.runName(ResourceIds.toName(threadId).orElseThrow(), 1))
            .get();
    return run != null && run.getStatus() != null && run.getStatus().getWaitingFor() != null;
  }

  private static JsonNode json(String body) {
    try {
      return JSON.readTree(body);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
