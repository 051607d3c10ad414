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
 * reference, so expect it to be one to three orders of magnitude slower than OpenSSL's
 * AES-NI / PCLMULQDQ code (the gap grows with the message, since OpenSSL's fixed
 * per-message cost dominates short ones). The OpenSSL figure is measured once per key
 * size and message size and shown on both LANES rows.
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
            if (ibsec_gcm_seal(gk, iv, NULL, 0, buf, len, buf, tag, 16) != 0) {
                fprintf(stderr, "ibsec_bench_gcm: model seal failed\n");
                exit(1);
            }
            n++;
        }
        t = cpu_seconds() - t0;
    } while (t < budget);
    return (double)n * (double)len / t / 1e6;
}

/* The same for OpenSSL EVP AES-GCM: key schedule once, IV per message. */
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

/* -t SECONDS, or the usage message and exit status 2. */
static double parse_budget(int argc, char **argv)
{
    double budget = 0.25;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-t") == 0 && i + 1 < argc) {
            char *end;
            budget = strtod(argv[++i], &end);
            if (*end != '\0' || !(budget > 0 && budget <= 60)) {
                fprintf(stderr, "ibsec_bench_gcm: -t wants seconds in (0, 60], got '%s'\n", argv[i]);
                exit(2);
            }
        } else {
            fprintf(stderr, "usage: ibsec_bench_gcm [-t SECONDS]\n");
            exit(2);
        }
    }
    return budget;
}

static void print_header(double budget)
{
    printf("ibsec C model AES-GCM seal vs %s EVP, in one process\n", OPENSSL_VERSION_TEXT);
    printf("MB/s = 10^6 plaintext bytes per CPU second; no AAD, 16-byte tag; %.2f s per figure\n\n",
           budget);
    printf("%-8s %8s %5s %11s %13s %14s %15s\n", "key", "message", "LANES", "model MB/s",
           "OpenSSL MB/s", "model/OpenSSL", "OpenSSL faster");
}

static const char *size_name(size_t len)
{
    return len == 64 ? "64 B" : len == 1024 ? "1 KiB" : len == 4096 ? "4 KiB" : "?";
}

int main(int argc, char **argv)
{
    static const size_t sizes[] = { 64, 1024, 4096 };
    static const int widths[] = { 1, 12 };
    static uint8_t buf[4096];
    double budget = parse_budget(argc, argv);
    uint8_t key[32];

    for (size_t i = 0; i < sizeof(key); i++)
        key[i] = (uint8_t)(0x11 * i);
    memset(buf, 0x5a, sizeof(buf));

    print_header(budget);
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
                printf("AES-%-4zu %8s %5d %11.2f %13.1f %14.5f %14.0fx\n", k * 8,
                       size_name(sizes[s]), widths[w], model, ossl, model / ossl, ossl / model);
            }
        }
    }
    return 0;
}
