// SPDX-License-Identifier: GPL-2.0
// Round-trip property over structs: build a message struct x from the fuzz
// input (every field the wire carries, in its canonical form: absent areas
// and unused slots zero, texts printable and padded), encode it, decode the
// bytes strictly, and require decode(encode(x)) == x.  Covers every CLC,
// LLC and CDC message kind.
#include "fuzz_common.h"

#include <fuzzer/FuzzedDataProvider.h>

#include <vector>

namespace {

struct Gen {
    FuzzedDataProvider &p;

    uint8_t u8() { return p.ConsumeIntegral<uint8_t>(); }
    uint16_t u16() { return p.ConsumeIntegral<uint16_t>(); }
    uint32_t u32() { return p.ConsumeIntegral<uint32_t>(); }
    uint64_t u64() { return p.ConsumeIntegral<uint64_t>(); }
    unsigned in(unsigned lo, unsigned hi) { return p.ConsumeIntegralInRange<unsigned>(lo, hi); }
    uint8_t bit() { return p.ConsumeBool() ? 1 : 0; }
    void raw(uint8_t *a, size_t n)
    {
        std::vector<uint8_t> v = p.ConsumeBytes<uint8_t>(n);
        std::memset(a, 0, n);
        if (!v.empty())
            std::memcpy(a, v.data(), v.size());
    }
    template <size_t N> void bytes(uint8_t (&a)[N]) { raw(a, N); }
    // empty, or printable text padded with blanks or NULs
    template <size_t N> void text(uint8_t (&a)[N])
    {
        std::memset(a, 0, N);
        unsigned mode = in(0, 2);
        if (!mode)
            return;
        unsigned k = in(1, N);
        for (unsigned i = 0; i < N; i++)
            a[i] = i < k ? uint8_t(in(0x20, 0x7e)) : (mode == 1 ? ' ' : 0);
    }
};

void hdr(Gen &g, smcx_clc_hdr &h, uint8_t type, uint8_t version, uint8_t t1, uint8_t t2)
{
    h.eyecatcher = g.bit();
    h.type = type;
    h.version = version;
    h.typev1 = t1;
    h.typev2 = t2;
}

void proposal(Gen &g)
{
    static smcx_clc_proposal x, y;
    static uint8_t out[SMCX_CLC_MAX_LEN];
    std::memset(&x, 0, sizeof(x));
    uint8_t v = uint8_t(g.in(1, 2));
    uint8_t t1, t2 = 0;
    if (v == 1) {
        t1 = uint8_t(g.in(0, 2));
        if (t1 == SMCX_TYPE_N)
            t1 = SMCX_TYPE_B;
    } else {
        t1 = uint8_t(g.in(0, 3));
        t2 = uint8_t(g.in(0, 3));
        if (t1 == SMCX_TYPE_N && t2 == SMCX_TYPE_N)
            t2 = SMCX_TYPE_R;
    }
    hdr(g, x.hdr, SMCX_CLC_PROPOSAL, v, t1, t2);
    g.bytes(x.peer_id);
    g.bytes(x.gid);
    g.bytes(x.mac);
    x.has_smcd_area = v == 2 || smcx_type_has_d(t1) ? 1 : g.bit();
    if (x.has_smcd_area) {
        x.ism_gid = g.u64();
        if (v == 2) {
            x.ism_chid = g.u16();
            g.bytes(x.vendor_oui);
            g.bytes(x.vendor_exp);
        }
    }
    if (v == 1 || t1 != SMCX_TYPE_N) {
        x.ipv4_subnet = g.u32();
        x.ipv4_prefix_len = uint8_t(g.in(0, 32));
        x.ipv6_cnt = uint8_t(g.in(0, SMCX_CLC_MAX_V6_PREFIX));
        for (unsigned i = 0; i < x.ipv6_cnt; i++) {
            g.bytes(x.ipv6[i].prefix);
            x.ipv6[i].len = uint8_t(g.in(0, 128));
        }
    }
    if (v == 2 && t2 != SMCX_TYPE_N) {
        x.eid_cnt = uint8_t(g.in(0, SMCX_CLC_MAX_UEID));
        x.release = uint8_t(g.in(0, 15));
        x.seid = g.bit();
        g.bytes(x.roce_gid);
        x.max_conns = g.u8();
        x.max_links = g.u8();
        x.feature_mask = g.u16();
        for (unsigned i = 0; i < x.eid_cnt; i++)
            g.text(x.user_eid[i]);
        if (smcx_type_has_d(t2)) {
            g.text(x.system_eid);
            x.ism_gid_cnt = uint8_t(g.in(0, SMCX_CLC_MAX_ISM_GIDS));
            for (unsigned i = 0; i < x.ism_gid_cnt; i++) {
                x.ism[i].gid = g.u64();
                x.ism[i].chid = g.u16();
            }
        }
    }
    int len = smcx_clc_proposal_len(&x);
    FUZZ_CHECK(len > 0);
    x.hdr.length = uint16_t(len);
    FUZZ_CHECK(smcx_clc_encode_proposal(&x, out, sizeof(out)) == len);
    FUZZ_CHECK(smcx_clc_decode_proposal(out, size_t(len), &y, 0) == 0);
    FUZZ_CHECK(same(x, y));
}

void accept(Gen &g, uint8_t type)
{
    smcx_clc_accept x, y;
    uint8_t out[512];
    std::memset(&x, 0, sizeof(x));
    uint8_t v = uint8_t(g.in(1, 2));
    hdr(g, x.hdr, type, v, SMCX_TYPE_R, g.bit() ? SMCX_CLC_FIRST_CONTACT : 0);
    g.bytes(x.peer_id);
    g.bytes(x.gid);
    g.bytes(x.mac);
    x.qpn = g.u32() & 0xffffff;
    x.rmb_rkey = g.u32();
    x.rmbe_idx = g.u8();
    x.rmbe_alert_token = g.u32();
    x.rmbe_size = uint8_t(g.in(0, 15));
    x.qp_mtu = uint8_t(g.in(0, 15));
    x.rmb_dma_addr = g.u64();
    x.psn = g.u32() & 0xffffff;
    if (v == 2) {
        g.text(x.eid);
        if (x.hdr.typev2) {
            x.fce_v2x = type == SMCX_CLC_CONFIRM ? 1 : g.bit();
            x.v2_direct = g.bit();
            x.os_type = uint8_t(g.in(0, 15));
            x.release = uint8_t(g.in(0, 15));
            g.text(x.hostname);
            if (x.fce_v2x) {
                x.max_conns = g.u8();
                x.max_links = g.u8();
                x.feature_mask = g.u16();
                x.vendor_exp_options = g.u32();
            }
            if (type == SMCX_CLC_CONFIRM) {
                x.gid_cnt = uint8_t(g.in(0, SMCX_CLC_MAX_FCE_GIDS));
                for (unsigned i = 0; i < x.gid_cnt; i++)
                    g.bytes(x.gids[i]);
            }
        }
    }
    int len = smcx_clc_encode_accept(&x, type, out, sizeof(out));
    FUZZ_CHECK(len > 0);
    x.hdr.length = uint16_t(len);
    FUZZ_CHECK(smcx_clc_decode_accept(out, size_t(len), type, &y, 0) == 0);
    FUZZ_CHECK(same(x, y));
}

void accept_d(Gen &g, uint8_t type)
{
    smcx_clc_accept_d x, y;
    uint8_t out[SMCX_CLC_ACC_D_V2_LEN + SMCX_CLC_FCE_V2X_LEN];
    std::memset(&x, 0, sizeof(x));
    uint8_t v = uint8_t(g.in(1, 2));
    hdr(g, x.hdr, type, v, SMCX_TYPE_D, g.bit() ? SMCX_CLC_FIRST_CONTACT : 0);
    x.hdr.eyecatcher = SMCX_EYE_SMCD;
    x.gid = g.u64();
    x.token = g.u64();
    x.dmbe_idx = g.u8();
    x.dmbe_size = uint8_t(g.in(0, 15));
    x.linkid = g.u32();
    if (v == 2) {
        x.chid = g.u16();
        g.text(x.eid);
        x.gid_ext = g.u64();
        if (x.hdr.typev2) {
            x.fce_v2x = g.bit();
            x.v2_direct = g.bit();
            x.os_type = uint8_t(g.in(0, 15));
            x.release = uint8_t(g.in(0, 15));
            g.text(x.hostname);
            if (x.fce_v2x) {
                // max conns and max links are reserved in SMC-D
                x.feature_mask = g.u16();
                x.vendor_exp_options = g.u32();
            }
        }
    }
    int len = smcx_clc_encode_accept_d(&x, type, out, sizeof(out));
    FUZZ_CHECK(len > 0);
    x.hdr.length = uint16_t(len);
    FUZZ_CHECK(smcx_clc_decode_accept_d(out, size_t(len), type, &y, 0) == 0);
    FUZZ_CHECK(same(x, y));
}

void decline(Gen &g)
{
    smcx_clc_decline x, y;
    uint8_t out[SMCX_CLC_DECL_V2_LEN];
    std::memset(&x, 0, sizeof(x));
    uint8_t v = uint8_t(g.in(1, 2));
    hdr(g, x.hdr, SMCX_CLC_DECLINE, v, uint8_t(g.in(0, 1)), g.bit() ? SMCX_CLC_FIRST_CONTACT : 0);
    g.bytes(x.peer_id);
    x.diag = g.u32();
    x.os_type = uint8_t(g.in(0, 15));
    if (v == 2)
        for (uint32_t &d : x.diag_v2)
            d = g.u32();
    int len = smcx_clc_encode_decline(&x, out, sizeof(out));
    FUZZ_CHECK(len > 0);
    x.hdr.length = uint16_t(len);
    FUZZ_CHECK(smcx_clc_decode_decline(out, size_t(len), &y, 0) == 0);
    FUZZ_CHECK(same(x, y));
}

void llc(Gen &g)
{
    static const uint8_t v1_types[] = {1, 2, 3, 4, 6, 7, 8, 9};
    static const uint8_t v2_types[] = {1, 2, 4, 5, 6, 7, 9};
    static uint8_t out[SMCX_LLC_V2_MAX_LEN];
    static uint8_t list[SMCX_LLC_ADD_LINK_RKEYS_MAX_V2 * SMCX_LLC_RT_LEN];
    smcx_llc_msg x, y;
    std::memset(&x, 0, sizeof(x));
    x.version = g.bit() ? SMCX_LLC_V2 : SMCX_LLC_V1;
    x.type = x.version == SMCX_LLC_V1 ? v1_types[g.in(0, 7)] : v2_types[g.in(0, 6)];
    x.flags = g.u8();
    unsigned n;
    switch (x.type) {
    case SMCX_LLC_CONFIRM_LINK: {
        auto &c = x.u.confirm_link;
        g.bytes(c.mac);
        g.bytes(c.gid);
        c.qpn = g.u32() & 0xffffff;
        c.link_num = g.u8();
        g.bytes(c.link_uid);
        c.max_links = g.u8();
        c.max_conns = g.u8();
        break;
    }
    case SMCX_LLC_ADD_LINK: {
        auto &a = x.u.add_link;
        if (x.version == SMCX_LLC_V1)
            x.rej_rsn = uint8_t(g.in(0, 15));
        g.bytes(a.mac);
        g.bytes(a.gid);
        a.qpn = g.u32() & 0xffffff;
        a.link_num = g.u8();
        a.qp_mtu = uint8_t(g.in(0, 15));
        a.psn = g.u32() & 0xffffff;
        if (x.version == SMCX_LLC_V2 && g.bit()) {
            a.has_ext = 1;
            a.v2_direct = g.bit();
            g.bytes(a.target_gid);
            a.num_rkeys = uint16_t(g.in(0, SMCX_LLC_ADD_LINK_RKEYS_MAX_V2));
            g.raw(list, size_t(a.num_rkeys) * SMCX_LLC_RT_LEN);
            a.rkeys = list;
        }
        break;
    }
    case SMCX_LLC_ADD_LINK_CONT: {
        auto &c = x.u.add_link_cont;
        c.link_num = g.u8();
        c.num_rkeys = g.u8();
        n = c.num_rkeys < 2 ? c.num_rkeys : 2;
        for (unsigned i = 0; i < n; i++)
            c.rt[i] = {g.u32(), g.u32(), g.u64()};
        break;
    }
    case SMCX_LLC_DELETE_LINK:
        x.u.delete_link.link_num = g.u8();
        x.u.delete_link.reason = g.u32();
        break;
    case SMCX_LLC_REQ_ADD_LINK:
        x.u.req_add_link.gid_cnt = uint8_t(g.in(0, SMCX_LLC_MAX_GIDS));
        for (unsigned i = 0; i < x.u.req_add_link.gid_cnt; i++)
            g.bytes(x.u.req_add_link.gids[i]);
        break;
    case SMCX_LLC_CONFIRM_RKEY:
    case SMCX_LLC_CONFIRM_RKEY_CONT: {
        auto &c = x.u.confirm_rkey;
        unsigned first = x.type == SMCX_LLC_CONFIRM_RKEY;
        c.num_rkeys = uint8_t(g.in(0, SMCX_LLC_MAX_LINKS - 1));
        n = c.num_rkeys + first < 3 ? c.num_rkeys + first : 3;
        for (unsigned i = 0; i < n; i++)
            c.rt[i] = {uint8_t(first && !i ? 0 : g.u8()), g.u32(), g.u64()};
        break;
    }
    case SMCX_LLC_TEST_LINK:
        g.bytes(x.u.test_link.user_data);
        break;
    case SMCX_LLC_DELETE_RKEY: {
        auto &d = x.u.delete_rkey;
        d.num_rkeys = uint8_t(
            g.in(0, x.version == SMCX_LLC_V1 ? SMCX_LLC_DEL_RKEY_MAX : SMCX_LLC_DEL_RKEY_MAX_V2));
        d.err_mask = g.u8();
        g.raw(list, size_t(d.num_rkeys) * 4);
        d.rkeys = list;
        break;
    }
    }
    int len = smcx_llc_encode(&x, out, sizeof(out));
    FUZZ_CHECK(len >= SMCX_LLC_LEN);
    x.length = uint16_t(len);
    FUZZ_CHECK(smcx_llc_decode(out, size_t(len), &y, 0) == 0);
    // lists come back as views into the encoded bytes
    if (x.type == SMCX_LLC_ADD_LINK && x.u.add_link.has_ext) {
        FUZZ_CHECK(!std::memcmp(y.u.add_link.rkeys, list, x.u.add_link.num_rkeys * 16u));
        y.u.add_link.rkeys = x.u.add_link.rkeys;
    }
    if (x.type == SMCX_LLC_DELETE_RKEY) {
        FUZZ_CHECK(!std::memcmp(y.u.delete_rkey.rkeys, list, x.u.delete_rkey.num_rkeys * 4u));
        y.u.delete_rkey.rkeys = x.u.delete_rkey.rkeys;
    }
    FUZZ_CHECK(same(x, y));
}

void cdc(Gen &g)
{
    smcx_cdc_msg x, y;
    uint8_t out[SMCX_CDC_LEN];
    std::memset(&x, 0, sizeof(x));
    x.seqno = g.u16();
    x.token = g.u32();
    x.prod = {g.u16(), g.u32()};
    x.cons = {g.u16(), g.u32()};
    x.prod_flags = g.u8() & uint8_t(~SMCX_CDC_PF_RESERVED);
    x.conn_flags = g.u8() & uint8_t(~SMCX_CDC_CF_RESERVED);
    FUZZ_CHECK(smcx_cdc_encode(&x, out, sizeof(out)) == SMCX_CDC_LEN);
    FUZZ_CHECK(smcx_cdc_decode(out, sizeof(out), &y, 0) == 0);
    FUZZ_CHECK(same(x, y));
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FuzzedDataProvider p(data, size);
    Gen g{p};
    switch (g.in(0, 7)) {
    case 0:
        proposal(g);
        break;
    case 1:
        accept(g, SMCX_CLC_ACCEPT);
        break;
    case 2:
        accept(g, SMCX_CLC_CONFIRM);
        break;
    case 3:
        decline(g);
        break;
    case 4:
        llc(g);
        break;
    case 5:
        accept_d(g, SMCX_CLC_ACCEPT);
        break;
    case 6:
        accept_d(g, SMCX_CLC_CONFIRM);
        break;
    default:
        cdc(g);
        break;
    }
    return 0;
}
