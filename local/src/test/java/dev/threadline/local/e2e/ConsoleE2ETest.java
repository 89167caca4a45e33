package dev.threadline.local.e2e;

import static dev.threadline.local.e2e.LocalModeFixture.ALICE_KEY;
import static dev.threadline.local.e2e.LocalModeFixture.BOB_KEY;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.Select;

/**
 * The web console in a real browser against the local mode: a person signs in with a key, talks to
 * the agent, watches commands run, cancels, makes an environment and a schedule, and reads the
 * usage; every request the page makes is one the API accepts, and another user sees nothing of it.
 * Screenshots of each page go to {@code target/console-screenshots/}.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ConsoleE2ETest {
  private static LocalModeFixture fixture;
  private static ConsoleBrowser browser;

  @BeforeAll
  static void start() {
    ConsoleBrowser.assumeInstalled();
    fixture = LocalModeFixture.start();
    browser = ConsoleBrowser.open(fixture.local().apiUrl());
  }

  @AfterAll
  static void stop() {
    if (browser != null) {
      browser.close();
    }
    if (fixture != null) {
      fixture.close();
    }
  }

  /** Script errors fail the test; refused requests are checked by {@link #assertNoRefusals}. */
  @AfterEach
  void pageLoggedNoErrors() {
    browser.assertNoScriptErrors();
  }

  @Test
  @Order(10)
  void aWrongKeyIsRefusedAsTheApiWordsItAndTheRightOneIsKeptOnlyInSessionStorage() {
    browser.go("");
    browser.type(By.name("apiKey"), "tl_not_a_key");
    browser.submit("sign-in");
    browser.findText(By.cssSelector("#sign-in [role=alert]"), "Missing or invalid API key");
    browser.screenshot("sign-in");
    assertThat(browser.takeRequests())
        .as("only the refused key check")
        .allMatch(request -> request.status() < 400 || request.url().contains("/v1/threads"));

    signIn(ALICE_KEY);

    assertThat(browser.script("return sessionStorage.getItem('threadline.apiKey')"))
        .isEqualTo(ALICE_KEY);
    assertThat(browser.driver().manage().getCookies()).isEmpty();
    assertThat(browser.driver().getCurrentUrl()).doesNotContain(ALICE_KEY);
    assertNoRefusals();
  }

  @Test
  @Order(20)
  void aQuestionIsAnsweredDirectlyAndStreamsIn() {
    startThread("Hello!");
    WebElement answer = browser.find(By.cssSelector(".conversation .item.answer .text"));
    assertThat(answer.getText()).isNotBlank();
    browser.until(driver -> driver.getCurrentUrl().matches(".*#/threads/thread_[^/]+$"));
    browser.findText(By.id("thread-status"), "completed");
    browser.screenshot("thread-direct-answer");

    browser.go("#/threads");
    browser.findText(By.cssSelector("table tbody"), "Hello!");
    browser.screenshot("threads");
    assertNoRefusals();
  }

  @Test
  @Order(30)
  void aBacktickedCommandShowsItsToolCallOutputDiffAndLogs() {
    startThread("Run `echo hello-console > note.txt` and `cat note.txt`");
    WebElement tool =
        browser.findText(By.cssSelector(".conversation .item.tool-call"), "$ cat note.txt");
    assertThat(tool.findElement(By.cssSelector(".output")).getText()).contains("hello-console");
    assertThat(tool.getText()).contains("exit code 0");
    browser.findText(By.cssSelector(".conversation .item.planning"), "");
    browser.findText(By.cssSelector(".conversation .item.file-change"), "note.txt");
    browser.findText(By.id("thread-status"), "completed");
    browser.screenshot("thread-tool-calls");

    browser.find(By.linkText("Diffs")).click();
    WebElement diff = browser.findText(By.cssSelector("section.diff"), "note.txt");
    assertThat(diff.findElement(By.cssSelector(".add")).getText()).isEqualTo("+hello-console");
    browser.screenshot("thread-diffs");

    browser.find(By.linkText("Logs")).click();
    browser.findText(By.cssSelector("table tbody"), "tool_call");
    browser.screenshot("thread-logs");

    browser.find(By.linkText("Conversation")).click();
    browser.type(By.name("content"), "Run `echo second-message`");
    browser.submit("follow-up");
    browser.findText(By.cssSelector(".conversation .item.tool-call .output"), "second-message");
    assertNoRefusals();
  }

  /**
   * The page's first stream is cut right after {@code thread.created} (the way a dropped connection
   * ends a fetch); the console resumes from the last event id it saw and shows each event once.
   */
  @Test
  @Order(35)
  void aDroppedStreamIsResumedFromTheLastEventId() {
    browser.go("#/threads");
    browser.find(By.name("message"));
    browser.script(DROP_FIRST_THREAD_STREAM);
    browser.takeRequests();
    browser.type(By.name("message"), "Run `echo resumed-output`");
    browser.submit("new-thread");

    browser.findText(By.cssSelector(".conversation .item.tool-call .output"), "resumed-output");
    browser.findText(By.id("thread-status"), "completed");
    assertThat(browser.script("return window.threadlineTestDropped")).isEqualTo(true);
    assertThat(browser.driver().findElements(By.cssSelector(".conversation .item.tool-call")))
        .hasSize(1);
    assertThat(browser.driver().findElements(By.xpath("//li[contains(., 'Starting a computer')]")))
        .hasSize(1);
    assertThat(browser.takeRequests())
        .as("resumed through the thread's stream after the last event seen")
        .anyMatch(request ->
            request.url().matches(".*/v1/threads/thread_[^/]+/stream")
                && request.lastEventId() != null
                && request.lastEventId().matches("run_[-a-z0-9]+:[0-9]+:[0-9]+"));
    browser.screenshot("thread-resumed");
  }

  @Test
  @Order(40)
  void aLongRunIsCancelled() {
    startThread("Run `sleep 60`");
    browser.until(driver -> driver.getCurrentUrl().matches(".*#/threads/thread_[^/]+$"));
    browser.findText(By.cssSelector(".conversation .item"), "Starting a computer");
    browser.findText(By.id("thread-status"), "running");
    browser.find(By.id("cancel-run")).click();
    browser.findText(By.id("thread-status"), "cancelled");
    browser.screenshot("thread-cancelled");
    assertNoRefusals();
  }

  @Test
  @Order(50)
  void anEnvironmentIsCreatedWithMaskedVariablesAndBuilt() {
    browser.go("#/environments");
    browser.find(By.linkText("New environment")).click();
    browser.type(By.name("name"), "console-env");
    new Select(browser.find(By.name("runtime-python"))).selectByVisibleText("3.12");
    browser.type(By.name("packages-python"), "requests");
    browser.type(By.name("dockerfileExtensions"), "RUN echo console");
    browser.find(By.xpath("//button[text()='Add variable']")).click();
    browser.type(By.cssSelector("#environment-form .pairs input[name=key]"), "GREETING");
    browser.type(By.cssSelector("#environment-form .pairs input[name=value]"), "very-secret-value");
    browser.screenshot("environment-new");
    browser.submit("environment-form");

    browser.findText(By.tagName("h1"), "console-env");
    assertThat(browser.find(By.id("dockerfile")).getText())
        .contains("requests", "RUN echo console");
    assertThat(browser.driver().getPageSource()).doesNotContain("very-secret-value");
    browser.findText(By.cssSelector("dl.facts"), "GREETING = ****");

    browser.find(By.id("build")).click();
    browser.until(driver -> {
      String status = driver.findElement(By.id("build-status")).getText();
      return status.equals("ready") || status.equals("failed");
    });
    assertThat(browser.find(By.id("build-log")).getText()).isNotBlank();
    browser.screenshot("environment");

    browser.type(By.name("description"), "edited in the console");
    browser.submit("environment-form");
    browser.findText(By.cssSelector("dl.facts"), "edited in the console");
    browser.findText(By.cssSelector("dl.facts"), "GREETING = ****");

    browser.go("#/environments");
    browser.findText(By.cssSelector("table tbody"), "console-env");
    browser.screenshot("environments");
    assertNoRefusals();
  }

  @Test
  @Order(60)
  void aCronScheduleIsCreatedShowsItsNextRunAndItsRuns() {
    browser.go("#/schedules/new");
    browser.type(By.name("name"), "weekday-report");
    browser.type(By.name("task"), "Run `echo report`");
    browser.type(By.name("cronExpression"), "61 9 * * 1-5");
    browser.type(By.name("timezone"), "Europe/Berlin");
    browser.submit("schedule-form");
    WebElement refusal = browser.find(By.cssSelector("#schedule-form [role=alert]"));
    browser.until(ExpectedConditions.textToBePresentInElement(refusal, "cronExpression"));
    assertThat(browser.takeRequests())
        .as("the refused cron expression, as the API refused it")
        .anyMatch(request -> request.status() == 400 && request.url().endsWith("/v1/schedules"));

    browser.type(By.name("cronExpression"), "0 9 * * 1-5");
    browser.submit("schedule-form");
    browser.findText(By.tagName("h1"), "weekday-report");
    assertThat(browser.find(By.id("next-run")).getText()).contains("Europe/Berlin", "Z)");
    browser.screenshot("schedule");

    browser.find(By.xpath("//button[text()='Disable']")).click();
    browser.findText(By.id("schedule-enabled"), "disabled");
    browser.find(By.xpath("//button[text()='Enable']")).click();
    browser.findText(By.id("schedule-enabled"), "enabled");

    browser.find(By.xpath("//button[text()='Run now']")).click();
    browser.until(driver -> driver.getCurrentUrl().matches(".*#/threads/thread_[^/]+$"));
    browser.findText(By.cssSelector(".conversation .item.tool-call .output"), "report");
    browser.driver().navigate().back();
    browser.findText(By.tagName("h1"), "weekday-report");
    browser.findText(By.cssSelector("table tbody"), "weekday-report");

    browser.go("#/schedules/new");
    browser.type(By.name("name"), "once-in-new-york");
    browser.type(By.name("task"), "hello");
    browser.find(By.cssSelector("label[for=type-one-time]")).click();
    // A datetime-local input's typing is locale-dependent; its value is not.
    browser.script(
        "arguments[0].value = '2030-01-02T03:04'", browser.find(By.name("scheduledTime")));
    browser.type(By.name("timezone"), "America/New_York");
    browser.submit("schedule-form");
    browser.findText(By.tagName("h1"), "once-in-new-york");
    assertThat(browser.find(By.id("next-run")).getText())
        .contains("America/New_York", "2030-01-02T08:04:00Z");

    browser.go("#/schedules");
    browser.findText(By.cssSelector("table tbody"), "weekday-report");
    browser.findText(By.cssSelector("table tbody"), "once-in-new-york");
    browser.screenshot("schedules");
    assertNoRefusals();
  }

  @Test
  @Order(70)
  void usageShowsTheAllowanceAndACostChart() {
    browser.go("#/usage");
    assertThat(browser.find(By.id("usage-allowance")).getText()).isEqualTo("$10.00");
    browser.find(By.id("usage-used"));
    browser.find(By.id("usage-remaining"));
    assertThat(browser.driver().findElements(By.cssSelector("#cost-chart rect.bar"))).isNotEmpty();
    browser.screenshot("usage");

    browser.phoneWidth(true);
    browser.go("#/threads");
    browser.find(By.cssSelector("table tbody"));
    browser.screenshot("threads-phone");
    browser.phoneWidth(false);
    assertNoRefusals();
  }

  @Test
  @Order(80)
  void anotherUsersKeySeesNoneOfIt() {
    browser.go("#/threads");
    String aliceThread =
        browser
            .find(By.cssSelector("table tbody a[href^='#/threads/thread_']"))
            .getAttribute("href");
    browser.find(By.id("sign-out")).click();
    signIn(BOB_KEY);

    browser.go("#/threads");
    browser.findText(By.cssSelector("table tbody"), "Nothing here yet.");
    browser.go("#/environments");
    assertThat(browser.find(By.cssSelector("table tbody")).getText()).doesNotContain("console-env");
    browser.go("#/schedules");
    browser.findText(By.cssSelector("table tbody"), "Nothing here yet.");
    assertNoRefusals();

    browser.driver().get(aliceThread);
    browser.findText(By.cssSelector("[role=alert]"), "not found");
    assertThat(browser.takeRequests())
        .as("alice's thread is another user's: 404")
        .anyMatch(request -> request.status() == 404);
    for (int i = 1; i <= 21; i++) {
      fixture.post(BOB_KEY, "/v1/threads", "{\"title\":\"bob-" + i + "\"}");
    }
    browser.go("#/threads");
    browser.findText(By.cssSelector("nav[aria-label=Pages]"), "1–20 of 21");
    browser.find(By.xpath("//nav[@aria-label='Pages']/button[text()='Next']")).click();
    browser.findText(By.cssSelector("nav[aria-label=Pages]"), "21–21 of 21");
    browser.findText(By.cssSelector("table tbody"), "bob-1");
    assertNoRefusals();
  }

  /**
   * Wraps the page's fetch: the first {@code POST /v1/threads} stream breaks (its next chunk is
   * lost) as soon as {@code thread.created} has arrived.
   */
  private static final String DROP_FIRST_THREAD_STREAM =
      """
      const original = window.fetch;
      window.fetch = async (input, init) => {
        const response = await original(input, init);
        if (window.threadlineTestDropped || init?.method !== 'POST' || input !== '/v1/threads') {
          return response;
        }
        const reader = response.body.getReader();
        let created = false;
        const body = new ReadableStream({
          async pull(controller) {
            const { value, done } = await reader.read();
            if (done) { controller.close(); return; }
            if (created) {
              window.threadlineTestDropped = true;
              reader.cancel();
              controller.error(new TypeError('network error'));
              return;
            }
            created = new TextDecoder().decode(value).includes('thread.created');
            controller.enqueue(value);
          }
        });
        return new Response(body, { status: response.status, headers: response.headers });
      };
      """;

  private static void signIn(String key) {
    browser.signIn(key);
  }

  private static void startThread(String message) {
    browser.go("#/threads");
    browser.type(By.name("message"), message);
    browser.submit("new-thread");
  }

  private static void assertNoRefusals() {
    browser.assertNoRefusals();
  }
}
