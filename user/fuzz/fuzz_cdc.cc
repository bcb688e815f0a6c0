// SPDX-License-Identifier: GPL-2.0
// Fuzz the CDC decoder with arbitrary bytes; same properties as fuzz_clc.
#include "fuzz_common.h"

#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    std::vector<uint8_t> buf(data, data + size);
    const uint8_t *d = buf.data();
    uint8_t out[SMCX_CDC_LEN];
    smcx_cdc_msg m, r;

    for (unsigned flags : {0u, unsigned(SMCX_WIRE_LAX_RSVD)}) {
        if (smcx_cdc_decode(d, size, &m, flags))
            continue;
        FUZZ_CHECK(smcx_cdc_encode(&m, out, sizeof(out)) == SMCX_CDC_LEN);
        if (!flags)
            FUZZ_CHECK(size == SMCX_CDC_LEN && !std::memcmp(out, d, size));
        FUZZ_CHECK(smcx_cdc_decode(out, sizeof(out), &r, 0) == 0);
        FUZZ_CHECK(same(m, r));
    }
    return 0;
}
