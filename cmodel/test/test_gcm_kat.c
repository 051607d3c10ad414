/*
 * test_gcm_kat.c — known-answer tests of the crypto layer (aes.c, ghash.c, gcm.c).
 *
 * Sources (values transcribed as hex strings, next to the checks that use them):
 *   - FIPS-197 (AES), Appendix A.1 / A.3 (key expansion), Appendix B (cipher example),
 *     Appendix C.1 / C.3 (AES-128 / AES-256 example vectors with the round-by-round
 *     states of C.1).
 *   - D. McGrew, J. Viega, "The Galois/Counter Mode of Operation (GCM)", revised 2005,
 *     Appendix B: Test Cases 1-4 (AES-128) and 13-16 (AES-256) — every case with a
 *     96-bit IV for the key sizes ibsec supports — including the hash subkey H, the
 *     GHASH intermediates X_i, len(A)||len(C) and GHASH(H, A, C) that the document lists.
 *     Out of scope: Test Cases 5/6, 11/12, 17/18 (64-bit and 480-bit IVs; ibsec only uses
 *     96-bit IVs, SP 800-38D §8.2.1) and 7-12 (AES-192, not supported by ibsec).
 *
 * Every transcribed value is checked twice: against the model (does the model compute
 * the standard's answer?) and against OpenSSL (is the transcription right?). A check
 * named "... [vector vs OpenSSL]" failing means a typo in this file; "... [model]"
 * failing alone means the model is wrong. Two kinds of values OpenSSL cannot produce
 * directly are checked through an identity instead:
 *   - GHASH intermediates X_i: OpenSSL's tag for AAD = the first i GHASH blocks and no
 *     plaintext is E(K,J0) ^ ((X_i ^ L_i)·H), L_i = [128·i]_64 || [0]_64; since
 *     multiplication by H != 0 is a bijection, a wrong X_i cannot satisfy it.
 *   - AES round states and round keys: OpenSSL exposes neither; the model's end-to-end
 *     AES output for the same key is OpenSSL-checked, so a single mismatching
 *     intermediate with all end-to-end checks passing points at the transcription.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aes.h"
#include "check.h"
#include "gcm.h"
#include "ghash.h"
#include "ossl_gcm.h"

static check_ctx C;
static EVP_CIPHER_CTX *ossl;

/* Parses a table entry; a malformed or wrongly sized entry is a failed check. */
static size_t unhex(const char *what, const char *hex, uint8_t *out, size_t max)
{
    long n = check_unhex(hex, out, max);
    if (n < 0) {
        check_failf(&C, "malformed hex in table entry %s", what);
        return 0;
    }
    return (size_t)n;
}

/* ---------------------------------------------------------------------------------- */
/* FIPS-197 §5.1.1: the S-box from its definition.                                    */

/* Product in GF(2^8) mod x^8 + x^4 + x^3 + x + 1, bit by bit (FIPS-197 §4.2). */
static uint8_t gf256_mul(uint8_t a, uint8_t b)
{
    uint8_t p = 0;
    for (int i = 0; i < 8; i++) {
        if (b & 1)
            p ^= a;
        a = (uint8_t)((a << 1) ^ ((a & 0x80) ? 0x1b : 0));
        b >>= 1;
    }
    return p;
}

static uint8_t rotl8(uint8_t b, int n)
{
    return (uint8_t)((b << n) | (b >> (8 - n)));
}

static void test_sbox_definition(void)
{
    int bad = 0;
    for (int x = 0; x < 256; x++) {
        uint8_t inv = 0; /* {00} maps to {00} */
        for (int y = 1; y < 256 && x != 0; y++)
            if (gf256_mul((uint8_t)x, (uint8_t)y) == 1)
                inv = (uint8_t)y;
        /* affine transformation (FIPS-197 eq. 5.1) */
        uint8_t s = (uint8_t)(inv ^ rotl8(inv, 1) ^ rotl8(inv, 2) ^ rotl8(inv, 3) ^ rotl8(inv, 4) ^ 0x63);
        if (s != ibsec_aes_sbox((uint8_t)x)) {
            check_failf(&C, "S-box[%02x]: definition gives %02x, table has %02x", x, s,
                        ibsec_aes_sbox((uint8_t)x));
            bad = 1;
        }
    }
    check_true(&C, !bad, "S-box table equals its FIPS-197 §5.1.1 definition");
    /* FIPS-197 §5.1.1 example: S-box(53) = ed */
    check_int(&C, "S-box(0x53) [FIPS-197 §5.1.1]", 0xed, ibsec_aes_sbox(0x53));
}

