package dev.threadline.core.containers;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SandboxProofTest {
  @Test
  void onlyTheCredentialsHolderProvesAFreshChallenge() {
    String credential = "c".repeat(43);
    String challenge = SandboxProof.challenge();
    String proof = SandboxProof.of(credential, challenge);

    assertThat(SandboxProof.proves(credential, challenge, proof)).isTrue();
    // The credential as its file holds it (a trailing newline) proves the same.
    assertThat(SandboxProof.proves(credential + "\n", challenge, proof)).isTrue();
    assertThat(SandboxProof.proves("d".repeat(43), challenge, proof)).isFalse();
    assertThat(SandboxProof.proves(credential, SandboxProof.challenge(), proof)).isFalse();
    assertThat(SandboxProof.proves(credential, challenge, null)).isFalse();
    assertThat(proof).doesNotContain(credential);
    assertThat(SandboxProof.challenge()).isNotEqualTo(challenge);
  }
}
