/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Compile test: the codec headers as C11 with kernel-style warnings
 * (declarations before statements, strict prototypes, no VLAs).  The
 * function below is called from the C++ test so the TU is also run.
 */
#include <smcx/wire.h>
#include <smcx/wire/selftest.h>

#include "compile_c11.h"

int smcx_c11_selftest(void)
{
    struct smcx_cdc_msg m;
    uint8_t out[SMCX_CDC_LEN];
    int rc;

    memset(&m, 0, sizeof(m));
    m.seqno = 7;
    rc = smcx_cdc_encode(&m, out, sizeof(out));
    if (rc != SMCX_CDC_LEN)
        return -SMCX_WIRE_ESELFTEST;
    return smcx_wire_selftest();
}

size_t smcx_c11_sizeof_proposal(void) { return sizeof(struct smcx_clc_proposal); }