/* ---------------------------------------------------------------------------------- */
/* FIPS-197 block cipher vectors.                                                      */

static const struct {
    const char *name, *key, *pt, *ct;
} aes_vectors[] = {
    { "FIPS-197 App. B (AES-128)",
      "2b7e151628aed2a6abf7158809cf4f3c", "3243f6a8885a308d313198a2e0370734",
      "3925841d02dc09fbdc118597196a0b32" },
    { "FIPS-197 App. C.1 (AES-128)",
      "000102030405060708090a0b0c0d0e0f", "00112233445566778899aabbccddeeff",
      "69c4e0d86a7b0430d8cdb78070b4c55a" },
    { "FIPS-197 App. C.3 (AES-256)",
      "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
      "00112233445566778899aabbccddeeff", "8ea2b7ca516745bfeafc49904b496089" },
    /* the FIPS-197 App. A.3 key, so that its key expansion below is covered end to end;
     * the expected value is OpenSSL's (no published value for this key/block pair) */
    { "FIPS-197 App. A.3 key (AES-256)",
      "603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4",
      "00112233445566778899aabbccddeeff", NULL },
};

static void test_aes_vectors(void)
{
    for (size_t v = 0; v < sizeof(aes_vectors) / sizeof(aes_vectors[0]); v++) {
        uint8_t key[32], pt[16], ct[16], got[16], ref[16], st[15][16];
        char what[160];
        ibsec_aes_key k;
        size_t key_len = unhex("aes key", aes_vectors[v].key, key, sizeof(key));
        unhex("aes pt", aes_vectors[v].pt, pt, sizeof(pt));

        snprintf(what, sizeof(what), "%s key expansion accepts the key", aes_vectors[v].name);
        if (!check_int(&C, what, 0, ibsec_aes_key_expand(&k, key, key_len)))
            continue;
        ibsec_aes_encrypt_block(&k, pt, got);
        if (ossl_aes_block(ossl, key, key_len, pt, ref) != 0)
            check_failf(&C, "%s: OpenSSL ECB failed", aes_vectors[v].name);
        if (aes_vectors[v].ct != NULL) {
            unhex("aes ct", aes_vectors[v].ct, ct, sizeof(ct));
            snprintf(what, sizeof(what), "%s ciphertext [vector vs OpenSSL]", aes_vectors[v].name);
            check_bytes(&C, what, ct, ref, 16);
        } else {
            memcpy(ct, ref, 16);
        }
        snprintf(what, sizeof(what), "%s ciphertext [model]", aes_vectors[v].name);
        check_bytes(&C, what, ct, got, 16);

        ibsec_aes_encrypt_trace(&k, pt, st);
        snprintf(what, sizeof(what), "%s trace: last state is the ciphertext", aes_vectors[v].name);
        check_bytes(&C, what, ct, st[k.nr], 16);
        uint8_t x0[16];
        for (int i = 0; i < 16; i++)
            x0[i] = (uint8_t)(pt[i] ^ key[i]); /* rk[0] is the first 16 key bytes */
        snprintf(what, sizeof(what), "%s trace: st[0] = in ^ key[0..15]", aes_vectors[v].name);
        check_bytes(&C, what, x0, st[0], 16);
    }
}

