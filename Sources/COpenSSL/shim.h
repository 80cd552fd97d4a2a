#ifndef LIVEGATE_COPENSSL_SHIM_H
#define LIVEGATE_COPENSSL_SHIM_H

#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/crypto.h>
#include <openssl/ec.h>
#include <openssl/ecdsa.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <openssl/sha.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

/* JOSE writes an ES256 signature as the 64 bytes r||s (RFC 7518 3.4); OpenSSL verifies the DER
   ECDSA-Sig-Value. Returns the DER's length with *der set (free it with OPENSSL_free), or 0. r and s
   belong to the ECDSA_SIG once set0 succeeds; before that they are freed here. */
static inline int lg_ecdsa_p256_der_from_raw(const unsigned char *raw, unsigned char **der) {
    ECDSA_SIG *signature = ECDSA_SIG_new();
    if (signature == NULL) return 0;
    BIGNUM *r = BN_bin2bn(raw, 32, NULL);
    BIGNUM *s = BN_bin2bn(raw + 32, 32, NULL);
    if (r == NULL || s == NULL || ECDSA_SIG_set0(signature, r, s) != 1) {
        BN_free(r);
        BN_free(s);
        ECDSA_SIG_free(signature);
        return 0;
    }
    *der = NULL;
    int length = i2d_ECDSA_SIG(signature, der);
    ECDSA_SIG_free(signature);
    return length > 0 ? length : 0;
}

/* BIO_new_mem_buf takes a const void *; a named shim keeps the Swift call sites free of casts. */
static inline BIO *lg_bio_from_bytes(const void *bytes, int length) {
    return BIO_new_mem_buf(bytes, length);
}

/* EVP_EC_gen is a macro over the variadic EVP_PKEY_Q_keygen, which Swift cannot call. */
static inline EVP_PKEY *lg_p256_generate_key(void) {
    return EVP_EC_gen("P-256");
}

/* BIO_get_mem_data is a macro over BIO_ctrl; the bytes stay owned by the BIO. */
static inline long lg_bio_mem_contents(BIO *bio, const char **contents) {
    char *start = NULL;
    long length = BIO_get_mem_data(bio, &start);
    *contents = start;
    return length;
}

/* Adds one X.509 v3 extension, written as `openssl req -addext` takes it ("IP:127.0.0.1",
   "critical,CA:FALSE"), to a self-signed certificate (issuer = subject). The zeroed context has no
   config database (what the X509V3_set_ctx_nodb macro would say); the extension made here is freed
   here, the certificate keeps its own copy. */
static inline int lg_x509_add_extension(X509 *certificate, int nid, const char *value) {
    X509V3_CTX context = {0};
    X509V3_set_ctx(&context, certificate, certificate, NULL, NULL, 0);
    X509_EXTENSION *extension = X509V3_EXT_conf_nid(NULL, &context, nid, value);
    if (extension == NULL) {
        return 0;
    }
    int added = X509_add_ext(certificate, extension, -1);
    X509_EXTENSION_free(extension);
    return added;
}

/* Problems lg_read_p256_pem reports. */
enum { LG_PEM_UNREADABLE = 1, LG_PEM_NOT_P256 = 2 };

/* Reads a PEM key, private (PKCS#8, as Apple's .p8) or public, and checks it is EC on P-256 as APNs
   requires. Returns the key, which the caller frees once with EVP_PKEY_free, or NULL with *problem set.
   The signer and the simulator both read keys this way; OpenSSL's error queue is left empty. */
static inline EVP_PKEY *lg_read_p256_pem(const void *bytes, int length, int is_private, int *problem) {
    BIO *bio = BIO_new_mem_buf(bytes, length);
    EVP_PKEY *key = NULL;
    if (bio != NULL) {
        key = is_private ? PEM_read_bio_PrivateKey(bio, NULL, NULL, NULL) : PEM_read_bio_PUBKEY(bio, NULL, NULL, NULL);
        BIO_free(bio);
    }
    ERR_clear_error();
    if (key == NULL) {
        *problem = LG_PEM_UNREADABLE;
        return NULL;
    }
    if (EVP_PKEY_get_base_id(key) != EVP_PKEY_EC || EVP_PKEY_get_bits(key) != 256) {
        EVP_PKEY_free(key);
        *problem = LG_PEM_NOT_P256;
        return NULL;
    }
    return key;
}

#endif
