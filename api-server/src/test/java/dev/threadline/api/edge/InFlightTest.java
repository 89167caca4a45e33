package dev.threadline.api.edge;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class InFlightTest {
  @Test
  void eachClientIsHeldBelowTheCapAndGetsItsPlacesBack() {
    InFlight inFlight = new InFlight(2);
    assertThat(inFlight.tryAcquire("a")).isTrue();
    assertThat(inFlight.tryAcquire("a")).isTrue();
    assertThat(inFlight.tryAcquire("a")).as("at the cap").isFalse();
    assertThat(inFlight.tryAcquire("b")).as("per client").isTrue();
    inFlight.release("a");
    assertThat(inFlight.count("a")).isEqualTo(1);
    assertThat(inFlight.tryAcquire("a")).isTrue();
    inFlight.release("a");
    inFlight.release("a");
    assertThat(inFlight.count("a")).isZero();
  }

  @Test
  void zeroIsNoCap() {
    InFlight inFlight = new InFlight(0);
    for (int i = 0; i < 1000; i++) {
      assertThat(inFlight.tryAcquire("a")).isTrue();
    }
    assertThat(inFlight.count("a")).as("nothing is counted").isZero();
  }
}
