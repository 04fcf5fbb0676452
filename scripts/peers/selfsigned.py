"""Self-signed certificates for the test peers, written as PEM files (key unencrypted)."""
import datetime
import os


def write_self_signed(directory, stem, key, name, days_from, days_to, extensions=()):
    """Signs `name` with `key`, valid from now + days_from to now + days_to (days may be
    negative); `extensions` are (extension, critical) pairs. Returns (cert_path, key_path)."""
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization

    now = datetime.datetime.now(datetime.timezone.utc)
    builder = (x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(key.public_key())
               .serial_number(x509.random_serial_number())
               .not_valid_before(now + datetime.timedelta(days=days_from))
               .not_valid_after(now + datetime.timedelta(days=days_to)))
    for extension, critical in extensions:
        builder = builder.add_extension(extension, critical=critical)
    certificate = builder.sign(key, hashes.SHA256())
    cert_path, key_path = os.path.join(directory, stem + ".pem"), os.path.join(directory, stem + ".key")
    with open(cert_path, "wb") as f:
        f.write(certificate.public_bytes(serialization.Encoding.PEM))
    with open(key_path, "wb") as f:
        f.write(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.TraditionalOpenSSL,
                                  serialization.NoEncryption()))
    return cert_path, key_path
