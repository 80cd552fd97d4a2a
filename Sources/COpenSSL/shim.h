#ifndef LIVEGATE_COPENSSL_SHIM_H
#define LIVEGATE_COPENSSL_SHIM_H

#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/crypto.h>
#include <openssl/ec.h>
#include <openssl/ecdsa.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <openssl/sha.h>

/* BIO_new_mem_buf takes a const void *; a named shim keeps the Swift call sites free of casts. */
static inline BIO *lg_bio_from_bytes(const void *bytes, int length) {
    return BIO_new_mem_buf(bytes, length);
}

#endif
