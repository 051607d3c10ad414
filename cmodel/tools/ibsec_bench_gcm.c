/*
 * ibsec_bench_gcm.c — speed of the C model's AES-GCM seal next to OpenSSL's, in one process.
 *
 * Usage: ibsec_bench_gcm [-t SECONDS]   (time per measurement, default 0.25)
 *
 * For AES-128 and AES-256, messages of 64 B, 1 KiB and 4 KiB (no AAD, 16-byte tag), it
 * seals the same message repeatedly for about SECONDS with
 *   - the model, ibsec_gcm_seal, at GHASH widths LANES = 1 and 12, and
 *   - OpenSSL, EVP_aes_{128,256}_gcm (key set once, IV set per message, as a real
 *     sender does),
 * and prints MB/s (10^6 bytes of plaintext per second of CPU time) and the ratio
 * model / OpenSSL. It asserts nothing: the figures tell how long a model-driven
 * regression takes, not whether anything is right. The model is a bit-serial golden
 * reference, so expect it to be two to three orders of magnitude slower than OpenSSL's
 * AES-NI / PCLMULQDQ code.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <openssl/evp.h>

#include "gcm.h"

static double cpu_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Seals len-byte messages until `budget` CPU seconds have passed; returns MB/s. */
static double model_mbps(const ibsec_gcm_key *gk, uint8_t *buf, size_t len, double budget)
{
    uint8_t iv[12] = { 0 }, tag[16];
    unsigned long n = 0;
    double t0 = cpu_seconds(), t;
    do {
        for (int i = 0; i < 4; i++) {
            iv[11] = (uint8_t)n;
            ibsec_gcm_seal(gk, iv, NULL, 0, buf, len, buf, tag, 16);
            n++;
        }
        t = cpu_seconds() - t0;
    } while (t < budget);
    return (double)n * (double)len / t / 1e6;
}

static double openssl_mbps(const uint8_t *key, size_t key_len, uint8_t *buf, size_t len, double budget)
{
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    const EVP_CIPHER *ciph = key_len == 16 ? EVP_aes_128_gcm() : EVP_aes_256_gcm();
    uint8_t iv[12] = { 0 }, tag[16];
    unsigned long n = 0;
    int outl;
    double t0, t;

    if (ctx == NULL || EVP_EncryptInit_ex(ctx, ciph, NULL, key, NULL) != 1) {
        fprintf(stderr, "ibsec_bench_gcm: OpenSSL setup failed\n");
        exit(1);
    }
    t0 = cpu_seconds();
    do {
        for (int i = 0; i < 64; i++) {
            iv[11] = (uint8_t)n;
            if (EVP_EncryptInit_ex(ctx, NULL, NULL, NULL, iv) != 1 ||
                EVP_EncryptUpdate(ctx, buf, &outl, buf, (int)len) != 1 ||
                EVP_EncryptFinal_ex(ctx, tag, &outl) != 1 ||
                EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_GET_TAG, 16, tag) != 1) {
                fprintf(stderr, "ibsec_bench_gcm: OpenSSL seal failed\n");
                exit(1);
            }
            n++;
        }
        t = cpu_seconds() - t0;
    } while (t < budget);
    EVP_CIPHER_CTX_free(ctx);
    return (double)n * (double)len / t / 1e6;
}

int main(int argc, char **argv)
{
    static const size_t sizes[] = { 64, 1024, 4096 };
    static const int widths[] = { 1, 12 };
    static uint8_t buf[4096];
    double budget = 0.25;
    uint8_t key[32];

    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-t") == 0 && i + 1 < argc) {
            char *end;
            budget = strtod(argv[++i], &end);
            if (*end != '\0' || budget <= 0 || budget > 60) {
                fprintf(stderr, "ibsec_bench_gcm: -t wants seconds in (0, 60]\n");
                return 2;
            }
        } else {
            fprintf(stderr, "usage: ibsec_bench_gcm [-t SECONDS]\n");
            return 2;
        }
    }
    for (size_t i = 0; i < sizeof(key); i++)
        key[i] = (uint8_t)(0x11 * i);
    memset(buf, 0x5a, sizeof(buf));

    printf("ibsec C model AES-GCM seal vs OpenSSL %s (CPU time, %.2f s per figure)\n",
           OPENSSL_VERSION_TEXT, budget);
    printf("%-8s %7s %6s %12s %14s %12s\n", "key", "msg", "LANES", "model MB/s", "OpenSSL MB/s", "model/OpenSSL");
    for (size_t k = 16; k <= 32; k += 16) {
        for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
            double ossl = openssl_mbps(key, k, buf, sizes[s], budget);
            for (size_t w = 0; w < sizeof(widths) / sizeof(widths[0]); w++) {
                ibsec_gcm_key gk;
                if (ibsec_gcm_key_init(&gk, key, k, widths[w]) != 0) {
                    fprintf(stderr, "ibsec_bench_gcm: key init failed\n");
                    return 1;
                }
                double model = model_mbps(&gk, buf, sizes[s], budget);
                printf("AES-%-4zu %6zuB %6d %12.2f %14.1f %12.5f\n", k * 8, sizes[s], widths[w],
                       model, ossl, model / ossl);
            }
        }
    }
    return 0;
}
