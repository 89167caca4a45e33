package dev.threadline.local.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Predicate;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.logging.LoggingPreferences;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The system's headless Chromium driven through its chromedriver (Debian packages {@code chromium},
 * {@code chromium-driver}): no download, no Selenium Manager. Keeps the browser's network log, so a
 * test can list every request the console made and how the API answered.
 */
final class ConsoleBrowser implements AutoCloseable {
  static final Path CHROMIUM = Path.of("/usr/bin/chromium");
  static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
  private static final Path SCREENSHOTS = Path.of("target", "console-screenshots");
  private static final Duration PATIENCE = Duration.ofSeconds(60);
  private static final int MAX_SHOT_HEIGHT = 4000;

  private final ChromeDriver driver;
  private final Path profile;
  private final String baseUrl;

  private ConsoleBrowser(ChromeDriver driver, Path profile, String baseUrl) {
    this.driver = driver;
    this.profile = profile;
    this.baseUrl = baseUrl;
  }

  /** Skips the calling test class (a JUnit assumption) where Chromium is not installed. */
  static void assumeInstalled() {
    assumeTrue(
        Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER),
        "Console browser tests skipped: "
            + CHROMIUM
            + " and "
            + CHROMEDRIVER
            + " are needed (apt-get install chromium chromium-driver)");
  }

  static ConsoleBrowser open(String baseUrl) {
    try {
      Path profile = Files.createTempDirectory("threadline-chromium");
      ChromeOptions options = new ChromeOptions();
      options.setBinary(CHROMIUM.toFile());
      options.addArguments(
          "--headless=new",
          "--no-sandbox",
          "--disable-gpu",
          "--disable-dev-shm-usage",
          "--no-first-run",
          "--disable-background-networking",
          "--disable-component-update",
          "--disable-sync",
          "--window-size=1280,900",
          "--user-data-dir=" + profile);
      LoggingPreferences logs = new LoggingPreferences();
      logs.enable(LogType.PERFORMANCE, java.util.logging.Level.ALL);
      logs.enable(LogType.BROWSER, java.util.logging.Level.ALL);
      options.setCapability("goog:loggingPrefs", logs);
      ChromeDriverService service =
          new ChromeDriverService.Builder()
              .usingDriverExecutable(CHROMEDRIVER.toFile())
              .usingAnyFreePort()
              .build();
      return new ConsoleBrowser(new ChromeDriver(service, options), profile, baseUrl);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  WebDriver driver() {
    return driver;
  }

  void go(String hash) {
    driver.get(baseUrl + "/console/" + hash);
  }

  WebElement find(By by) {
    return until(ExpectedConditions.visibilityOfElementLocated(by));
  }

  WebElement findText(By by, String text) {
    return until(driver -> {
      for (WebElement element : driver.findElements(by)) {
        if (element.isDisplayed() && element.getText().contains(text)) {
          return element;
        }
      }
      return null;
    });
  }

  <T> T until(Function<? super WebDriver, T> condition) {
    // The console re-renders as events arrive: an element found a moment ago may be replaced.
    return new WebDriverWait(driver, PATIENCE)
        .ignoring(StaleElementReferenceException.class)
        .until(condition);
  }

  void type(By by, String text) {
    WebElement element = find(by);
    element.clear();
    element.sendKeys(text);
  }

  /** Clicks the submit button of the form with this id. */
  void submit(String formId) {
    find(By.cssSelector("#" + formId + " button[type=submit]")).click();
  }

  /** Signs in on the sign-in page with this key and waits for the console's navigation. */
  void signIn(String key) {
    go("");
    type(By.name("apiKey"), key);
    submit("sign-in");
    find(By.id("nav"));
  }

  /** Every API request the page made since the last check was accepted. */
  void assertNoRefusals() {
    Predicate<Request> api =
        request -> !request.url().contains("/console/") && !request.url().startsWith("data:");
    List<Request> refused =
        takeRequests().stream().filter(api).filter(r -> r.status() >= 400).toList();
    assertThat(refused).as("requests the API refused").isEmpty();
  }

  /** The page logged no script error (refused requests are {@link #assertNoRefusals}'s). */
  void assertNoScriptErrors() {
    assertThat(consoleLog().lines())
        .filteredOn(line -> !line.contains("Failed to load resource"))
        .noneMatch(line -> line.startsWith("SEVERE"));
  }

  Object script(String script, Object... args) {
    return driver.executeScript(script, args);
  }

  void phoneWidth(boolean phone) {
    driver.manage().window().setSize(phone ? new Dimension(390, 844) : new Dimension(1280, 900));
  }

  /**
   * A picture of the whole page (the window grown to the page's height for the shot) under {@code
   * target/console-screenshots/}.
   */
  void screenshot(String name) {
    Dimension window = driver.manage().window().getSize();
    long height = ((Number) script("return document.documentElement.scrollHeight")).longValue();
    try {
      Files.createDirectories(SCREENSHOTS);
      driver
          .manage()
          .window()
          .setSize(new Dimension(window.getWidth(), (int) Math.min(MAX_SHOT_HEIGHT, height + 100)));
      byte[] png = driver.getScreenshotAs(OutputType.BYTES);
      Files.write(SCREENSHOTS.resolve(name + ".png"), png);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } finally {
      driver.manage().window().setSize(window);
    }
  }

  /**
   * The requests the page made since the last call: method, URL, the status it got and the {@code
   * Last-Event-ID} it sent.
   */
  List<Request> takeRequests() {
    Map<String, Map<?, ?>> sent = new java.util.HashMap<>();
    List<Request> requests = new ArrayList<>();
    for (LogEntry entry : driver.manage().logs().get(LogType.PERFORMANCE)) {
      Map<?, ?> message = (Map<?, ?>) asMap(entry.getMessage()).get("message");
      Map<?, ?> params = (Map<?, ?>) message.get("params");
      String method = (String) message.get("method");
      if ("Network.requestWillBeSent".equals(method)) {
        sent.put((String) params.get("requestId"), (Map<?, ?>) params.get("request"));
      } else if ("Network.responseReceived".equals(method)) {
        Map<?, ?> response = (Map<?, ?>) params.get("response");
        Map<?, ?> request = sent.getOrDefault((String) params.get("requestId"), Map.of());
        Map<?, ?> headers = (Map<?, ?>) request.get("headers");
        requests.add(
            new Request(
                (String) request.get("method"),
                (String) response.get("url"),
                ((Number) response.get("status")).intValue(),
                headers == null ? null : (String) headers.get("Last-Event-ID")));
      }
    }
    return requests;
  }

  /** What the page logged (errors included), for failure messages. */
  String consoleLog() {
    StringBuilder text = new StringBuilder();
    for (LogEntry entry : driver.manage().logs().get(LogType.BROWSER)) {
      text.append(entry.getLevel()).append(' ').append(entry.getMessage()).append('\n');
    }
    return text.toString();
  }

  private static Map<?, ?> asMap(String json) {
    try {
      return new com.fasterxml.jackson.databind.ObjectMapper().readValue(json, Map.class);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  record Request(String method, String url, int status, String lastEventId) {}

  @Override
  public void close() {
    driver.quit();
    deleteQuietly(profile.toFile());
  }

  private static void deleteQuietly(File folder) {
    File[] children = folder.listFiles();
    if (children != null) {
      for (File child : children) {
        deleteQuietly(child);
      }
    }
    folder.delete();
  }
}