/* FIPS-197 Appendix C.1: "round[r].start" for r = 1..10 is st[r-1]; round[10].output is st[10]. */
static const char *const c1_trace[11] = {
    "00102030405060708090a0b0c0d0e0f0", "89d810e8855ace682d1843d8cb128fe4",
    "4915598f55e5d7a0daca94fa1f0a63f7", "fa636a2825b339c940668a3157244d17",
    "247240236966b3fa6ed2753288425b6c", "c81677bc9b7ac93b25027992b0261996",
    "c62fe109f75eedc3cc79395d84f9cf5d", "d1876c0f79c4300ab45594add66ff41f",
    "fde3bad205e5d0d73547964ef1fe37f1", "bd6e7c3df2b5779e0b61216e8b10b689",
    "69c4e0d86a7b0430d8cdb78070b4c55a",
};

static void test_aes_trace_c1(void)
{
    uint8_t key[16], pt[16], st[15][16], exp[16];
    ibsec_aes_key k;
    unhex("c1 key", "000102030405060708090a0b0c0d0e0f", key, sizeof(key));
    unhex("c1 pt", "00112233445566778899aabbccddeeff", pt, sizeof(pt));
    ibsec_aes_key_expand(&k, key, 16);
    ibsec_aes_encrypt_trace(&k, pt, st);
    for (int r = 0; r <= 10; r++) {
        char what[96];
        unhex("c1 trace", c1_trace[r], exp, sizeof(exp));
        snprintf(what, sizeof(what), "FIPS-197 C.1 state after round %d [model]", r);
        check_bytes(&C, what, exp, st[r], 16);
    }
}

/* FIPS-197 Appendix A: selected round keys (words w[4r..4r+3]). */
static const struct {
    const char *name, *key;
    int round;
    const char *rk;
} key_expansion_vectors[] = {
    { "FIPS-197 A.1 rk[1]", "2b7e151628aed2a6abf7158809cf4f3c", 1, "a0fafe1788542cb123a339392a6c7605" },
    { "FIPS-197 A.1 rk[10]", "2b7e151628aed2a6abf7158809cf4f3c", 10, "d014f9a8c9ee2589e13f0cc8b6630ca6" },
    { "FIPS-197 A.3 rk[2]", "603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4", 2,
      "9ba354118e6925afa51a8b5f2067fcde" },
    { "FIPS-197 A.3 rk[14]", "603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4", 14,
      "fe4890d1e6188d0b046df344706c631e" },
};

static void test_key_expansion(void)
{
    for (size_t v = 0; v < sizeof(key_expansion_vectors) / sizeof(key_expansion_vectors[0]); v++) {
        uint8_t key[32], rk[16];
        char what[96];
        ibsec_aes_key k;
        size_t key_len = unhex("kx key", key_expansion_vectors[v].key, key, sizeof(key));
        unhex("kx rk", key_expansion_vectors[v].rk, rk, sizeof(rk));
        ibsec_aes_key_expand(&k, key, key_len);
        snprintf(what, sizeof(what), "%s [model]", key_expansion_vectors[v].name);
        check_bytes(&C, what, rk, k.rk[key_expansion_vectors[v].round], 16);
    }
    /* key lengths other than 16 and 32 are refused */
    uint8_t key[32] = { 0 };
    ibsec_aes_key k;
    check_int(&C, "AES key length 24 is refused", -1, ibsec_aes_key_expand(&k, key, 24));
    check_int(&C, "AES key length 0 is refused", -1, ibsec_aes_key_expand(&k, key, 0));
    check_int(&C, "AES null key is refused", -1, ibsec_aes_key_expand(&k, NULL, 16));
}

/* ---------------------------------------------------------------------------------- */
/* McGrew & Viega, GCM specification Appendix B.                                       */

struct gcm_case {
    const char *name;
    const char *key, *iv, *aad, *pt, *ct, *tag;
    const char *h;         /* H = E(K, 0^128) */
    const char *x[8];      /* GHASH intermediates X_1..X_(m+n), NULL-terminated */
    const char *lens;      /* len(A) || len(C) */
    const char *ghash;     /* GHASH(H, A, C) */
};

#define TC_P64 "d9313225f88406e5a55909c5aff5269a" "86a7a9531534f7da2e4c303d8a318a72" \
               "1c3c0c95956809532fcf0e2449a6b525" "b16aedf5aa0de657ba637b391aafd255"
