package dev.threadline.operator.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.threadline.models.ChatMessage;
import dev.threadline.models.ModelErrorCode;
import dev.threadline.models.ModelException;
import dev.threadline.models.ModelProvider;
import dev.threadline.models.ModelReply;
import dev.threadline.models.ModelRequest;
import dev.threadline.models.StopReason;
import dev.threadline.models.TextDeltas;
import dev.threadline.models.Usage;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/** The bound around a direct run's model call, against models that answer, fail or never end. */
class BoundedModelTest {
  private static final ModelRequest HI =
      ModelRequest.of("m", null, List.of(ChatMessage.user("hi")));

  @Test
  void anAnswerAndItsTextPassThrough() {
    List<String> deltas = new CopyOnWriteArrayList<>();
    ModelReply reply =
        bounded(
            (request, listener) -> {
              listener.onText("Hel");
              listener.onText("lo.");
              return new ModelReply("Hello.", List.of(), Usage.ZERO, StopReason.END_TURN);
            },
            new AtomicBoolean())
            .stream(HI, deltas::add);

    assertThat(reply.text()).isEqualTo("Hello.");
    assertThat(deltas).containsExactly("Hel", "lo.");
  }

  @Test
  void aCancelEndsTheWaitAndTheAbandonedCallIsInterruptedAndHeardNoMore() throws Exception {
    CountDownLatch calling = new CountDownLatch(1);
    CountDownLatch interrupted = new CountDownLatch(1);
    List<String> deltas = new CopyOnWriteArrayList<>();
    AtomicBoolean cancelled = new AtomicBoolean();
    BoundedModel model =
        bounded(
            (request, listener) -> {
              calling.countDown();
              try {
                Thread.sleep(Duration.ofMinutes(5));
              } catch (InterruptedException e) {
                interrupted.countDown();
              }
              listener.onText("too late");
              return new ModelReply("too late", List.of(), Usage.ZERO, StopReason.END_TURN);
            },
            cancelled);
    Thread.ofVirtual()
        .start(() -> {
          try {
            calling.await();
          } catch (InterruptedException e) {
            return;
          }
          cancelled.set(true);
        });

    Throwable failure = catchThrowable(() -> model.stream(HI, deltas::add));

    assertThat(failure).isInstanceOf(BoundedModel.Cancelled.class);
    assertThat(interrupted.await(30, TimeUnit.SECONDS)).as("the call was interrupted").isTrue();
    assertThat(deltas).isEmpty();
  }

  @Test
  void whateverTheCallThrowsIsAModelExceptionInItsWords() {
    ModelException failure =
        catchThrowableOfType(
            ModelException.class,
            () ->
                bounded(
                        (request, listener) -> {
                          throw new IllegalStateException("`choices` is required");
                        },
                        new AtomicBoolean())
                    .complete(HI));

    assertThat(failure.code()).isEqualTo(ModelErrorCode.INVALID_REPLY);
    assertThat(failure.getMessage()).contains("IllegalStateException: `choices` is required");
  }

  @Test
  void aModelExceptionStaysAsItIs() {
    ModelException thrown = new ModelException("fake", ModelErrorCode.RATE_LIMITED, "slow down");

    Throwable failure =
        catchThrowable(() ->
            bounded(
                    (request, listener) -> {
                      throw thrown;
                    },
                    new AtomicBoolean())
                .complete(HI));

    assertThat(failure).isSameAs(thrown);
  }

  /** A model that streams as {@code call} does. */
  @FunctionalInterface
  private interface Call {
    ModelReply stream(ModelRequest request, TextDeltas deltas);
  }

  private static BoundedModel bounded(Call call, AtomicBoolean cancelled) {
    ModelProvider model =
        new ModelProvider() {
          @Override
          public String name() {
            return "fake";
          }

          @Override
          public ModelReply complete(ModelRequest request) {
            return call.stream(request, TextDeltas.IGNORE);
          }

          @Override
          public ModelReply stream(ModelRequest request, TextDeltas deltas) {
            return call.stream(request, deltas);
          }
        };
    return new BoundedModel(model, Duration.ofMinutes(1), cancelled::get);
  }
}
