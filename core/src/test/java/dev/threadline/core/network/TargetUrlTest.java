package dev.threadline.core.network;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class TargetUrlTest {
  private static final TargetSetting X = TargetSetting.choice("X");

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "http://2130706433/hook | four decimal numbers",
        "http://0177.0.0.1/hook | four decimal numbers",
        "http://0x7f.1/hook | four decimal numbers",
        "http://0x7f000001/ | four decimal numbers",
        "http://127.1/ | four decimal numbers",
        "http://010.0.0.1/ | four decimal numbers",
        "http://127.0.0.1./ | four decimal numbers",
        "http://256.0.0.1/ | four decimal numbers",
        "http://1.2.3.4.5/ | four decimal numbers",
        "http://example.123/ | four decimal numbers",
        "http://user:pass@hooks.example/ | user name or password",
        "http://@hooks.example/ | user name or password",
        "http://hooks.example:99999/ | port between 1 and 65535",
        "http://hooks.example:0/ | port between 1 and 65535",
        "http://hooks.example:8o/ | port between 1 and 65535",
        "http://[fe80::1%25eth0]/ | IPv6 zone",
        "http://[::ffff:0177.0.0.1]/ | IPv4 part",
        "http://[::1/ | absolute http",
        "http://ex%41mple.com/ | letters, digits",
        "ftp://hooks.example/ | absolute http",
        "HTTP://hooks.example/ | absolute http",
        "/relative | absolute http",
      })
  void ambiguousAndForbiddenFormsAreRefused(String url, String says) {
    assertThatThrownBy(() -> TargetUrl.parse(url))
        .isInstanceOf(InvalidTargetException.class)
        .hasMessageContaining(says);
  }

  @Test
  void literalsAreReadOnceAndTheSameWayEverywhere() throws Exception {
    assertThat(TargetUrl.parse("http://127.0.0.1:8080/x").literal())
        .contains(InetAddress.getByName("127.0.0.1"));
    assertThat(TargetUrl.parse("http://127.0.0.1:8080/x").port()).isEqualTo(8080);
    assertThat(TargetUrl.parse("https://hooks.example/x").port()).isEqualTo(443);
    assertThat(TargetUrl.parse("http://[::FFFF:127.0.0.1]/").host()).isEqualTo("::ffff:127.0.0.1");
    assertThat(TargetUrl.parse("http://Hooks.Example/").literal()).isEmpty();
    assertThat(TargetUrl.parse("http://localhost:9/").namesLoopback()).isTrue();
    assertThat(TargetUrl.parse("http://a.localhost./").namesLoopback()).isTrue();
    assertThat(TargetUrl.parse("http://localhost.example/").namesLoopback()).isFalse();
    assertThat(TargetUrl.literalOf("10.0.0.1")).contains(InetAddress.getByName("10.0.0.1"));
    assertThat(TargetUrl.literalOf("::1")).contains(InetAddress.getByName("::1"));
    assertThat(TargetUrl.literalOf("[::1]")).contains(InetAddress.getByName("::1"));
    assertThat(TargetUrl.literalOf("hooks.example")).isEmpty();
    assertThatThrownBy(() -> TargetUrl.literalOf("0177.0.0.1"))
        .isInstanceOf(InvalidTargetException.class);
  }

  @ParameterizedTest
  @CsvSource({
    "127.0.0.1, LOOPBACK",
    "::1, LOOPBACK",
    "::ffff:127.0.0.1, LOOPBACK",
    "::127.0.0.1, LOOPBACK",
    "2002:7f00:1::, LOOPBACK",
    "10.0.0.1, PRIVATE",
    "172.16.0.1, PRIVATE",
    "192.168.1.1, PRIVATE",
    "100.64.0.1, PRIVATE",
    "fd00::1, PRIVATE",
    "fec0::1, PRIVATE",
    "64:ff9b::a9fe:a9fe, PRIVATE",
    "::ffff:10.0.0.1, PRIVATE",
    "169.254.169.254, LINK_LOCAL",
    "::ffff:169.254.169.254, LINK_LOCAL",
    "fe80::1, LINK_LOCAL",
    "fd00:ec2::254, LINK_LOCAL",
    "0.0.0.0, UNROUTABLE",
    "0.1.2.3, UNROUTABLE",
    "::, UNROUTABLE",
    "224.0.0.1, UNROUTABLE",
    "255.255.255.255, UNROUTABLE",
    "ff02::1, UNROUTABLE",
    "93.184.216.34, PUBLIC",
    "2606:4700::1111, PUBLIC",
    "172.32.0.1, PUBLIC",
    "100.128.0.1, PUBLIC",
  })
  void everyFormIsJudgedByWhatItReaches(String address, AddressKind kind) throws Exception {
    assertThat(AddressKind.of(TargetUrl.literalOf(address).orElseThrow())).isEqualTo(kind);
  }

  @Test
  void eachSettingAdmitsItsKindsAndNeverLinkLocal() throws Exception {
    InetAddress loopback = InetAddress.getByName("127.0.0.1");
    InetAddress privateAddress = InetAddress.getByName("10.0.0.1");
    InetAddress metadata = InetAddress.getByName("169.254.169.254");
    assertThat(AllowedTargets.PUBLIC.refusal("127.0.0.1", loopback, X))
        .hasValueSatisfying(why -> assertThat(why).contains("loopback").contains("X=loopback"));
    assertThat(AllowedTargets.LOOPBACK.refusal("127.0.0.1", loopback, X)).isEmpty();
    assertThat(AllowedTargets.LOOPBACK.refusal("hooks.test", privateAddress, X))
        .hasValue(
            "hooks.test (10.0.0.1) is a private-network address; allowed only with X=private");
    assertThat(AllowedTargets.PRIVATE.refusal("10.0.0.1", privateAddress, X)).isEmpty();
    assertThat(AllowedTargets.PRIVATE.refusal("169.254.169.254", metadata, X))
        .hasValueSatisfying(why -> assertThat(why).contains("link-local").contains("never"));
  }

  @Test
  void aFlagSettingIsNamedAsAFlag() throws Exception {
    assertThat(
            AllowedTargets.PUBLIC.refusal(
                "10.0.0.1", InetAddress.getByName("10.0.0.1"), TargetSetting.flag("F")))
        .hasValue("10.0.0.1 is a private-network address; allowed only with F=true");
  }

  @ParameterizedTest
  @ValueSource(strings = {"public", " Loopback ", "PRIVATE"})
  void settingValuesAreRead(String text) {
    assertThat(AllowedTargets.parse("X", text).value()).isEqualTo(text.strip().toLowerCase());
  }

  @Test
  void anUnknownSettingValueNamesTheVariable() {
    assertThatThrownBy(() -> AllowedTargets.parse("X", "true"))
        .hasMessage("X must be public, loopback or private, got: true");
  }

  @Test
  void webhooksReadTheNewVariableThenTheOldFlag() {
    assertThat(AllowedTargets.forWebhooks(java.util.Map.of())).isEqualTo(AllowedTargets.PUBLIC);
    assertThat(
            AllowedTargets.forWebhooks(
                java.util.Map.of(AllowedTargets.LEGACY_WEBHOOKS_VARIABLE, "true")))
        .isEqualTo(AllowedTargets.PRIVATE);
    assertThat(
            AllowedTargets.forWebhooks(
                java.util.Map.of(
                    AllowedTargets.WEBHOOKS_VARIABLE,
                    "loopback",
                    AllowedTargets.LEGACY_WEBHOOKS_VARIABLE,
                    "true")))
        .isEqualTo(AllowedTargets.LOOPBACK);
  }
}
