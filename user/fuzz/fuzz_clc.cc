// SPDX-License-Identifier: GPL-2.0
// Fuzz the CLC decoders (proposal, SMC-R and SMC-D accept/confirm, decline)
// with arbitrary bytes.  Properties:
//  - no decoder reads outside [data, data+size) or hits undefined behaviour
//    (ASan/UBSan; the input is copied to an exact-size heap buffer);
//  - a strict decode that succeeds re-encodes to exactly the input bytes;
//  - a lax decode that succeeds re-encodes to a message that decodes
//    strictly to the same struct (decode(encode(x)) == x).
#include "fuzz_common.h"

#include <vector>

namespace {

void proposal(const uint8_t *d, size_t n, unsigned flags)
{
    static smcx_clc_proposal m, r;
    static uint8_t out[SMCX_CLC_MAX_LEN];
    if (smcx_clc_decode_proposal(d, n, &m, flags))
        return;
    int len = smcx_clc_encode_proposal(&m, out, sizeof(out));
    FUZZ_CHECK(len > 0);
    if (!flags)
        FUZZ_CHECK(size_t(len) == n && !std::memcmp(out, d, n));
    // lax decoding drops reserved content only, so even then the struct
    // equals the strict decode of its own encoding
    FUZZ_CHECK(smcx_clc_decode_proposal(out, size_t(len), &r, 0) == 0);
    FUZZ_CHECK(same(m, r));
}

void accept(const uint8_t *d, size_t n, uint8_t type, unsigned flags)
{
    smcx_clc_accept m, r;
    uint8_t out[512];
    if (smcx_clc_decode_accept(d, n, type, &m, flags))
        return;
    int len = smcx_clc_encode_accept(&m, type, out, sizeof(out));
    FUZZ_CHECK(len > 0);
    if (!flags)
        FUZZ_CHECK(size_t(len) == n && !std::memcmp(out, d, n));
    FUZZ_CHECK(smcx_clc_decode_accept(out, size_t(len), type, &r, 0) == 0);
    FUZZ_CHECK(same(m, r));
}

void accept_d(const uint8_t *d, size_t n, uint8_t type, unsigned flags)
{
    smcx_clc_accept_d m, r;
    uint8_t out[SMCX_CLC_ACC_D_V2_LEN + SMCX_CLC_FCE_V2X_LEN];
    if (smcx_clc_decode_accept_d(d, n, type, &m, flags))
        return;
    int len = smcx_clc_encode_accept_d(&m, type, out, sizeof(out));
    FUZZ_CHECK(len > 0);
    if (!flags)
        FUZZ_CHECK(size_t(len) == n && !std::memcmp(out, d, n));
    FUZZ_CHECK(smcx_clc_decode_accept_d(out, size_t(len), type, &r, 0) == 0);
    FUZZ_CHECK(same(m, r));
}

void decline(const uint8_t *d, size_t n, unsigned flags)
{
    smcx_clc_decline m, r;
    uint8_t out[SMCX_CLC_DECL_V2_LEN];
    if (smcx_clc_decode_decline(d, n, &m, flags))
        return;
    int len = smcx_clc_encode_decline(&m, out, sizeof(out));
    FUZZ_CHECK(len > 0);
    if (!flags)
        FUZZ_CHECK(size_t(len) == n && !std::memcmp(out, d, n));
    FUZZ_CHECK(smcx_clc_decode_decline(out, size_t(len), &r, 0) == 0);
    FUZZ_CHECK(same(m, r));
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    // exact-size copy: any read past the end is an ASan report
    std::vector<uint8_t> buf(data, data + size);
    const uint8_t *d = buf.data();
    smcx_clc_hdr h;

    (void)smcx_clc_peek(d, size, &h);
    for (unsigned flags : {0u, unsigned(SMCX_WIRE_LAX_RSVD)}) {
        proposal(d, size, flags);
        accept(d, size, SMCX_CLC_ACCEPT, flags);
        accept(d, size, SMCX_CLC_CONFIRM, flags);
        accept_d(d, size, SMCX_CLC_ACCEPT, flags);
        accept_d(d, size, SMCX_CLC_CONFIRM, flags);
        decline(d, size, flags);
    }
    return 0;
}
