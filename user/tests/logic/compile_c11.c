/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Compile test: the pure-logic headers as C11 with kernel-style warnings
 * (declarations before statements, strict prototypes, no VLAs).  The
 * functions below are called from the C++ tests so the TU is also run.
 */
#include <smcx/bufsize.h>
#include <smcx/close.h>
#include <smcx/cursor.h>
#include <smcx/names.h>
#include <smcx/reuse.h>
#include <smcx/rtoken.h>
#include <smcx/sniff.h>
#include <smcx/state.h>
#include <smcx/urg.h>
#include <smcx/v2x.h>
#include <smcx/wwi.h>

#include "compile_c11.h"

uint64_t smcx_logic_c11_to_count(uint64_t last, uint32_t size, uint16_t wrap, uint32_t count) {
    struct smcx_cdc_cursor c;

    c.wrap = wrap;
    c.count = count;
    return smcx_curs_to_count(last, size, &c);
}

int smcx_logic_c11_check(void) {
    struct smcx_cdc_cursor c;
    uint8_t eid[SMCX_NAME_EID_LEN];
    char pnetid[SMCX_NAME_PNETID_MAX + 1];
    bool pend = true;
    uint8_t flags = 0;
    struct smcx_v2x n;
    struct smcx_reuse_meter m = {0};
    bool skip;
    uint8_t oui[3], exp[5];
    uint64_t v = 0;
    struct smcx_close cl = {0};
    struct smcx_close_res r;

    smcx_curs_from_count(65536ull * 16384 + 5, 16384, &c);
    if (c.wrap != 0 || c.count != 5)
        return 1;
    if (smcx_ring_chunk(16380, 16384, 10) != 4)
        return 2;
    if (smcx_urg_tx_limit(&pend, 0, 9, 100, &flags) != 10 || pend ||
        flags != (SMCX_CDC_PF_URG_PENDING | SMCX_CDC_PF_URG_PRESENT))
        return 3;
    if (smcx_urg_rx_limit(SMCX_URG_VALID, 7, 7, 3, false, false, &skip) != 3 || !skip)
        return 4;
    if (smcx_ueid_normalize("ab", 2, eid, NULL) || eid[0] != 'A' || eid[31] != ' ' ||
        !smcx_ueid_valid(eid))
        return 5;
    if (smcx_pnetid_normalize("net1", 4, pnetid, NULL) || strcmp(pnetid, "NET1"))
        return 6;
    if (smcx_v2x_srv(&n, 1, 255, 2, 16, 1) || n.max_conns != 16 || n.max_links != 1 ||
        smcx_v2x_confirm_check(&n, 1, 16, 1) || smcx_v2x_clnt(&n, 1, 15, 2) != SMCX_DECL_MAXCONNERR)
        return 7;
    if (SMCX_PEERCLOSEWAIT2 != 21 || SMCX_CLOSE_EVS != SMCX_CLOSE_EV_FREE + 1)
        return 8;
    if (smcx_reuse_failed(&m, 1) || !smcx_reuse_open(&m, 1))
        return 9;
    if (smcx_bufsize_for_sock(2 * 100000) != 3 || smcx_bufsize_uncompress(15) != SMCX_BUFSIZE_MAX)
        return 10;
    smcx_wwi_prop_mark(oui, exp, true);
    if (!smcx_wwi_srv(true, oui, exp) || !smcx_wwi_clnt(true, smcx_wwi_opts(true)) ||
        !smcx_wwi_tx_ok(true, false, 10, true, 100, 100, 16384, 16384) ||
        !smcx_wwi_rx_blocked(16484, 100, 16384) ||
        smcx_wwi_rx_judge(true, true, 1, 1, 10, 16384, 100, 50, &v) != SMCX_WWI_RX_OK || v != 110)
        return 11;
    smcx_vx_prop_mark(oui, exp, SMCX_WWI_F_IP6);
    if (smcx_vx_prop_feats(oui, exp) != SMCX_WWI_F_IP6 ||
        smcx_vx_opts_feats(smcx_vx_opts(SMCX_WWI_F_IP6)) != SMCX_WWI_F_IP6)
        return 12;
    cl.state = SMCX_ACTIVE;
    cl.exposed = true;
    r = smcx_close_step(cl, SMCX_CLOSE_EV_CLOSE);
    if (r.next.state != SMCX_PEERCLOSEWAIT1 || !r.next.released || !r.next.local.closed ||
        r.act != (SMCX_CA_L_DW | SMCX_CA_L_CL | SMCX_CA_PUSH | SMCX_CA_WAKE | SMCX_CA_ARM_CW))
        return 13;
    r = smcx_close_step(r.next, SMCX_CLOSE_EV_TIMEOUT);
    r = smcx_close_step(r.next, SMCX_CLOSE_EV_TIMEOUT);
    if (r.next.state != SMCX_CLOSED ||
        smcx_close_step(r.next, SMCX_CLOSE_EV_FREE).act != SMCX_CA_RMB_DISCARD)
        return 14;
    return 0;
}
