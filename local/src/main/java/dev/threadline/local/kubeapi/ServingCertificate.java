package dev.threadline.local.kubeapi;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * The embedded API's TLS certificate: self-signed, for 127.0.0.1 and localhost, made at each start
 * and never written to disk. TLS because kubectl (client-go) sends a bearer token only over TLS;
 * clients trust this one certificate through the kubeconfig's {@code certificate-authority-data}.
 */
final class ServingCertificate {
  private static final SecureRandom RANDOM = new SecureRandom();

  private final X509Certificate certificate;
  private final KeyPair keys;
  private final char[] password;

  private ServingCertificate(X509Certificate certificate, KeyPair keys, char[] password) {
    this.certificate = certificate;
    this.keys = keys;
    this.password = password;
  }

  static ServingCertificate create(String host) {
    try {
      KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
      generator.initialize(new ECGenParameterSpec("secp256r1"), RANDOM);
      KeyPair keys = generator.generateKeyPair();
      X500Name subject = new X500Name("CN=threadline-local");
      Instant now = Instant.now();
      JcaX509v3CertificateBuilder builder =
          new JcaX509v3CertificateBuilder(
              subject,
              new BigInteger(64, RANDOM),
              Date.from(now.minus(Duration.ofMinutes(5))),
              Date.from(now.plus(Duration.ofDays(3650))),
              subject,
              keys.getPublic());
      builder.addExtension(
          Extension.subjectAlternativeName,
          false,
          new GeneralNames(
              new GeneralName[] {
                new GeneralName(GeneralName.iPAddress, "127.0.0.1"),
                new GeneralName(GeneralName.dNSName, "localhost"),
                host.matches("[0-9.:]+")
                    ? new GeneralName(GeneralName.iPAddress, host)
                    : new GeneralName(GeneralName.dNSName, host)
              }));
      X509Certificate certificate =
          new JcaX509CertificateConverter()
              .getCertificate(
                  builder.build(
                      new JcaContentSignerBuilder("SHA256withECDSA").build(keys.getPrivate())));
      byte[] secret = new byte[24];
      RANDOM.nextBytes(secret);
      return new ServingCertificate(
          certificate, keys, Base64.getEncoder().encodeToString(secret).toCharArray());
    } catch (GeneralSecurityException | OperatorCreationException | IOException e) {
      throw new IllegalStateException("Cannot make the embedded API's TLS certificate", e);
    }
  }

  /** The certificate in PEM, what clients must trust. */
  String certificatePem() {
    StringWriter out = new StringWriter();
    try (JcaPEMWriter writer = new JcaPEMWriter(out)) {
      writer.writeObject(certificate);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toString();
  }

  /** The key and certificate as a PKCS#12 key store, for the server. */
  byte[] keyStore() {
    try {
      KeyStore store = KeyStore.getInstance("PKCS12");
      store.load(null, null);
      store.setKeyEntry(
          "serving",
          keys.getPrivate(),
          password,
          new java.security.cert.Certificate[] {certificate});
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      store.store(bytes, password);
      return bytes.toByteArray();
    } catch (GeneralSecurityException | IOException e) {
      throw new IllegalStateException("Cannot store the embedded API's TLS key", e);
    }
  }

  String keyStorePassword() {
    return new String(password);
  }
}
