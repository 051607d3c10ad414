-- ibsec_kat.lua — known-answer test of the dissector's AES-GCM (scripts/wireshark/ibsec.lua),
-- run inside tshark's own Lua after the dissector, by scripts/wireshark/test_dissector.sh:
--
--   IBSEC_KAT_VECTORS=build/vectors/gcm.vec IBSEC_KAT_OUT=lua-gcm.vec \
--   tshark -X lua_script:scripts/wireshark/ibsec.lua -X lua_script:scripts/wireshark/ibsec_kat.lua \
--          -r any.pcap -c 1 -q
--
-- 1. AES block known answers: FIPS-197 Appendix C.1 (AES-128) and C.3 (AES-256).
-- 2. The records of IBSEC_KAT_VECTORS (docs/gcm-vectors.md: the published McGrew-Viega
--    test cases, then the model's random messages, every length 0..64 at both key sizes
--    and longer ones; the first IBSEC_KAT_RECORDS if set): seal gives the record's
--    ciphertext and tag, open with the tag returns the plaintext; for the published
--    cases and the length sweep also open with the 12- and 4-byte truncations ibsec
--    uses, and open with one tag bit flipped, or one ciphertext (or AAD) bit flipped,
--    is refused.
-- 3. Messages of its own (deterministic, every data length 0..80 and some up to 4200
--    bytes, AAD 0..100 bytes, both key sizes) sealed by the Lua code and written to
--    IBSEC_KAT_OUT in the same format, for check_dissector to recompute with OpenSSL.
-- Prints "ibsec-kat: N passed, N failed" as its last line.

local gcm = package.loaded["ibsec.gcm"]
local passed, failed = 0, 0

local function from_hex(h)
    if h == "-" then return "" end
    return (h:gsub("%x%x", function(x) return string.char(tonumber(x, 16)) end))
end
local function to_hex(s)
    if s == "" then return "-" end
    return (s:gsub(".", function(c) return string.format("%02x", c:byte()) end))
end

local function check(ok, what)
    if ok then
        passed = passed + 1
    else
        failed = failed + 1
        if failed <= 20 then print("FAIL ibsec-kat: " .. what) end
    end
end

-- flip bit 0 of byte i (1-based)
local function flip(s, i)
    local b = s:byte(i)
    return s:sub(1, i - 1) .. string.char(b % 2 == 0 and b + 1 or b - 1) .. s:sub(i + 1)
end

if gcm == nil then
    print("FAIL ibsec-kat: ibsec.lua was not loaded first (no package.loaded[\"ibsec.gcm\"])")
    print("ibsec-kat: 0 passed, 1 failed")
    return
end

-- 1. FIPS-197 Appendix C
check(to_hex(gcm.aes_block(from_hex("000102030405060708090a0b0c0d0e0f"),
                           from_hex("00112233445566778899aabbccddeeff")))
      == "69c4e0d86a7b0430d8cdb78070b4c55a", "FIPS-197 C.1 AES-128")
check(to_hex(gcm.aes_block(from_hex("000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"),
                           from_hex("00112233445566778899aabbccddeeff")))
      == "8ea2b7ca516745bfeafc49904b496089", "FIPS-197 C.3 AES-256")

-- 2. the vector file: the published cases and the length sweep (records below
-- SWEEP_END, docs/gcm-vectors.md) get every check, later records seal and open only;
-- IBSEC_KAT_RECORDS bounds how many records are read (all when unset)
local SWEEP_END = 8 + 132
local function check_record(r)
    local key, iv, aad, pt, ct, tag = from_hex(r.key), from_hex(r.iv), from_hex(r.aad),
                                      from_hex(r.pt), from_hex(r.ct), from_hex(r.tag)
    local name = "gcm.vec msg " .. r.msg
    local c, t = gcm.seal(key, iv, aad, pt)
    check(c == ct and t == tag, name .. ": seal gives ct " .. to_hex(c):sub(1, 32) .. " tag " .. to_hex(t))
    check(gcm.open(key, iv, aad, ct, tag) == pt, name .. ": open with the tag")
    if tonumber(r.msg) >= SWEEP_END then return end
    for _, n in ipairs({ 12, 4 }) do
        check(gcm.open(key, iv, aad, ct, tag:sub(1, n)) == pt, name .. ": open with a " .. n .. "-byte tag")
    end
    check(gcm.open(key, iv, aad, ct, flip(tag, 1)) == nil, name .. ": open accepts a flipped tag")
    if #ct > 0 then
        check(gcm.open(key, iv, aad, flip(ct, #ct), tag) == nil, name .. ": open accepts a flipped ciphertext")
    elseif #aad > 0 then
        check(gcm.open(key, iv, flip(aad, 1), ct, tag) == nil, name .. ": open accepts a flipped AAD")
    end
end

local path = os.getenv("IBSEC_KAT_VECTORS")
local records = 0
local max_records = tonumber(os.getenv("IBSEC_KAT_RECORDS") or "") or math.huge
if not path or path == "" then
    check(false, "IBSEC_KAT_VECTORS not set")
else
    local f = io.open(path, "r")
    if not f then
        check(false, "cannot open " .. path)
    else
        local rec
        for line in f:lines() do
            local k, v = line:match("^(%S+) (%S+)%s*$")
            if k == "msg" then rec = { msg = v }
            elseif k and rec then rec[k] = v end
            if records >= max_records then break end
            if line:match("^end%s*$") and rec then
                check_record(rec)
                records = records + 1
                rec = nil
            end
        end
        f:close()
        check(records > 8, path .. ": " .. records .. " records, expected the 8 published and more")
    end
end

-- 3. messages for OpenSSL: the MINSTD generator (x = 48271 x mod 2^31 - 1, exact in a
-- double), fixed seed
local unpack = table.unpack or unpack
local state = 20260101
local function rand32()
    state = (48271 * state) % 2147483647
    return state
end
local function rand_bytes(n)
    local t = {}
    for i = 1, n do
        local x = rand32()
        t[i] = (x - x % 128) / 128 % 256
    end
    return string.char(unpack(t))
end
local function rand_bytes_long(n)
    local parts = {}
    for i = 1, n, 1024 do parts[#parts + 1] = rand_bytes(math.min(1024, n - i + 1)) end
    return table.concat(parts)
end

local out_path = os.getenv("IBSEC_KAT_OUT")
if out_path and out_path ~= "" then
    local out = io.open(out_path, "w")
    if not out then
        check(false, "cannot write " .. out_path)
    else
        out:write("# ibsec gcm vectors v1 (sealed by scripts/wireshark/ibsec.lua's Lua AES-GCM)\n")
        local lengths = {}
        for n = 0, 80 do lengths[#lengths + 1] = n end
        for _, n in ipairs({ 255, 256, 257, 1023, 1500, 4096, 4099, 4200 }) do lengths[#lengths + 1] = n end
        local msg = 0
        for _, n in ipairs(lengths) do
            for _, klen in ipairs({ 16, 32 }) do
                local key, iv = rand_bytes(klen), rand_bytes(12)
                local aad, pt = rand_bytes(rand32() % 101), rand_bytes_long(n)
                local ct, tag = gcm.seal(key, iv, aad, pt)
                out:write(string.format("msg %d\nkey %s\niv %s\naad %s\npt %s\nct %s\ntag %s\nend\n",
                          msg, to_hex(key), to_hex(iv), to_hex(aad), to_hex(pt), to_hex(ct), to_hex(tag)))
                msg = msg + 1
            end
        end
        out:close()
    end
end

print(string.format("ibsec-kat: %d passed, %d failed", passed, failed))