#define TC_P60 "d9313225f88406e5a55909c5aff5269a" "86a7a9531534f7da2e4c303d8a318a72" \
               "1c3c0c95956809532fcf0e2449a6b525" "b16aedf5aa0de657ba637b39"
#define TC_A20 "feedfacedeadbeeffeedfacedeadbeef" "abaddad2"
#define TC_K128 "feffe9928665731c6d6a8f9467308308"
#define TC_IV "cafebabefacedbaddecaf888"

static const struct gcm_case gcm_cases[] = {
    { "GCM Test Case 1", "00000000000000000000000000000000", "000000000000000000000000", "", "", "",
      "58e2fccefa7e3061367f1d57a4e7455a", "66e94bd4ef8a2c3b884cfa59ca342b2e", { NULL },
      "00000000000000000000000000000000", "00000000000000000000000000000000" },
    { "GCM Test Case 2", "00000000000000000000000000000000", "000000000000000000000000", "",
      "00000000000000000000000000000000", "0388dace60b6a392f328c2b971b2fe78",
      "ab6e47d42cec13bdf53a67b21257bddf", "66e94bd4ef8a2c3b884cfa59ca342b2e",
      { "5e2ec746917062882c85b0685353deb7", NULL },
      "00000000000000000000000000000080", "f38cbb1ad69223dcc3457ae5b6b0f885" },
    { "GCM Test Case 3", TC_K128, TC_IV, "", TC_P64,
      "42831ec2217774244b7221b784d0d49c" "e3aa212f2c02a4e035c17e2329aca12e"
      "21d514b25466931c7d8f6a5aac84aa05" "1ba30b396a0aac973d58e091473f5985",
      "4d5c2af327cd64a62cf35abd2ba6fab4", "b83b533708bf535d0aa6e52980d53b78",
      { "59ed3f2bb1a0aaa07c9f56c6a504647b", "b714c9048389afd9f9bc5c1d4378e052",
        "47400c6577b1ee8d8f40b2721e86ff10", "4796cf49464704b5dd91f159bb1b7f95", NULL },
      "00000000000000000000000000000200", "7f1b32b81b820d02614f8895ac1d4eac" },
    { "GCM Test Case 4", TC_K128, TC_IV, TC_A20, TC_P60,
      "42831ec2217774244b7221b784d0d49c" "e3aa212f2c02a4e035c17e2329aca12e"
      "21d514b25466931c7d8f6a5aac84aa05" "1ba30b396a0aac973d58e091",
      "5bc94fbc3221a5db94fae95ae7121a47", "b83b533708bf535d0aa6e52980d53b78",
      { "ed56aaf8a72d67049fdb9228edba1322", "cd47221ccef0554ee4bb044c88150352",
        "54f5e1b2b5a8f9525c23924751a3ca51", "324f585c6ffc1359ab371565d6c45f93",
        "ca7dd446af4aa70cc3c0cd5abba6aa1c", "1590df9b2eb6768289e57d56274c8570", NULL },
      "00000000000000a000000000000001e0", "698e57f70e6ecc7fd9463b7260a9ae5f" },
    { "GCM Test Case 13", "00000000000000000000000000000000" "00000000000000000000000000000000",
      "000000000000000000000000", "", "", "", "530f8afbc74536b9a963b4f1c4cb738b",
      "dc95c078a2408989ad48a21492842087", { NULL },
      "00000000000000000000000000000000", "00000000000000000000000000000000" },
    { "GCM Test Case 14", "00000000000000000000000000000000" "00000000000000000000000000000000",
      "000000000000000000000000", "", "00000000000000000000000000000000",
      "cea7403d4d606b6e074ec5d3baf39d18", "d0d1c8a799996bf0265b98b5d48ab919",
      "dc95c078a2408989ad48a21492842087", { "fd6ab7586e556dba06d69cfe6223b262", NULL },
      "00000000000000000000000000000080", "83de425c5edc5d498f382c441041ca92" },
    { "GCM Test Case 15", TC_K128 TC_K128, TC_IV, "", TC_P64,
      "522dc1f099567d07f47f37a32a84427d" "643a8cdcbfe5c0c97598a2bd2555d1aa"
      "8cb08e48590dbb3da7b08b1056828838" "c5f61e6393ba7a0abcc9f662898015ad",
      "b094dac5d93471bdec1a502270e3cc6c", "acbef20579b4b8ebce889bac8732dad7",
      { "fcbefb78635d598eddaf982310670f35", "29de812309d3116a6eff7ec844484f3e",
        "45fad9deeda9ea561b8f199c3613845b", "ed95f8e164bf3213febc740f0bd9c6af", NULL },
      "00000000000000000000000000000200", "4db870d37cb75fcb46097c36230d1612" },
    { "GCM Test Case 16", TC_K128 TC_K128, TC_IV, TC_A20, TC_P60,
      "522dc1f099567d07f47f37a32a84427d" "643a8cdcbfe5c0c97598a2bd2555d1aa"
      "8cb08e48590dbb3da7b08b1056828838" "c5f61e6393ba7a0abcc9f662",
      "76fc6ece0f4e1768cddf8853bb2d551b", "acbef20579b4b8ebce889bac8732dad7",
      { "5165d242c2592c0a6375e2622cf925d2", "8efa30ce83298b85fe71abefc0cdd01d",
        "abe07e0bb62354177480b550f9f6cdcc", "3978e4f141b95f3b4699756b1c3c2082",
        "8abf3c48901debe76837d8a05c7d6e87", "9249beaf520c48b912fa120bbf391dc8", NULL },
      "00000000000000a000000000000001e0", "8bd0c4d8aacd391e67cca447e8c38f65" },
};

