// SPDX-License-Identifier: GPL-2.0
// Fuzz the LLC decoder with arbitrary bytes; same properties as fuzz_clc:
// bounded reads, strict decode re-encodes byte-exact, lax decode re-encodes
// to a message whose strict decode equals the lax struct.
#include "fuzz_common.h"

#include <vector>

namespace {

// compare two decoded messages; list pointers point into different buffers,
// so compare what they point at and then the rest of the struct
bool same_llc(smcx_llc_msg a, smcx_llc_msg b)
{
    if (a.type == SMCX_LLC_ADD_LINK && a.u.add_link.has_ext) {
        size_t n = size_t(a.u.add_link.num_rkeys) * SMCX_LLC_RT_LEN;
        if (a.u.add_link.num_rkeys != b.u.add_link.num_rkeys ||
            std::memcmp(a.u.add_link.rkeys, b.u.add_link.rkeys, n))
            return false;
        a.u.add_link.rkeys = b.u.add_link.rkeys = nullptr;
    }
    if (a.type == SMCX_LLC_DELETE_RKEY) {
        size_t n = size_t(a.u.delete_rkey.num_rkeys) * 4;
        if (a.u.delete_rkey.num_rkeys != b.u.delete_rkey.num_rkeys ||
            std::memcmp(a.u.delete_rkey.rkeys, b.u.delete_rkey.rkeys, n))
            return false;
        a.u.delete_rkey.rkeys = b.u.delete_rkey.rkeys = nullptr;
    }
    return same(a, b);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static uint8_t out[SMCX_LLC_V2_MAX_LEN];
    std::vector<uint8_t> buf(data, data + size);
    const uint8_t *d = buf.data();
    smcx_llc_msg m, r;

    (void)smcx_llc_peek(d, size, &m);
    (void)smcx_wr_kind(size ? d[0] : 0);
    for (unsigned flags : {0u, unsigned(SMCX_WIRE_LAX_RSVD)}) {
        if (smcx_llc_decode(d, size, &m, flags))
            continue;
        int len = smcx_llc_encode(&m, out, sizeof(out));
        FUZZ_CHECK(len > 0);
        if (!flags)
            FUZZ_CHECK(size_t(len) == size && !std::memcmp(out, d, size));
        FUZZ_CHECK(smcx_llc_decode(out, size_t(len), &r, 0) == 0);
        FUZZ_CHECK(same_llc(m, r));
        // names for diagnostics never fail
        FUZZ_CHECK(smcx_llc_type_name(m.type) != nullptr);
        if (m.type == SMCX_LLC_DELETE_LINK)
            FUZZ_CHECK(smcx_llc_del_text(m.u.delete_link.reason) != nullptr);
    }
    return 0;
}
