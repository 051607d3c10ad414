-- ibsec.lua — Wireshark / tshark dissector for the ibsec security fields of native
-- InfiniBand and RoCEv2 packets (docs/wire-format.md, docs/wireshark.md).
--
-- Install: `make wireshark-install` (a copy in ~/.local/lib/wireshark/plugins/), or
-- load it for one run: `tshark -X lua_script:scripts/wireshark/ibsec.lua ...`.
-- Key file: preference ibsec.keyfile (`-o ibsec.keyfile:build/vectors/keys.txt`, or
-- Edit > Preferences > Protocols > ibsec), else the environment variable IBSEC_KEYFILE.
--
-- What it adds to every native IBA or RoCEv2 packet (an `ibsec` tree after the
-- InfiniBand one, filter names in brackets):
--   BTH byte 8: AckReq, the reserved bits 6:5, SECMODE [ibsec.secmode] and STHSZ
--   [ibsec.sthsz], raw and decoded (MAC bits [ibsec.sth_bits], STH bytes
--   [ibsec.sth_len]), the mode they name [ibsec.mode];
--   the STH [ibsec.sth] or, in icrc-mac, the ICRC field [ibsec.icrc_mac], and the tag
--   bytes they carry [ibsec.tag];
--   with a key file: the context [ibsec.ctx], the key [ibsec.key], which endpoint
--   sealed the packet [ibsec.sender], the direction bit [ibsec.dir], the EPSN
--   [ibsec.epsn], the GCM IV [ibsec.iv], the tag recomputed [ibsec.tag_computed], the
--   verdict [ibsec.verdict], and when the tag verifies the payload and pad as open
--   delivers them [ibsec.plaintext], [ibsec.pad] (a data source "ibsec plaintext"),
--   and whether the EPSN was already accepted earlier in the capture [ibsec.replay].
--
-- Verdicts: "good" (the tag verifies), "bad tag", "no key" (no key file, no context for
-- the packet, or its key is not in the file), "plain" (mode none on no context or a
-- mode-none context), "mode mismatch" (the packet's mode or STH size differs from its
-- context's, a downgrade included), "bad secmode" (a reserved SECMODE/STHSZ combination
-- or an STH size ibsec does not implement), "malformed" (the packet cannot be parsed).
--
-- Nonce. The wire carries a 24-bit PSN; the IV needs the 63-bit EPSN (wire-format.md
-- §5-6). For each context and each sending endpoint the dissector keeps a reference R,
-- starting at the key file's tx_next (packets the file's endpoint sealed, with its
-- direction bit) or rx_next (packets its peer sealed, with the other bit), takes the
-- EPSN nearest to R whose low 24 bits are the PSN, and after a tag verifies moves R to
-- EPSN + 1 if that is higher — what the sealing side does with its tx_next. Both senders
-- are tried (the one that last verified on the context first), since a context serves
-- both directions. Results are computed on the first, in-order pass over the capture
-- and kept per frame, so later passes (the GUI redissects) show the same thing.
--
-- Numbers. Lua 5.2 (Wireshark up to 4.2) has only doubles, exact to 2^53; an EPSN has
-- 63 bits, so it is kept as hi * 2^24 + lo with lo the PSN (24 bits) and hi < 2^39.
--
-- Crypto. AES-128/256 encryption and GHASH in plain Lua, on 32-bit words held in
-- numbers, XORed with bit32.bxor (on Lua 5.3+ a stand-in built on the ~ operator):
--   AES: the four 256-entry round tables Te0..Te3 (FIPS-197 §5.1 SubBytes, ShiftRows
--   and MixColumns folded into one lookup per byte), built at load time from the
--   S-box, which is itself computed (GF(2^8) inverse and affine map) rather than typed.
--   GHASH: SP 800-38D §6.3 multiplication by H with sixteen 256-entry tables per key
--   (table i holds byte value b at byte position i times H), so X * H is the XOR of 16
--   lookups. A block is four big-endian words: byte 0 is bits 31:24 of word 0, and bit 7
--   of byte 0 is the coefficient of x^0, as in the specification's bit strings.
-- Byte extraction uses arithmetic (x % 256, exact division) rather than bit32 calls,
-- which are slower in Lua 5.2. Checked against gcm.vec (the published McGrew-Viega cases
-- and the model's messages) and OpenSSL by scripts/wireshark/ibsec_kat.lua.
--
-- Native captures: Wireshark reads pcap link type 247 (LINKTYPE_INFINIBAND) from 4.2 on.
-- For older versions this file also registers a capture-file reader for exactly those
-- files, so they open without relabelling.

-- Loaded twice (the installed plugin and -X lua_script): the first copy stays. Wireshark
-- gives each script globals of its own, so the mark goes where all scripts see it.
if package.loaded["ibsec.dissector"] then
    return
end
package.loaded["ibsec.dissector"] = true

local bit = rawget(_G, "bit32")
if bit == nil then
    -- Lua 5.3+ without the bit32 library: its bxor on native integers (compiled from a
    -- string so that this file still parses as Lua 5.2)
    bit = load([[
        local tointeger, select = math.tointeger, select
        return {
            bxor = function(a, b, ...)
                local r = tointeger(a) ~ tointeger(b)
                for i = 1, select("#", ...) do r = r ~ tointeger((select(i, ...))) end
                return r & 0xffffffff
            end,
        }
    ]])()
end
local bxor = bit.bxor
local byte, char, sub, format = string.byte, string.char, string.sub, string.format
local concat = table.concat
local unpack = table.unpack or unpack

-- ===================================================================================
-- AES (FIPS-197), encryption only: CTR mode and GHASH's H need no decryption.
-- ===================================================================================

-- SBOX[x + 1] for x = 0..255: multiplicative inverse in GF(2^8) modulo
-- x^8 + x^4 + x^3 + x + 1, then the affine map b ^ rotl(b,1..4) ^ 0x63 (FIPS-197 §5.1.1).
local SBOX = {}
local XTIME = {}                 -- XTIME[x + 1] = 2 * x in GF(2^8)
do
    for x = 0, 255 do
        local y = x * 2
        if y > 255 then y = bxor(y, 0x11b) end
        XTIME[x + 1] = y
    end
    -- powers of the generator 3 (the polynomial x + 1) give exp and log tables
    local exp, log = {}, {}
    local v = 1
    for i = 0, 254 do
        exp[i] = v
        log[v] = i
        v = bxor(v, XTIME[v + 1])       -- v * 3 = v * 2 + v
    end
    local function rotl8(b, n)       -- the bits shifted out of the byte come back in
        local v = b * 2 ^ n
        return v % 256 + (v - v % 256) / 256
    end
    for x = 0, 255 do
        local inv = (x == 0) and 0 or exp[(255 - log[x]) % 255]
        local s = bxor(inv, rotl8(inv, 1), rotl8(inv, 2), rotl8(inv, 3), rotl8(inv, 4), 0x63)
        SBOX[x + 1] = s
    end
end

-- Round tables: Te0[x + 1] = (2s, s, s, 3s) as a big-endian word, s = SBOX[x];
-- Te1..Te3 are Te0 rotated right by 8, 16, 24 bits. S24..S0: the S-box value placed
-- in one byte of a word, for the last round (no MixColumns).
local TE0, TE1, TE2, TE3 = {}, {}, {}, {}
local S24, S16, S8, S0 = {}, {}, {}, {}
for x = 0, 255 do
    local s = SBOX[x + 1]
    local s2 = XTIME[s + 1]
    local s3 = bxor(s2, s)
    TE0[x + 1] = s2 * 16777216 + s * 65536 + s * 256 + s3
    TE1[x + 1] = s3 * 16777216 + s2 * 65536 + s * 256 + s
    TE2[x + 1] = s * 16777216 + s3 * 65536 + s2 * 256 + s
    TE3[x + 1] = s * 16777216 + s * 65536 + s3 * 256 + s2
    S24[x + 1], S16[x + 1], S8[x + 1], S0[x + 1] = s * 16777216, s * 65536, s * 256, s
end

-- The four bytes of a word w (0 <= w < 2^32), most significant first, each plus 1
-- (table indices).
local function bytes1(w)
    local b3 = w % 256
    w = (w - b3) / 256
    local b2 = w % 256
    w = (w - b2) / 256
    local b1 = w % 256
    return (w - b1) / 256 + 1, b1 + 1, b2 + 1, b3 + 1
end

-- Word from four bytes of s at position i (1-based).
local function word_at(s, i)
    local a, b, c, d = byte(s, i, i + 3)
    return ((a * 256 + b) * 256 + c) * 256 + d
end

-- Key expansion (FIPS-197 §5.2): 4 * (rounds + 1) words, rounds = 10 or 14.
local function aes_expand(key)
    local nk = #key / 4
    assert(nk == 4 or nk == 8, "AES key must be 16 or 32 bytes")
    local rounds = nk + 6
    local w = {}
    for i = 0, nk - 1 do w[i] = word_at(key, 4 * i + 1) end
    local rcon = 1
    for i = nk, 4 * (rounds + 1) - 1 do
        local t = w[i - 1]
        local a, b, c, d = bytes1(t)
        if i % nk == 0 then
            -- RotWord, SubWord, Rcon
            t = bxor(S24[b] + S16[c] + S8[d] + S0[a], rcon * 16777216)
            rcon = XTIME[rcon + 1]
        elseif nk == 8 and i % nk == 4 then
            t = S24[a] + S16[b] + S8[c] + S0[d]
        end
        w[i] = bxor(w[i - nk], t)
    end
    return { rk = w, rounds = rounds }
end

-- One block: four input words -> four output words.
local function aes_encrypt(ks, s0, s1, s2, s3)
    local rk, rounds = ks.rk, ks.rounds
    s0, s1, s2, s3 = bxor(s0, rk[0]), bxor(s1, rk[1]), bxor(s2, rk[2]), bxor(s3, rk[3])
    local k = 4
    for _ = 1, rounds - 1 do
        local a0, a1, a2, a3 = bytes1(s0)
        local b0, b1, b2, b3 = bytes1(s1)
        local c0, c1, c2, c3 = bytes1(s2)
        local d0, d1, d2, d3 = bytes1(s3)
        s0 = bxor(TE0[a0], TE1[b1], TE2[c2], TE3[d3], rk[k])
        s1 = bxor(TE0[b0], TE1[c1], TE2[d2], TE3[a3], rk[k + 1])
        s2 = bxor(TE0[c0], TE1[d1], TE2[a2], TE3[b3], rk[k + 2])
        s3 = bxor(TE0[d0], TE1[a1], TE2[b2], TE3[c3], rk[k + 3])
        k = k + 4
    end
    local a0, a1, a2, a3 = bytes1(s0)
    local b0, b1, b2, b3 = bytes1(s1)
    local c0, c1, c2, c3 = bytes1(s2)
    local d0, d1, d2, d3 = bytes1(s3)
    return bxor(S24[a0] + S16[b1] + S8[c2] + S0[d3], rk[k]),
           bxor(S24[b0] + S16[c1] + S8[d2] + S0[a3], rk[k + 1]),
           bxor(S24[c0] + S16[d1] + S8[a2] + S0[b3], rk[k + 2]),
           bxor(S24[d0] + S16[a1] + S8[b2] + S0[c3], rk[k + 3])
end

-- ===================================================================================
-- GCM (NIST SP 800-38D) with a 96-bit IV.
-- ===================================================================================

local function words_to_string(w0, w1, w2, w3)
    local a0, a1, a2, a3 = bytes1(w0)
    local b0, b1, b2, b3 = bytes1(w1)
    local c0, c1, c2, c3 = bytes1(w2)
    local d0, d1, d2, d3 = bytes1(w3)
    return char(a0 - 1, a1 - 1, a2 - 1, a3 - 1, b0 - 1, b1 - 1, b2 - 1, b3 - 1,
                c0 - 1, c1 - 1, c2 - 1, c3 - 1, d0 - 1, d1 - 1, d2 - 1, d3 - 1)
end

-- Block at position i of s as four words, zero-padded past the end of s.
local function block_at(s, i)
    if i + 15 <= #s then
        return word_at(s, i), word_at(s, i + 4), word_at(s, i + 8), word_at(s, i + 12)
    end
    local t = sub(s, i) .. string.rep("\0", 16 - (#s - i + 1))
    return word_at(t, 1), word_at(t, 5), word_at(t, 9), word_at(t, 13)
end

-- The multiplication tables of H (see the file header): M0..M3[256 * i + b + 1] are the
-- four words of (the block whose byte i is b, all others 0) * H.
local function ghash_tables(h0, h1, h2, h3)
    -- V[j] = x^j * H for j = 0..127: multiplying by x shifts the bit string right by
    -- one; a bit leaving x^127 folds back as R = 11100001 || 0^120 (SP 800-38D §6.3)
    local V = {}
    local v0, v1, v2, v3 = h0, h1, h2, h3
    for j = 0, 127 do
        V[j] = { v0, v1, v2, v3 }
        local carry = v3 % 2
        v3 = (v3 - carry) / 2 + (v2 % 2) * 2147483648
        v2 = (v2 - v2 % 2) / 2 + (v1 % 2) * 2147483648
        v1 = (v1 - v1 % 2) / 2 + (v0 % 2) * 2147483648
        v0 = (v0 - v0 % 2) / 2
        if carry == 1 then v0 = bxor(v0, 0xe1000000) end
    end
    local M0, M1, M2, M3 = {}, {}, {}, {}
    for i = 0, 15 do
        local base = 256 * i + 1
        M0[base], M1[base], M2[base], M3[base] = 0, 0, 0, 0
        local top = 1
        for b = 1, 255 do
            if b == top * 2 then top = b end
            -- bit value top of byte i is the coefficient of x^(8i + 7 - log2(top))
            local k = base + b
            if b == top then
                local lg = 0
                while 2 ^ lg < top do lg = lg + 1 end
                local v = V[8 * i + 7 - lg]
                M0[k], M1[k], M2[k], M3[k] = v[1], v[2], v[3], v[4]
            else
                local r, t = base + b - top, base + top
                M0[k] = bxor(M0[r], M0[t])
                M1[k] = bxor(M1[r], M1[t])
                M2[k] = bxor(M2[r], M2[t])
                M3[k] = bxor(M3[r], M3[t])
            end
        end
    end
    return M0, M1, M2, M3
end

-- Y = (Y xor block) * H.
local function ghash_mul(g, x0, x1, x2, x3)
    local M0, M1, M2, M3 = g.M0, g.M1, g.M2, g.M3
    local a0, a1, a2, a3 = bytes1(x0)
    local b0, b1, b2, b3 = bytes1(x1)
    local c0, c1, c2, c3 = bytes1(x2)
    local d0, d1, d2, d3 = bytes1(x3)
    a1, a2, a3 = a1 + 256, a2 + 512, a3 + 768
    b0, b1, b2, b3 = b0 + 1024, b1 + 1280, b2 + 1536, b3 + 1792
    c0, c1, c2, c3 = c0 + 2048, c1 + 2304, c2 + 2560, c3 + 2816
    d0, d1, d2, d3 = d0 + 3072, d1 + 3328, d2 + 3584, d3 + 3840
    return bxor(M0[a0], M0[a1], M0[a2], M0[a3], M0[b0], M0[b1], M0[b2], M0[b3],
                M0[c0], M0[c1], M0[c2], M0[c3], M0[d0], M0[d1], M0[d2], M0[d3]),
           bxor(M1[a0], M1[a1], M1[a2], M1[a3], M1[b0], M1[b1], M1[b2], M1[b3],
                M1[c0], M1[c1], M1[c2], M1[c3], M1[d0], M1[d1], M1[d2], M1[d3]),
           bxor(M2[a0], M2[a1], M2[a2], M2[a3], M2[b0], M2[b1], M2[b2], M2[b3],
                M2[c0], M2[c1], M2[c2], M2[c3], M2[d0], M2[d1], M2[d2], M2[d3]),
           bxor(M3[a0], M3[a1], M3[a2], M3[a3], M3[b0], M3[b1], M3[b2], M3[b3],
                M3[c0], M3[c1], M3[c2], M3[c3], M3[d0], M3[d1], M3[d2], M3[d3])
end

-- GHASH state over the string s, zero-padded to whole blocks.
local function ghash_string(g, y0, y1, y2, y3, s)
    for i = 1, #s, 16 do
        local w0, w1, w2, w3 = block_at(s, i)
        y0, y1, y2, y3 = ghash_mul(g, bxor(y0, w0), bxor(y1, w1), bxor(y2, w2), bxor(y3, w3))
    end
    return y0, y1, y2, y3
end

-- S = GHASH_H(A || 0^v || C || 0^u || [len(A)]_64 || [len(C)]_64), as four words.
local function gcm_ghash(g, aad, ct)
    local y0, y1, y2, y3 = ghash_string(g, 0, 0, 0, 0, aad)
    y0, y1, y2, y3 = ghash_string(g, y0, y1, y2, y3, ct)
    local la, lc = #aad * 8, #ct * 8
    local la_lo, lc_lo = la % 4294967296, lc % 4294967296
    return ghash_mul(g, bxor(y0, (la - la_lo) / 4294967296), bxor(y1, la_lo),
                     bxor(y2, (lc - lc_lo) / 4294967296), bxor(y3, lc_lo))
end

-- A GCM key: the AES key schedule and the GHASH tables of H = E_K(0^128).
local function gcm_key(key)
    local ks = aes_expand(key)
    local M0, M1, M2, M3 = ghash_tables(aes_encrypt(ks, 0, 0, 0, 0))
    return { ks = ks, M0 = M0, M1 = M1, M2 = M2, M3 = M3 }
end

-- The full 16-byte tag: E_K(J0) xor S, J0 = IV || 0x00000001.
local function gcm_tag(g, iv, s0, s1, s2, s3)
    local e0, e1, e2, e3 = aes_encrypt(g.ks, word_at(iv, 1), word_at(iv, 5), word_at(iv, 9), 1)
    return words_to_string(bxor(e0, s0), bxor(e1, s1), bxor(e2, s2), bxor(e3, s3))
end

-- GCTR from counter 2 (SP 800-38D §6.5, §7.1 step 3): encrypts and decrypts.
local function gcm_ctr(g, iv, data)
    local ks = g.ks
    local i0, i1, i2 = word_at(iv, 1), word_at(iv, 5), word_at(iv, 9)
    local out, n, ctr = {}, #data, 2
    for i = 1, n, 16 do
        local k0, k1, k2, k3 = aes_encrypt(ks, i0, i1, i2, ctr)
        local w0, w1, w2, w3 = block_at(data, i)
        local blk = words_to_string(bxor(k0, w0), bxor(k1, w1), bxor(k2, w2), bxor(k3, w3))
        out[#out + 1] = (i + 15 <= n) and blk or sub(blk, 1, n - i + 1)
        ctr = (ctr + 1) % 4294967296
    end
    return concat(out)
end

-- The API the known-answer test uses (package.loaded["ibsec.gcm"]).
local gcm = {}
local last_key, last_g            -- a test runs several operations with one key
local function gcm_key_cached(key)
    if key ~= last_key then last_key, last_g = key, gcm_key(key) end
    return last_g
end
function gcm.seal(key, iv, aad, pt)
    local g = gcm_key_cached(key)
    local ct = gcm_ctr(g, iv, pt)
    return ct, gcm_tag(g, iv, gcm_ghash(g, aad, ct))
end
function gcm.open(key, iv, aad, ct, tag)
    local g = gcm_key_cached(key)
    local full = gcm_tag(g, iv, gcm_ghash(g, aad, ct))
    if sub(full, 1, #tag) ~= tag then return nil end
    return gcm_ctr(g, iv, ct)
end
function gcm.aes_block(key, block)
    return words_to_string(aes_encrypt(aes_expand(key), block_at(block, 1)))
end
package.loaded["ibsec.gcm"] = gcm

-- ===================================================================================
-- Packet layout (docs/wire-format.md §1-§4)
-- ===================================================================================

-- ETH bytes between the BTH and the payload, per BTH opcode (IBA Vol. 1 §9.2 opcode
-- table, §9.3 ETH lengths; XRC: Annex A14; CNP: RoCEv2 Annex A17.9), nil for opcodes
-- ibsec does not accept. RC operations 0x00..0x17; UC has the SEND and RDMA WRITE ones;
-- RD prefixes RDETH (4) and, on requests, DETH (8); XRC prefixes XRCETH (4) on requests;
-- UD has the two SEND Only with DETH.
local RC_ETH = {
    [0x00] = 0, [0x01] = 0, [0x02] = 0, [0x03] = 4, [0x04] = 0, [0x05] = 4,  -- SEND; ImmDt
    [0x06] = 16, [0x07] = 0, [0x08] = 0, [0x09] = 4, [0x0a] = 16, [0x0b] = 20, -- WRITE; RETH
    [0x0c] = 16,                                                  -- READ request: RETH
    [0x0d] = 4, [0x0e] = 0, [0x0f] = 4, [0x10] = 4,               -- READ responses: AETH
    [0x11] = 4, [0x12] = 12,                                      -- ACK; AETH + AtomicAckETH
    [0x13] = 28, [0x14] = 28,                                     -- atomics: AtomicETH
    [0x16] = 4, [0x17] = 4,                                       -- SEND with invalidate: IETH
}
local function is_response(op) return op >= 0x0d and op <= 0x12 end
local ETH_LEN = {}
for op, n in pairs(RC_ETH) do
    ETH_LEN[op] = n                                               -- RC
    if op <= 0x0b then ETH_LEN[0x20 + op] = n end                 -- UC
    if op <= 0x14 then ETH_LEN[0x40 + op] = n + (is_response(op) and 4 or 12) end -- RD
    ETH_LEN[0xa0 + op] = n + (is_response(op) and 0 or 4)         -- XRC
end
ETH_LEN[0x55] = 12                -- RD RESYNC: RDETH + DETH
ETH_LEN[0x64] = 8                 -- UD SEND Only: DETH
ETH_LEN[0x65] = 12                -- UD SEND Only with Immediate: DETH + ImmDt
local CNP_OPCODE = 0x81           -- RoCEv2 only: no ETH, 16 reserved bytes as payload

local MODE_NAMES = { [0] = "none", "icrc-mac", "sth-hdr", "sth-pkt", "sth-aead" }
local MODE_BY_NAME = {}
for i = 0, 4 do MODE_BY_NAME[MODE_NAMES[i]] = i end
local STH_BITS = { [0] = 0, 96, 128, 160, 192, 256, 384, 512 }   -- sRDMA Table 2
local ICRC_MAC_TAG_LEN = 4

-- Mode from BTH byte 8 (wire-format.md §2): mode index, or nil and a verdict.
local function decode_secbits(b8)
    local resv, secmode, sthsz = (b8 - b8 % 32) / 32 % 4, (b8 - b8 % 8) / 8 % 4, b8 % 8
    if resv ~= 0 then return nil, "bad secmode" end
    if secmode == 0 then
        if sthsz == 0 then return 0 end
        return nil, "bad secmode"
    end
    if sthsz == 0 then
        if secmode == 1 then return 1 end
        return nil, "bad secmode"
    end
    if sthsz > 2 then return nil, "bad secmode" end
    return secmode + 1
end

-- Locate the parts of a packet. `frame` is the frame's bytes (a Lua string), `start`
-- the offset of the LRH (native) or Ethernet header (RoCEv2), both 0-based. Returns a
-- table of 0-based offsets, or nil and why.
local function parse(frame, start, native)
    local p = { native = native }
    local function u8(o) return byte(frame, o + 1) end
    local function u16(o) return byte(frame, o + 1) * 256 + byte(frame, o + 2) end
    local n = #frame
    local hdr_start, end_off
    if native then
        if n < start + 8 then return nil, "truncated LRH" end
        local lnh = u8(start + 1) % 4
        if lnh < 2 then return nil, "LRH LNH is not IBA transport" end
        p.lrh, p.grh = start, (lnh == 3) and start + 8 or nil
        p.bth = start + ((lnh == 3) and 48 or 8)
        end_off = start + (u16(start + 4) % 2048) * 4      -- through the ICRC
        hdr_start = start
        if end_off + 2 > n then return nil, "LRH PktLen beyond the frame" end
    else
        if n < start + 14 then return nil, "truncated Ethernet header" end
        local et = u16(start + 12)
        local ip = start + 14
        if et == 0x0800 then
            if n < ip + 20 or u8(ip) ~= 0x45 or u8(ip + 9) ~= 17 then return nil, "not RoCEv2" end
            p.ipv4, p.udp = ip, ip + 20
            end_off = ip + u16(ip + 2)
        elseif et == 0x86dd then
            if n < ip + 40 or u8(ip + 6) ~= 17 then return nil, "not RoCEv2" end
            p.ipv6, p.udp = ip, ip + 40
            end_off = ip + 40 + u16(ip + 4)
        else
            return nil, "not RoCEv2"
        end
        if n < p.udp + 8 or u16(p.udp + 2) ~= 4791 then return nil, "not RoCEv2" end
        if end_off > n then return nil, "IP length beyond the frame" end
        p.bth = p.udp + 8
        hdr_start = ip
    end
    p.hdr_start = hdr_start
    p.icrc = end_off - 4
    if p.bth + 12 > p.icrc then return nil, "truncated BTH" end
    p.opcode = u8(p.bth)
    p.padcnt = (u8(p.bth + 1) - u8(p.bth + 1) % 16) / 16 % 4
    p.pkey = u16(p.bth + 2)
    p.destqp = u8(p.bth + 5) * 65536 + u16(p.bth + 6)
    p.b8 = u8(p.bth + 8)
    p.psn = u8(p.bth + 9) * 65536 + u16(p.bth + 10)
    local eth = ETH_LEN[p.opcode]
    if p.opcode == CNP_OPCODE and not native then eth = 0 end
    if eth == nil then return nil, format("BTH opcode 0x%02x unknown to ibsec", p.opcode) end
    p.eths_end = p.bth + 12 + eth
    return p
end

-- The masked header string H (wire-format.md §3.1): the ICRC coverage from its first
-- byte through the last ETH, variant fields set to ones.
local function masked_headers(frame, p, mask_mf)
    local h = { byte(frame, p.hdr_start + 1, p.eths_end) }
    local function ones(o, n) for k = o - p.hdr_start + 1, o - p.hdr_start + n do h[k] = 255 end end
    local function low_nibble(o) local k = o - p.hdr_start + 1; h[k] = h[k] - h[k] % 16 + 15 end
    if p.native then
        if p.grh then
            ones(p.lrh, 8)                                  -- the whole LRH
            low_nibble(p.grh); ones(p.grh + 1, 3); ones(p.grh + 7, 1)  -- TClass, FlowLabel, HopLmt
            if mask_mf then
                local k = p.grh + 25 - p.hdr_start + 1
                h[k] = h[k] - h[k] % 64 + 63                -- Marking Field, bits 37:32
                ones(p.grh + 26, 4)                         -- bits 31:0
            end
        else
            local k = p.lrh - p.hdr_start + 1
            h[k] = h[k] % 16 + 240                          -- VL
        end
    elseif p.ipv4 then
        ones(p.ipv4 + 1, 1); ones(p.ipv4 + 8, 1); ones(p.ipv4 + 10, 2)  -- TOS, TTL, checksum
    else
        low_nibble(p.ipv6); ones(p.ipv6 + 1, 3); ones(p.ipv6 + 7, 1)    -- class, flow, hops
    end
    if not p.native then ones(p.udp + 6, 2) end             -- UDP checksum
    ones(p.bth + 4, 1)                                      -- FECN, BECN, Resv6a
    local s = {}
    for i = 1, #h, 4096 do s[#s + 1] = char(unpack(h, i, math.min(i + 4095, #h))) end
    return (p.native and "" or string.rep("\255", 8)) .. concat(s)
end

-- ===================================================================================
-- EPSN arithmetic on (hi, lo): value hi * 2^24 + lo, lo < 2^24, 0 <= hi < 2^39.
-- ===================================================================================

local P24, P23, HI_LIMIT = 16777216, 8388608, 549755813888    -- 2^24, 2^23, 2^39

-- The EPSN nearest to (rhi, rlo) with low 24 bits psn (wire-format.md §6); nil when it
-- would be negative or reach 2^63.
local function epsn_reconstruct(rhi, rlo, psn)
    local d = (psn - rlo) % P24
    local hi = rhi
    if d < P23 then
        if rlo + d >= P24 then hi = hi + 1 end
    elseif rlo + d - P24 < 0 then
        hi = hi - 1
    end
    if hi < 0 or hi >= HI_LIMIT then return nil end
    return hi, psn
end

local function epsn_ge(ahi, alo, bhi, blo) return ahi > bhi or (ahi == bhi and alo >= blo) end
local function epsn_next(hi, lo) if lo + 1 == P24 then return hi + 1, 0 end return hi, lo + 1 end
local function epsn_hex(hi, lo)
    if hi == 0 then return format("0x%x", lo) end
    return format("0x%x%06x", hi, lo)
end

-- Decimal or 0x-hexadecimal string -> hi, lo; nil if malformed or >= 2^63.
local function parse_epsn(s)
    local base, digits = 10, s
    if s:match("^0[xX]") then base, digits = 16, s:sub(3) end
    if digits == "" or (base == 10 and not digits:match("^%d+$")) or
       (base == 16 and not digits:match("^%x+$")) then return nil end
    local hi, lo = 0, 0
    for i = 1, #digits do
        lo = lo * base + tonumber(digits:sub(i, i), 16)
        local carry = (lo - lo % P24) / P24
        hi, lo = hi * base + carry, lo % P24
        if hi >= HI_LIMIT then return nil end
    end
    return hi, lo
end

-- ===================================================================================
-- Key file (docs/keyfile.md)
-- ===================================================================================

local function from_hex(h)
    return (h:gsub("%x%x", function(x) return char(tonumber(x, 16)) end))
end
local function to_hex(s)
    return (s:gsub(".", function(c) return format("%02x", byte(c)) end))
end

-- Reads a key file: a table { keys, ctx_qp, ctx_pkey, ctx, mask_mf, side, path }, or nil
-- and "path:line: message". Only what the dissector needs is checked.
local function load_keyfile(path)
    local f, err = io.open(path, "r")
    if not f then return nil, err end
    local kf = { path = path, keys = {}, ctx = {}, ctx_qp = {}, ctx_pkey = {}, mask_mf = false }
    local lineno, header = 0, false
    local function fail(msg) f:close(); return nil, format("%s:%d: %s", path, lineno, msg) end
    for line in f:lines() do
        lineno = lineno + 1
        local t = {}
        for w in line:gsub("#.*", ""):gmatch("%S+") do t[#t + 1] = w end
        local kw = t[1]
        if kw == nil then
            -- blank or comment
        elseif not header then
            if kw ~= "ibsec-keys" or t[2] ~= "1" then
                return fail("not an ibsec key file (the first line must be 'ibsec-keys 1')")
            end
            header = true
        elseif kw == "side" then
            if t[2] ~= "a" and t[2] ~= "b" then return fail("side must be a or b") end
            kf.side = t[2]
        elseif kw == "tables" or kw == "allow_plain" then
            -- table depths and the plain-traffic switch do not change what is shown
        elseif kw == "mask_mf" then
            kf.mask_mf = (t[2] == "on")
        elseif kw == "key" then
            local idx, alg, hex, salt = tonumber(t[2]), t[3], t[4] or "", t[6] or ""
            local want = (alg == "aes128") and 32 or (alg == "aes256") and 64 or nil
            if not idx or not want or #hex ~= want or not hex:match("^%x+$") or
               t[5] ~= "salt" or #salt ~= 8 or not salt:match("^%x+$") then
                return fail("malformed key line")
            end
            kf.keys[idx] = { alg = alg, key = from_hex(hex), salt = from_hex(salt) }
        elseif kw == "ctx" then
            local idx, sel, match = tonumber(t[2]), t[3], tonumber(t[4] or "")
            if not idx or (sel ~= "qp" and sel ~= "pkey") or not match then
                return fail("malformed ctx line")
            end
            local c = { index = idx, sel = sel, match = match, dir = 0, sth = 0,
                        tx = { 0, 0 }, rx = { 0, 0 } }
            for i = 5, #t, 2 do
                local name, v = t[i], t[i + 1]
                if v == nil then return fail("field '" .. name .. "' has no value") end
                if name == "mode" then
                    c.mode = MODE_BY_NAME[v]
                    if not c.mode then return fail("unknown mode " .. v) end
                elseif name == "key" then c.key = tonumber(v)
                elseif name == "sth" then c.sth = (v == "96") and 1 or (v == "128") and 2 or nil
                elseif name == "dir" then c.dir = tonumber(v)
                elseif name == "tx_next" or name == "rx_next" then
                    local hi, lo = parse_epsn(v)
                    if not hi then return fail("bad EPSN " .. v) end
                    c[name == "tx_next" and "tx" or "rx"] = { hi, lo }
                end
                -- alert: not used here
            end
            if c.mode == nil or c.sth == nil or (c.dir ~= 0 and c.dir ~= 1) or
               (c.mode ~= 0 and c.key == nil) then
                return fail("incomplete ctx line")
            end
            kf.ctx[idx] = c
            if sel == "qp" then kf.ctx_qp[match] = c else kf.ctx_pkey[match] = c end
        else
            return fail("unknown statement " .. kw)
        end
    end
    f:close()
    if not header then return nil, path .. ": empty, not an ibsec key file" end
    return kf
end

-- ===================================================================================
-- The protocol
-- ===================================================================================

local ibsec = Proto("ibsec", "ibsec inline security (AES-GCM for InfiniBand and RoCEv2)")

local SECMODE_VALS = { [0] = "none", [1] = "icrc-mac (STHSZ 0) or sth-hdr", [2] = "sth-pkt",
                       [3] = "sth-aead" }
local STHSZ_VALS = { [0] = "no STH", [1] = "96-bit MAC, 12-byte STH",
                     [2] = "128-bit MAC, 16-byte STH", [3] = "160 bits (not implemented)",
                     [4] = "192 bits (not implemented)", [5] = "256 bits (not implemented)",
                     [6] = "384 bits (not implemented)", [7] = "512 bits (not implemented)" }

local F = {
    bth8      = ProtoField.uint8("ibsec.bth8", "BTH byte 8", base.HEX),
    ackreq    = ProtoField.bool("ibsec.ackreq", "AckReq", 8, nil, 0x80),
    resv      = ProtoField.uint8("ibsec.resv", "Reserved", base.DEC, nil, 0x60),
    secmode   = ProtoField.uint8("ibsec.secmode", "SECMODE", base.DEC, SECMODE_VALS, 0x18),
    sthsz     = ProtoField.uint8("ibsec.sthsz", "STHSZ", base.DEC, STHSZ_VALS, 0x07),
    mode      = ProtoField.string("ibsec.mode", "Mode"),
    sth_bits  = ProtoField.uint16("ibsec.sth_bits", "STH MAC size (bits)"),
    sth_len   = ProtoField.uint8("ibsec.sth_len", "STH length (bytes)"),
    sth       = ProtoField.bytes("ibsec.sth", "Secure Transport Header"),
    icrc_mac  = ProtoField.bytes("ibsec.icrc_mac", "ICRC field (icrc-mac tag)"),
    tag       = ProtoField.bytes("ibsec.tag", "Tag"),
    tag_comp  = ProtoField.bytes("ibsec.tag_computed", "Tag computed"),
    ctx       = ProtoField.uint16("ibsec.ctx", "Context"),
    ctx_sel   = ProtoField.string("ibsec.ctx_selector", "Context selector"),
    ctx_mode  = ProtoField.string("ibsec.ctx_mode", "Context mode"),
    key       = ProtoField.uint16("ibsec.key", "Key"),
    sender    = ProtoField.string("ibsec.sender", "Sealed by"),
    dir       = ProtoField.uint8("ibsec.dir", "Direction bit"),
    epsn      = ProtoField.uint64("ibsec.epsn", "EPSN", base.HEX),
    iv        = ProtoField.bytes("ibsec.iv", "GCM IV"),
    aad_len   = ProtoField.uint16("ibsec.aad_len", "GCM additional data (bytes)"),
    verdict   = ProtoField.string("ibsec.verdict", "Verdict"),
    replay    = ProtoField.bool("ibsec.replay", "EPSN already accepted in this capture"),
    plaintext = ProtoField.bytes("ibsec.plaintext", "Payload (as delivered)"),
    pt_len    = ProtoField.uint16("ibsec.plaintext_len", "Payload length"),
    pad       = ProtoField.bytes("ibsec.pad", "Pad (as delivered)"),
    keyfile   = ProtoField.string("ibsec.keyfile_path", "Key file"),
}
ibsec.fields = F

local E = {
    bad_tag     = ProtoExpert.new("ibsec.bad_tag", "ibsec tag does not verify",
                                  expert.group.CHECKSUM, expert.severity.ERROR),
    no_key      = ProtoExpert.new("ibsec.no_key", "ibsec: no key for this packet",
                                  expert.group.UNDECODED, expert.severity.NOTE),
    bad_secmode = ProtoExpert.new("ibsec.bad_secmode", "ibsec: reserved SECMODE/STHSZ",
                                  expert.group.MALFORMED, expert.severity.ERROR),
    mismatch    = ProtoExpert.new("ibsec.mode_mismatch", "ibsec: mode differs from the context's",
                                  expert.group.SECURITY, expert.severity.WARN),
    malformed   = ProtoExpert.new("ibsec.malformed", "ibsec: packet cannot be parsed",
                                  expert.group.MALFORMED, expert.severity.ERROR),
    replay      = ProtoExpert.new("ibsec.replay.expert", "ibsec: EPSN already accepted",
                                  expert.group.SEQUENCE, expert.severity.WARN),
    keyfile     = ProtoExpert.new("ibsec.keyfile_error", "ibsec: key file not loaded",
                                  expert.group.UNDECODED, expert.severity.WARN),
}
ibsec.experts = { E.bad_tag, E.no_key, E.bad_secmode, E.mismatch, E.malformed, E.replay,
                  E.keyfile }

ibsec.prefs.keyfile = Pref.string("Key file", "",
    "ibsec key file (docs/keyfile.md) of one endpoint; empty: the environment variable IBSEC_KEYFILE")

-- Per capture: the key file, GCM keys, EPSN references, the per-frame results.
local state

local function reset_state()
    local path = ibsec.prefs.keyfile
    if path == nil or path == "" then path = os.getenv("IBSEC_KEYFILE") or "" end
    state = { results = {}, gcm = {}, ref = {}, seen = {}, prefer = {} }
    if path ~= "" then
        state.kf, state.kf_err = load_keyfile(path)
    end
end

function ibsec.init() reset_state() end
function ibsec.prefs_changed() reset_state() end

local function gcm_for(kidx, entry)
    local g = state.gcm[kidx]
    if not g then
        g = gcm_key(entry.key)
        state.gcm[kidx] = g
    end
    return g
end

local function iv_bytes(salt, dir, hi, lo)
    local top = (hi - hi % 4294967296) / 4294967296          -- hi bits 38:32
    local mid = hi % 4294967296
    return salt .. char(dir * 128 + top) .. words_to_string(mid, 0, 0, 0):sub(1, 4) ..
           char((lo - lo % 65536) / 65536, (lo - lo % 256) / 256 % 256, lo % 256)
end

-- Verify (and decrypt) one parsed packet on the first pass: returns the result table.
local function analyse(frame, p)
    local r = { mode = nil }
    local mode, bad = decode_secbits(p.b8)
    r.mode = mode
    if not mode then r.verdict = bad; return r end
    local sthsz = p.b8 % 8
    local sth_len = (mode >= 2) and ((sthsz == 1) and 12 or 16) or 0
    r.sth_len = sth_len
    r.payload = p.eths_end + sth_len
    r.pad = p.icrc - p.padcnt
    if r.payload > r.pad then r.verdict = "malformed"; r.why = "no room for the STH and pad"; return r end
    if mode == 1 then r.tag_off, r.tag_len = p.icrc, ICRC_MAC_TAG_LEN
    elseif mode >= 2 then r.tag_off, r.tag_len = p.eths_end, sth_len end

    local kf = state.kf
    local c = kf and (kf.ctx_qp[p.destqp] or kf.ctx_pkey[p.pkey % 32768])
    r.ctx = c
    if mode == 0 then
        r.verdict = (c and c.mode ~= 0) and "mode mismatch" or "plain"
        return r
    end
    if not c then r.verdict = "no key"; return r end
    if c.mode ~= mode or (mode >= 2 and c.sth ~= sthsz) then r.verdict = "mode mismatch"; return r end
    local entry = kf.keys[c.key]
    if not entry then r.verdict = "no key"; return r end

    local g = gcm_for(c.key, entry)
    local h = masked_headers(frame, p, kf.mask_mf)
    local body = sub(frame, r.payload + 1, p.icrc)           -- payload || pad
    local aad, ct = h, body
    if mode == 2 then ct = "" elseif mode == 3 then aad, ct = h .. body, "" end
    r.aad_len = #aad
    local s0, s1, s2, s3 = gcm_ghash(g, aad, ct)
    local tag = sub(frame, r.tag_off + 1, r.tag_off + r.tag_len)

    -- the two senders: the file's endpoint (its dir, tx_next) and its peer
    local first = state.prefer[c.index] or 0
    for attempt = 0, 1 do
        local peer = (attempt + first) % 2
        local key = c.index * 2 + peer
        local ref = state.ref[key]
        if not ref then ref = peer == 0 and { c.tx[1], c.tx[2] } or { c.rx[1], c.rx[2] } end
        local hi, lo = epsn_reconstruct(ref[1], ref[2], p.psn)
        if hi then
            local dir = (peer == 0) and c.dir or 1 - c.dir
            local iv = iv_bytes(entry.salt, dir, hi, lo)
            local full = gcm_tag(g, iv, s0, s1, s2, s3)
            if attempt == 0 or sub(full, 1, r.tag_len) == tag then
                r.peer, r.dir, r.epsn_hi, r.epsn_lo, r.iv = peer, dir, hi, lo, iv
                r.tag_computed = sub(full, 1, r.tag_len)
            end
            if sub(full, 1, r.tag_len) == tag then
                r.verdict = "good"
                state.prefer[c.index] = peer
                if epsn_ge(hi, lo, ref[1], ref[2]) then ref = { epsn_next(hi, lo) } end
                state.ref[key] = ref
                local id = format("%d/%s", key, epsn_hex(hi, lo))
                r.replay = state.seen[id] or false
                state.seen[id] = true
                r.plaintext = (mode == 1 or mode == 4) and gcm_ctr(g, iv, body) or body
                return r
            end
        end
    end
    r.verdict = "bad tag"
    return r
end

-- Where the IBA packet starts in the frame, or nil (not native IBA or RoCEv2).
local f_encap = Field.new("frame.encap_type")
local f_lrh = Field.new("infiniband.lrh")
local ENCAP_ETHERNET, ENCAP_INFINIBAND = wtap_encaps.ETHERNET, wtap_encaps.INFINIBAND
local ENCAP_USER0, ENCAP_USER15 = wtap_encaps.USER0, wtap_encaps.USER15

local function packet_start()
    local e = f_encap()
    if not e then return nil end
    e = e.value
    if e == ENCAP_ETHERNET then return 0, false end
    if e == ENCAP_INFINIBAND or (e >= ENCAP_USER0 and e <= ENCAP_USER15) then
        local lrh = f_lrh()            -- the InfiniBand dissector found an LRH here
        if lrh then return lrh.offset, true end
    end
    return nil
end

local function add_tree(tvb, pinfo, tree, p, r)
    local t = tree:add(ibsec, tvb(p.bth, p.icrc + 4 - p.bth))
    local b8 = tvb(p.bth + 8, 1)
    local bt = t:add(F.bth8, b8)
    bt:add(F.ackreq, b8); bt:add(F.resv, b8); bt:add(F.secmode, b8); bt:add(F.sthsz, b8)
    local sthsz = p.b8 % 8
    t:add(F.sth_bits, STH_BITS[sthsz]):set_generated()
    if r.mode then
        t:add(F.mode, MODE_NAMES[r.mode]):set_generated()
        t:add(F.sth_len, r.sth_len):set_generated()
    end
    if r.tag_off and r.tag_off + r.tag_len <= tvb:len() then
        local range = tvb(r.tag_off, r.tag_len)
        local holder = t:add(r.mode == 1 and F.icrc_mac or F.sth, range)
        holder:add(F.tag, range)
    end
    local summary = MODE_NAMES[r.mode] or "?"
    if state.kf_err then
        t:add_proto_expert_info(E.keyfile, "ibsec: key file not loaded: " .. state.kf_err)
    elseif state.kf then
        t:add(F.keyfile, state.kf.path):set_generated()
    end
    local c = r.ctx
    if c then
        t:add(F.ctx, c.index):set_generated()
        t:add(F.ctx_sel, format(c.sel == "qp" and "qp 0x%06x" or "pkey 0x%04x", c.match)):set_generated()
        t:add(F.ctx_mode, MODE_NAMES[c.mode]):set_generated()
        if c.key then t:add(F.key, c.key):set_generated() end
    end
    if r.iv then
        local side = state.kf.side or "a"
        local other = (side == "a") and "b" or "a"
        t:add(F.sender, r.peer == 0 and format("%s (the key file's endpoint)", side)
                                     or format("%s (its peer)", other)):set_generated()
        t:add(F.dir, r.dir):set_generated()
        local lo32 = (r.epsn_hi % 256) * 16777216 + r.epsn_lo
        t:add(F.epsn, UInt64.new(lo32, (r.epsn_hi - r.epsn_hi % 256) / 256)):set_generated()
        -- byte fields need bytes to point at: a small data source of IV || computed tag
        local ctvb = ByteArray.new(r.iv .. r.tag_computed, true):tvb("ibsec IV and computed tag")
        t:add(F.iv, ctvb(0, 12)):set_generated()
        t:add(F.aad_len, r.aad_len):set_generated()
        t:add(F.tag_comp, ctvb(12, r.tag_len)):set_generated()
    end
    local vi = t:add(F.verdict, r.verdict)
    vi:set_generated()
    if r.verdict == "bad tag" then vi:add_proto_expert_info(E.bad_tag)
    elseif r.verdict == "no key" then vi:add_proto_expert_info(E.no_key)
    elseif r.verdict == "bad secmode" then vi:add_proto_expert_info(E.bad_secmode)
    elseif r.verdict == "mode mismatch" then vi:add_proto_expert_info(E.mismatch)
    elseif r.verdict == "malformed" then vi:add_proto_expert_info(E.malformed, "ibsec: " .. (r.why or "malformed"))
    end
    if r.replay then t:add(F.replay, true):set_generated():add_proto_expert_info(E.replay) end
    if r.plaintext then
        local n = r.pad - r.payload
        t:add(F.pt_len, n):set_generated()
        if #r.plaintext > 0 then
            local ptvb = ByteArray.new(r.plaintext, true):tvb("ibsec plaintext")
            if n > 0 then t:add(F.plaintext, ptvb(0, n)) end
            if p.padcnt > 0 then t:add(F.pad, ptvb(n, p.padcnt)) end
        end
    end
    t:append_text(format(", %s, %s", summary, r.verdict))
    pinfo.cols.info:append(format(" [ibsec %s %s]", summary, r.verdict))
end

function ibsec.dissector(tvb, pinfo, tree)
    local start, native = packet_start()
    if not start then return end
    local r = state.results[pinfo.number]
    local frame = tvb:raw()
    local p, why = parse(frame, start, native)
    if not p then
        -- not an IBA transport packet this dissector understands (other Ethernet traffic
        -- is silently ignored)
        if native then
            tree:add(ibsec, tvb(start)):add_proto_expert_info(E.malformed, "ibsec: " .. why)
        end
        return
    end
    if not r then
        r = analyse(frame, p)
        if not pinfo.visited then state.results[pinfo.number] = r end
    end
    add_tree(tvb, pinfo, tree, p, r)
end

reset_state()
register_postdissector(ibsec)

-- ===================================================================================
-- Reader for pcap files of link type 247, for Wireshark before 4.2
-- ===================================================================================

local function version_before(major, minor)
    local v = (get_version and get_version()) or ""
    local a, b = v:match("^(%d+)%.(%d+)")
    if not a then return false end
    a, b = tonumber(a), tonumber(b)
    return a < major or (a == major and b < minor)
end

if version_before(4, 2) and FileHandler and register_filehandler then
    local LINKTYPE_INFINIBAND = 247
    local fh = FileHandler.new("ibsec: pcap, native InfiniBand (link type 247)", "ibsec_pcap_ib",
        "classic pcap files of link type 247 (LINKTYPE_INFINIBAND), read here until Wireshark 4.2",
        "rms")

    -- magic -> little-endian?, nanosecond time stamps?
    local MAGICS = {
        ["\212\195\178\161"] = { true, false }, ["\161\178\195\212"] = { false, false },
        ["\77\60\178\161"] = { true, true }, ["\161\178\60\77"] = { false, true },
    }
    local function u32(s, i, le)
        local a, b, c, d = byte(s, i, i + 3)
        if le then a, b, c, d = d, c, b, a end
        return ((a * 256 + b) * 256 + c) * 256 + d
    end

    function fh.read_open(file, capture)
        local hdr = file:read(24)
        if not hdr or #hdr < 24 then return false end
        local m = MAGICS[hdr:sub(1, 4)]
        if not m or u32(hdr, 21, m[1]) ~= LINKTYPE_INFINIBAND then return false end
        capture.private_table = { le = m[1], nsec = m[2] }
        capture.encap = wtap_encaps.INFINIBAND
        capture.time_precision = m[2] and wtap_tsprecs.NSEC or wtap_tsprecs.USEC
        capture.snapshot_length = u32(hdr, 17, m[1])
        return true
    end

    local function read_record(file, capture, frame)
        local pt = capture.private_table
        local rh = file:read(16)
        if not rh or #rh < 16 then return false end
        local sec, frac = u32(rh, 1, pt.le), u32(rh, 5, pt.le)
        local caplen, len = u32(rh, 9, pt.le), u32(rh, 13, pt.le)
        local data = file:read(caplen)
        if not data or #data < caplen then return false end
        frame.rec_type = wtap_rec_types.PACKET
        frame.flags = wtap_presence_flags.TS + wtap_presence_flags.CAP_LEN
        frame.time = NSTime(sec, pt.nsec and frac or frac * 1000)
        frame.captured_length = caplen
        frame.original_length = len
        frame.encap = wtap_encaps.INFINIBAND
        frame.data = data
        return true
    end

    function fh.read(file, capture, frame)
        local at = file:seek()
        if not read_record(file, capture, frame) then return false end
        return at
    end

    function fh.seek_read(file, capture, frame, offset)
        file:seek("set", offset)
        return read_record(file, capture, frame)
    end

    register_filehandler(fh)
end