#define MAXMSG 64
#define MAXAAD 32

static void what_of(char *buf, size_t n, const struct gcm_case *tc, const char *item)
{
    snprintf(buf, n, "%s: %s", tc->name, item);
}

static void test_gcm_case(const struct gcm_case *tc)
{
    uint8_t key[32], iv[12], aad[MAXAAD], pt[MAXMSG], ct[MAXMSG], tag[16], h[16], lens[16], gh[16];
    uint8_t got_ct[MAXMSG], got_tag[16], got_pt[MAXMSG], ref_ct[MAXMSG], ref_tag[16];
    uint8_t j0[16], ek_j0[16], zero[16] = { 0 }, ref_h[16];
    char what[160];

    size_t key_len = unhex("key", tc->key, key, sizeof(key));
    unhex("iv", tc->iv, iv, sizeof(iv));
    size_t aad_len = unhex("aad", tc->aad, aad, sizeof(aad));
    size_t len = unhex("pt", tc->pt, pt, sizeof(pt));
    size_t ct_len = unhex("ct", tc->ct, ct, sizeof(ct));
    unhex("tag", tc->tag, tag, sizeof(tag));
    unhex("h", tc->h, h, sizeof(h));
    unhex("lens", tc->lens, lens, sizeof(lens));
    unhex("ghash", tc->ghash, gh, sizeof(gh));
    what_of(what, sizeof(what), tc, "ciphertext length equals plaintext length");
    check_int(&C, what, (long long)len, (long long)ct_len);

    /* --- the transcription against OpenSSL --- */
    if (ossl_gcm_seal(ossl, key, key_len, iv, aad, aad_len, pt, len, ref_ct, ref_tag, 16) != 0)
        check_failf(&C, "%s: OpenSSL seal failed", tc->name);
    what_of(what, sizeof(what), tc, "C [vector vs OpenSSL]");
    check_bytes(&C, what, ct, ref_ct, len);
    what_of(what, sizeof(what), tc, "T [vector vs OpenSSL]");
    check_bytes(&C, what, tag, ref_tag, 16);
    ossl_aes_block(ossl, key, key_len, zero, ref_h);
    what_of(what, sizeof(what), tc, "H = E(K, 0) [vector vs OpenSSL]");
    check_bytes(&C, what, h, ref_h, 16);
    ibsec_gcm_counter_block(iv, 1, j0);
    ossl_aes_block(ossl, key, key_len, j0, ek_j0);
    uint8_t ref_gh[16];
    for (int i = 0; i < 16; i++)
        ref_gh[i] = (uint8_t)(ref_tag[i] ^ ek_j0[i]); /* GHASH = T ^ E(K, J0) */
    what_of(what, sizeof(what), tc, "GHASH(H, A, C) [vector vs OpenSSL]");
    check_bytes(&C, what, gh, ref_gh, 16);

    /* --- the model, at every GHASH width --- */
    static const int widths[] = { 1, 4, 12 };
    for (size_t w = 0; w < 3; w++) {
        ibsec_gcm_key gk;
        char item[64];
        if (ibsec_gcm_key_init(&gk, key, key_len, widths[w]) != 0) {
            check_failf(&C, "%s: key init failed", tc->name);
            continue;
        }
        snprintf(item, sizeof(item), "H [model, LANES=%d]", widths[w]);
        what_of(what, sizeof(what), tc, item);
        check_bytes(&C, what, h, gk.h, 16);

        memset(got_ct, 0xa5, sizeof(got_ct));
        snprintf(item, sizeof(item), "seal returns 0 [LANES=%d]", widths[w]);
        what_of(what, sizeof(what), tc, item);
        check_int(&C, what, 0, ibsec_gcm_seal(&gk, iv, aad, aad_len, pt, len, got_ct, got_tag, 16));
        snprintf(item, sizeof(item), "C [model, LANES=%d]", widths[w]);
        what_of(what, sizeof(what), tc, item);
        check_bytes(&C, what, ct, got_ct, len);
        snprintf(item, sizeof(item), "T [model, LANES=%d]", widths[w]);
        what_of(what, sizeof(what), tc, item);
        check_bytes(&C, what, tag, got_tag, 16);

        memset(got_pt, 0xa5, sizeof(got_pt));
        snprintf(item, sizeof(item), "open accepts the published C, T [LANES=%d]", widths[w]);
        what_of(what, sizeof(what), tc, item);
        check_int(&C, what, 0, ibsec_gcm_open(&gk, iv, aad, aad_len, ct, len, tag, 16, got_pt));
        snprintf(item, sizeof(item), "open recovers P [LANES=%d]", widths[w]);
        what_of(what, sizeof(what), tc, item);
        check_bytes(&C, what, pt, got_pt, len);

        uint8_t bad_tag[16];
        memcpy(bad_tag, tag, 16);
        bad_tag[15] ^= 0x01;
        memset(got_pt, 0xa5, sizeof(got_pt));
        snprintf(item, sizeof(item), "open rejects T with its last bit flipped [LANES=%d]", widths[w]);
        what_of(what, sizeof(what), tc, item);
        check_int(&C, what, -1, ibsec_gcm_open(&gk, iv, aad, aad_len, ct, len, bad_tag, 16, got_pt));
        int zeroed = 1;
        for (size_t i = 0; i < len; i++)
            zeroed &= got_pt[i] == 0;
        snprintf(item, sizeof(item), "rejected open zeroes the output [LANES=%d]", widths[w]);
        what_of(what, sizeof(what), tc, item);
        check_true(&C, zeroed, what);

        /* GHASH side with intermediates */
        uint8_t blocks[16 * 8], s[16], full[16];
        size_t nb = ibsec_gcm_ghash_input_blocks(aad_len, len);
        snprintf(item, sizeof(item), "full_tag returns 0 [LANES=%d]", widths[w]);
        what_of(what, sizeof(what), tc, item);
        if (!check_int(&C, what, 0, ibsec_gcm_full_tag(&gk, iv, aad, aad_len, ct, len, blocks, s, full)))
            continue;
        snprintf(item, sizeof(item), "GHASH(H, A, C) [model, LANES=%d]", widths[w]);
        what_of(what, sizeof(what), tc, item);
        check_bytes(&C, what, gh, s, 16);
        snprintf(item, sizeof(item), "full tag [model, LANES=%d]", widths[w]);
        what_of(what, sizeof(what), tc, item);
        check_bytes(&C, what, tag, full, 16);
        what_of(what, sizeof(what), tc, "len(A)||len(C) is the last GHASH input block [model]");
        check_bytes(&C, what, lens, blocks + 16 * (nb - 1), 16);
    }

    /* --- GHASH intermediates X_i, serially --- */
    uint8_t blocks[16 * 8], y[16] = { 0 };
    size_t nb = ibsec_gcm_ghash_input_blocks(aad_len, len);
    ibsec_gcm_ghash_input(aad, aad_len, ct, len, blocks);
    size_t nx = 0;
    while (tc->x[nx] != NULL)
        nx++;
    what_of(what, sizeof(what), tc, "number of X_i = GHASH input blocks - 1");
    check_int(&C, what, (long long)nb - 1, (long long)nx);
    for (size_t i = 0; i < nx && i + 1 < nb; i++) {
        uint8_t xi[16], li[16] = { 0 }, t[16], lhs[16], ref_tag_i[16];
        char item[64];
        unhex("x", tc->x[i], xi, sizeof(xi));
        ibsec_ghash_serial(y, h, blocks + 16 * i, 1);
        snprintf(item, sizeof(item), "X_%zu [model]", i + 1);
        what_of(what, sizeof(what), tc, item);
        check_bytes(&C, what, xi, y, 16);

        /* OpenSSL: AAD = GHASH blocks 1..i, no plaintext -> T_i = E(K,J0) ^ ((X_i ^ L_i)·H) */
        uint64_t bits = (uint64_t)(i + 1) * 128;
        for (int b = 0; b < 8; b++)
            li[7 - b] = (uint8_t)(bits >> (8 * b));
        if (ossl_gcm_seal(ossl, key, key_len, iv, blocks, 16 * (i + 1), NULL, 0, NULL, ref_tag_i, 16) != 0)
            check_failf(&C, "%s: OpenSSL seal (X_i check) failed", tc->name);
        for (int b = 0; b < 16; b++)
            t[b] = (uint8_t)(xi[b] ^ li[b]);
        ibsec_gf128_mul(t, h, lhs);
        for (int b = 0; b < 16; b++)
            lhs[b] ^= ek_j0[b];
        snprintf(item, sizeof(item), "X_%zu [vector vs OpenSSL]", i + 1);
        what_of(what, sizeof(what), tc, item);
        check_bytes(&C, what, ref_tag_i, lhs, 16);
    }
    ibsec_ghash_serial(y, h, blocks + 16 * (nb - 1), 1);
    what_of(what, sizeof(what), tc, "GHASH(H, A, C) serially [model]");
    check_bytes(&C, what, gh, y, 16);
}

/* ---------------------------------------------------------------------------------- */
/* The API contract of docs/crypto-core.md: bad arguments are refused with -1.          */

static void test_api_contract(void)
{
    ibsec_gcm_key gk;
    uint8_t key[16] = { 0 }, iv[12] = { 0 }, buf[32] = { 0 }, out[32], tag[16];

    check_int(&C, "key_init: key length 24 refused", -1, ibsec_gcm_key_init(&gk, key, 24, 1));
    check_int(&C, "key_init: lanes 0 refused", -1, ibsec_gcm_key_init(&gk, key, 16, 0));
    check_int(&C, "key_init: lanes 13 refused", -1, ibsec_gcm_key_init(&gk, key, 16, IBSEC_MAX_LANES + 1));
    check_int(&C, "key_init: null key refused", -1, ibsec_gcm_key_init(&gk, NULL, 16, 1));
    check_int(&C, "key_init: lanes 12 accepted", 0, ibsec_gcm_key_init(&gk, key, 16, IBSEC_MAX_LANES));

    for (size_t t = 0; t <= 20; t++) {
        char what[80];
        int expect = (t >= 4 && t <= 16) ? 0 : -1;
        snprintf(what, sizeof(what), "seal with tag_len %zu returns %d", t, expect);
        check_int(&C, what, expect, ibsec_gcm_seal(&gk, iv, NULL, 0, buf, 32, out, tag, t));
        if (expect == 0) {
            snprintf(what, sizeof(what), "open with tag_len %zu accepts its own tag", t);
            check_int(&C, what, 0, ibsec_gcm_open(&gk, iv, NULL, 0, out, 32, tag, t, buf));
        } else {
            memset(out, 0x5a, sizeof(out));
            snprintf(what, sizeof(what), "open with tag_len %zu returns -1", t);
            check_int(&C, what, -1, ibsec_gcm_open(&gk, iv, NULL, 0, buf, 32, tag, t, out));
            snprintf(what, sizeof(what), "open with tag_len %zu zeroes the output", t);
            check_true(&C, out[0] == 0 && out[31] == 0, what);
        }
    }
    check_int(&C, "seal: null key context", -1, ibsec_gcm_seal(NULL, iv, NULL, 0, buf, 16, out, tag, 16));
    check_int(&C, "seal: null iv", -1, ibsec_gcm_seal(&gk, NULL, NULL, 0, buf, 16, out, tag, 16));
    check_int(&C, "seal: null aad with aad_len 1", -1, ibsec_gcm_seal(&gk, iv, NULL, 1, buf, 16, out, tag, 16));
    check_int(&C, "seal: null pt with len 1", -1, ibsec_gcm_seal(&gk, iv, NULL, 0, NULL, 1, out, tag, 16));
    check_int(&C, "seal: null ct with len 1", -1, ibsec_gcm_seal(&gk, iv, NULL, 0, buf, 1, NULL, tag, 16));
    check_int(&C, "seal: null tag", -1, ibsec_gcm_seal(&gk, iv, NULL, 0, buf, 16, out, NULL, 16));
    check_int(&C, "seal: empty message with null pointers", 0,
              ibsec_gcm_seal(&gk, iv, NULL, 0, NULL, 0, NULL, tag, 16));
    check_int(&C, "open: empty message with null pointers", 0,
              ibsec_gcm_open(&gk, iv, NULL, 0, NULL, 0, tag, 16, NULL));
    check_int(&C, "open: null tag", -1, ibsec_gcm_open(&gk, iv, NULL, 0, buf, 16, NULL, 16, out));
    check_int(&C, "open: null ct with len 1", -1, ibsec_gcm_open(&gk, iv, NULL, 0, NULL, 1, tag, 16, out));
    check_int(&C, "open: null pt with len 1", -1, ibsec_gcm_open(&gk, iv, NULL, 0, buf, 1, tag, 16, NULL));
    check_int(&C, "open: null iv", -1, ibsec_gcm_open(&gk, NULL, NULL, 0, buf, 16, tag, 16, out));

    /* in place: seal then open in the same buffer */
    uint8_t io[37], orig[37];
    for (int i = 0; i < 37; i++)
        io[i] = orig[i] = (uint8_t)(i * 7);
    check_int(&C, "seal in place", 0, ibsec_gcm_seal(&gk, iv, buf, 5, io, 37, io, tag, 16));
    check_int(&C, "open in place", 0, ibsec_gcm_open(&gk, iv, buf, 5, io, 37, tag, 16, io));
    check_bytes(&C, "in-place round trip", orig, io, 37);
}

int main(void)
{
    check_init(&C, "gcm_kat");
    ossl = EVP_CIPHER_CTX_new();
    if (ossl == NULL) {
        check_failf(&C, "EVP_CIPHER_CTX_new failed");
        return check_summary(&C);
    }
    test_sbox_definition();
    test_aes_vectors();
    test_aes_trace_c1();
    test_key_expansion();
    for (size_t i = 0; i < sizeof(gcm_cases) / sizeof(gcm_cases[0]); i++)
        test_gcm_case(&gcm_cases[i]);
    test_api_contract();
    EVP_CIPHER_CTX_free(ossl);
    return check_summary(&C);
}
