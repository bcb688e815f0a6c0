// SPDX-License-Identifier: GPL-2.0
#include "client.hpp"

#include <array>
#include <cerrno>

#include <net/if.h>

#include "names.hpp"
#include "uapi/linux/smc.h"

namespace smcctl {

namespace {

// ---- attribute layouts (libnl policies) -------------------------------------------------

using nl::layout_of;
using nl::pol;
using nl::policy_table;

constexpr auto pnet_policy = [] {
    policy_table<SMC_PNETID_MAX + 1> t{};
    t[SMC_PNETID_NAME] = pol(NLA_STRING);
    t[SMC_PNETID_ETHNAME] = pol(NLA_STRING);
    t[SMC_PNETID_IBNAME] = pol(NLA_STRING);
    t[SMC_PNETID_IBPORT] = pol(NLA_U8);
    return t;
}();

constexpr auto gen_policy = [] {
    policy_table<SMC_GEN_MAX + 1> t{};
    for (int i = SMC_GEN_SYS_INFO; i <= SMC_GEN_MAX; ++i)
        t[static_cast<std::size_t>(i)] = pol(NLA_NESTED);
    return t;
}();

constexpr auto sys_policy = [] {
    policy_table<SMC_NLA_SYS_MAX + 1> t{};
    t[SMC_NLA_SYS_VER] = pol(NLA_U8);
    t[SMC_NLA_SYS_REL] = pol(NLA_U8);
    t[SMC_NLA_SYS_IS_ISM_V2] = pol(NLA_U8);
    t[SMC_NLA_SYS_LOCAL_HOST] = pol(NLA_STRING);
    t[SMC_NLA_SYS_SEID] = pol(NLA_STRING);
    t[SMC_NLA_SYS_IS_SMCR_V2] = pol(NLA_U8);
    return t;
}();

constexpr auto eid_policy = [] {
    policy_table<SMC_NLA_EID_TABLE_MAX + 1> t{};
    t[SMC_NLA_EID_TABLE_ENTRY] = pol(NLA_STRING);
    return t;
}();

constexpr auto stats_policy = [] {
    policy_table<SMC_NLA_STATS_MAX + 1> t{};
    t[SMC_NLA_STATS_SMCD_TECH] = pol(NLA_NESTED);
    t[SMC_NLA_STATS_SMCR_TECH] = pol(NLA_NESTED);
    t[SMC_NLA_STATS_CLNT_HS_ERR_CNT] = pol(NLA_U64);
    t[SMC_NLA_STATS_SRV_HS_ERR_CNT] = pol(NLA_U64);
    return t;
}();

constexpr auto tech_policy = [] {
    policy_table<SMC_NLA_STATS_T_MAX + 1> t{};
    for (int i = SMC_NLA_STATS_T_TX_RMB_SIZE; i <= SMC_NLA_STATS_T_RX_RMB_STATS; ++i)
        t[static_cast<std::size_t>(i)] = pol(NLA_NESTED);
    for (int i = SMC_NLA_STATS_T_CLNT_V1_SUCC; i <= SMC_NLA_STATS_T_TX_CNT; ++i)
        t[static_cast<std::size_t>(i)] = pol(NLA_U64);
    // variable-width unsigned: at least 4 bytes
    t[SMC_NLA_STATS_T_RX_RMB_USAGE] = pol(NLA_UNSPEC, 4);
    t[SMC_NLA_STATS_T_TX_RMB_USAGE] = pol(NLA_UNSPEC, 4);
    return t;
}();

constexpr auto pload_policy = [] {
    policy_table<SMC_NLA_STATS_PLOAD_MAX + 1> t{};
    for (int i = SMC_NLA_STATS_PLOAD_8K; i <= SMC_NLA_STATS_PLOAD_G_1024K; ++i)
        t[static_cast<std::size_t>(i)] = pol(NLA_U64);
    return t;
}();

constexpr auto rmb_policy = [] {
    policy_table<SMC_NLA_STATS_RMB_MAX + 1> t{};
    for (int i = SMC_NLA_STATS_RMB_SIZE_SM_PEER_CNT; i <= SMC_NLA_STATS_RMB_DGRADE_CNT; ++i)
        t[static_cast<std::size_t>(i)] = pol(NLA_U64);
    return t;
}();

constexpr auto fback_policy = [] {
    policy_table<SMC_NLA_FBACK_STATS_MAX + 1> t{};
    t[SMC_NLA_FBACK_STATS_TYPE] = pol(NLA_U8);
    t[SMC_NLA_FBACK_STATS_SRV_CNT] = pol(NLA_U64);
    t[SMC_NLA_FBACK_STATS_CLNT_CNT] = pol(NLA_U64);
    t[SMC_NLA_FBACK_STATS_RSN_CODE] = pol(NLA_U32);
    t[SMC_NLA_FBACK_STATS_RSN_CNT] = pol(NLA_U16);
    return t;
}();

constexpr auto lgr_r_policy = [] {
    policy_table<SMC_NLA_LGR_R_MAX + 1> t{};
    t[SMC_NLA_LGR_R_ID] = pol(NLA_U32);
    t[SMC_NLA_LGR_R_ROLE] = pol(NLA_U8);
    t[SMC_NLA_LGR_R_TYPE] = pol(NLA_U8);
    t[SMC_NLA_LGR_R_PNETID] = pol(NLA_STRING);
    t[SMC_NLA_LGR_R_VLAN_ID] = pol(NLA_U8);
    t[SMC_NLA_LGR_R_CONNS_NUM] = pol(NLA_U32);
    t[SMC_NLA_LGR_R_V2_COMMON] = pol(NLA_NESTED);
    t[SMC_NLA_LGR_R_V2] = pol(NLA_NESTED);
    t[SMC_NLA_LGR_R_NET_COOKIE] = pol(NLA_U64);
    t[SMC_NLA_LGR_R_BUF_TYPE] = pol(NLA_U8);
    t[SMC_NLA_LGR_R_SNDBUF_ALLOC] = pol(NLA_UNSPEC, 4);
    t[SMC_NLA_LGR_R_RMB_ALLOC] = pol(NLA_UNSPEC, 4);
    return t;
}();

constexpr auto lgr_v2_common_policy = [] {
    policy_table<SMC_NLA_LGR_V2_MAX + 1> t{};
    t[SMC_NLA_LGR_V2_VER] = pol(NLA_U8);
    t[SMC_NLA_LGR_V2_REL] = pol(NLA_U8);
    t[SMC_NLA_LGR_V2_OS] = pol(NLA_U8);
    t[SMC_NLA_LGR_V2_NEG_EID] = pol(NLA_STRING);
    t[SMC_NLA_LGR_V2_PEER_HOST] = pol(NLA_STRING);
    return t;
}();

constexpr auto lgr_r_v2_policy = [] {
    policy_table<SMC_NLA_LGR_R_V2_MAX + 1> t{};
    t[SMC_NLA_LGR_R_V2_DIRECT] = pol(NLA_U8);
    t[SMC_NLA_LGR_R_V2_MAX_CONNS] = pol(NLA_U8);
    t[SMC_NLA_LGR_R_V2_MAX_LINKS] = pol(NLA_U8);
    return t;
}();

constexpr auto link_policy = [] {
    policy_table<SMC_NLA_LINK_MAX + 1> t{};
    t[SMC_NLA_LINK_ID] = pol(NLA_U8);
    t[SMC_NLA_LINK_IB_DEV] = pol(NLA_STRING);
    t[SMC_NLA_LINK_IB_PORT] = pol(NLA_U8);
    t[SMC_NLA_LINK_GID] = pol(NLA_STRING);
    t[SMC_NLA_LINK_PEER_GID] = pol(NLA_STRING);
    t[SMC_NLA_LINK_CONN_CNT] = pol(NLA_U32);
    t[SMC_NLA_LINK_NET_DEV] = pol(NLA_U32);
    t[SMC_NLA_LINK_UID] = pol(NLA_U32);
    t[SMC_NLA_LINK_PEER_UID] = pol(NLA_U32);
    t[SMC_NLA_LINK_STATE] = pol(NLA_U32);
    return t;
}();

constexpr auto dev_policy = [] {
    policy_table<SMC_NLA_DEV_MAX + 1> t{};
    t[SMC_NLA_DEV_USE_CNT] = pol(NLA_U32);
    t[SMC_NLA_DEV_IS_CRIT] = pol(NLA_U8);
    t[SMC_NLA_DEV_PCI_FID] = pol(NLA_U32);
    t[SMC_NLA_DEV_PCI_CHID] = pol(NLA_U16);
    t[SMC_NLA_DEV_PCI_VENDOR] = pol(NLA_U16);
    t[SMC_NLA_DEV_PCI_DEVICE] = pol(NLA_U16);
    t[SMC_NLA_DEV_PCI_ID] = pol(NLA_STRING);
    t[SMC_NLA_DEV_PORT] = pol(NLA_NESTED);
    t[SMC_NLA_DEV_PORT2] = pol(NLA_NESTED);
    t[SMC_NLA_DEV_IB_NAME] = pol(NLA_STRING);
    return t;
}();

constexpr auto dev_port_policy = [] {
    policy_table<SMC_NLA_DEV_PORT_MAX + 1> t{};
    t[SMC_NLA_DEV_PORT_PNET_USR] = pol(NLA_U8);
    t[SMC_NLA_DEV_PORT_PNETID] = pol(NLA_STRING);
    t[SMC_NLA_DEV_PORT_NETDEV] = pol(NLA_U32);
    t[SMC_NLA_DEV_PORT_STATE] = pol(NLA_U8);
    t[SMC_NLA_DEV_PORT_VALID] = pol(NLA_U8);
    t[SMC_NLA_DEV_PORT_LNK_CNT] = pol(NLA_U32);
    return t;
}();

constexpr auto lgr_d_policy = [] {
    policy_table<SMC_NLA_LGR_D_MAX + 1> t{};
    t[SMC_NLA_LGR_D_ID] = pol(NLA_U32);
    t[SMC_NLA_LGR_D_GID] = pol(NLA_U64);
    t[SMC_NLA_LGR_D_PEER_GID] = pol(NLA_U64);
    t[SMC_NLA_LGR_D_VLAN_ID] = pol(NLA_U8);
    t[SMC_NLA_LGR_D_CONNS_NUM] = pol(NLA_U32);
    t[SMC_NLA_LGR_D_PNETID] = pol(NLA_STRING);
    t[SMC_NLA_LGR_D_CHID] = pol(NLA_U16);
    t[SMC_NLA_LGR_D_V2_COMMON] = pol(NLA_NESTED);
    t[SMC_NLA_LGR_D_EXT_GID] = pol(NLA_U64);
    t[SMC_NLA_LGR_D_PEER_EXT_GID] = pol(NLA_U64);
    t[SMC_NLA_LGR_D_SNDBUF_ALLOC] = pol(NLA_UNSPEC, 4);
    t[SMC_NLA_LGR_D_DMB_ALLOC] = pol(NLA_UNSPEC, 4);
    return t;
}();

constexpr auto seid_policy = [] {
    policy_table<SMC_NLA_SEID_TABLE_MAX + 1> t{};
    t[SMC_NLA_SEID_ENTRY] = pol(NLA_STRING);
    t[SMC_NLA_SEID_ENABLED] = pol(NLA_U8);
    return t;
}();

// "n/a" is how the kernel fills the side of a PNET entry that does not apply.
std::string unless_na(std::optional<std::string> s) {
    if (!s || *s == "n/a")
        return {};
    return *s;
}

void decode_histogram(const nl::attrs& tech, int type, SizeHistogram& h) {
    const nl::attrs a = tech.nested(type, layout_of(pload_policy));
    for (std::size_t i = 0; i < SizeHistogram::buckets; ++i)
        h.count[i] = a.u64_or0(SMC_NLA_STATS_PLOAD_8K + static_cast<int>(i));
}

void decode_buffer_events(const nl::attrs& tech, int type, BufferEvents& b) {
    const nl::attrs a = tech.nested(type, layout_of(rmb_policy));
    b.size_small_peer = a.u64_or0(SMC_NLA_STATS_RMB_SIZE_SM_PEER_CNT);
    b.size_small = a.u64_or0(SMC_NLA_STATS_RMB_SIZE_SM_CNT);
    b.full_peer = a.u64_or0(SMC_NLA_STATS_RMB_FULL_PEER_CNT);
    b.full = a.u64_or0(SMC_NLA_STATS_RMB_FULL_CNT);
    b.reuse = a.u64_or0(SMC_NLA_STATS_RMB_REUSE_CNT);
    b.alloc = a.u64_or0(SMC_NLA_STATS_RMB_ALLOC_CNT);
    b.downgrade = a.u64_or0(SMC_NLA_STATS_RMB_DGRADE_CNT);
}

void decode_tech(const nl::attrs& stats, int type, TechStats& t) {
    if (!stats.has(type))
        return;
    const nl::attrs a = stats.nested(type, layout_of(tech_policy));
    t.clnt_v1_succ = a.u64_or0(SMC_NLA_STATS_T_CLNT_V1_SUCC);
    t.clnt_v2_succ = a.u64_or0(SMC_NLA_STATS_T_CLNT_V2_SUCC);
    t.srv_v1_succ = a.u64_or0(SMC_NLA_STATS_T_SRV_V1_SUCC);
    t.srv_v2_succ = a.u64_or0(SMC_NLA_STATS_T_SRV_V2_SUCC);
    t.sendpage_cnt = a.u64_or0(SMC_NLA_STATS_T_SENDPAGE_CNT);
    t.splice_cnt = a.u64_or0(SMC_NLA_STATS_T_SPLICE_CNT);
    t.cork_cnt = a.u64_or0(SMC_NLA_STATS_T_CORK_CNT);
    t.ndly_cnt = a.u64_or0(SMC_NLA_STATS_T_NDLY_CNT);
    t.urg_data_cnt = a.u64_or0(SMC_NLA_STATS_T_URG_DATA_CNT);
    t.rx_bytes = a.u64_or0(SMC_NLA_STATS_T_RX_BYTES);
    t.tx_bytes = a.u64_or0(SMC_NLA_STATS_T_TX_BYTES);
    t.rx_cnt = a.u64_or0(SMC_NLA_STATS_T_RX_CNT);
    t.tx_cnt = a.u64_or0(SMC_NLA_STATS_T_TX_CNT);
    t.rx_rmb_usage = a.uint(SMC_NLA_STATS_T_RX_RMB_USAGE);
    t.tx_rmb_usage = a.uint(SMC_NLA_STATS_T_TX_RMB_USAGE);
    decode_buffer_events(a, SMC_NLA_STATS_T_TX_RMB_STATS, t.tx_buf);
    decode_buffer_events(a, SMC_NLA_STATS_T_RX_RMB_STATS, t.rx_buf);
    decode_histogram(a, SMC_NLA_STATS_T_TX_RMB_SIZE, t.tx_rmb_size);
    decode_histogram(a, SMC_NLA_STATS_T_RX_RMB_SIZE, t.rx_rmb_size);
    decode_histogram(a, SMC_NLA_STATS_T_TXPLOAD_SIZE, t.tx_payload);
    decode_histogram(a, SMC_NLA_STATS_T_RXPLOAD_SIZE, t.rx_payload);
}

// The SMC_NLA_LGR_V2_* nest `type` of a link group (SMC-R and SMC-D share its layout).
void decode_v2_common(const nl::attrs& lgr, int type, LgrV2& v2) {
    if (!lgr.has(type))
        return;
    const nl::attrs c = lgr.nested(type, layout_of(lgr_v2_common_policy));
    v2.version = c.u8(SMC_NLA_LGR_V2_VER);
    v2.release = c.u8(SMC_NLA_LGR_V2_REL);
    v2.peer_os = c.u8(SMC_NLA_LGR_V2_OS);
    v2.negotiated_eid = trim_blanks(c.str(SMC_NLA_LGR_V2_NEG_EID).value_or(""));
    v2.peer_host = trim_blanks(c.str(SMC_NLA_LGR_V2_PEER_HOST).value_or(""));
}

LgrV2 decode_lgr_v2(const nl::attrs& lgr) {
    LgrV2 v2;
    decode_v2_common(lgr, SMC_NLA_LGR_R_V2_COMMON, v2);
    if (lgr.has(SMC_NLA_LGR_R_V2)) {
        const nl::attrs r = lgr.nested(SMC_NLA_LGR_R_V2, layout_of(lgr_r_v2_policy));
        if (auto d = r.u8(SMC_NLA_LGR_R_V2_DIRECT))
            v2.direct = *d != 0;
        v2.max_conns = r.u8(SMC_NLA_LGR_R_V2_MAX_CONNS);
        v2.max_links = r.u8(SMC_NLA_LGR_R_V2_MAX_LINKS);
    }
    return v2;
}

LinkGroup decode_lgr(const nl::attrs& top) {
    const nl::attrs a = top.nested(SMC_GEN_LGR_SMCR, layout_of(lgr_r_policy));
    LinkGroup g;
    g.id = a.u32(SMC_NLA_LGR_R_ID).value_or(0);
    g.role = a.u8(SMC_NLA_LGR_R_ROLE).value_or(0);
    g.type = a.u8(SMC_NLA_LGR_R_TYPE).value_or(0);
    g.pnetid = trim_blanks(a.str(SMC_NLA_LGR_R_PNETID).value_or(""));
    g.vlan = a.u8(SMC_NLA_LGR_R_VLAN_ID).value_or(0);
    g.conns = a.u32(SMC_NLA_LGR_R_CONNS_NUM).value_or(0);
    g.net_cookie = a.u64(SMC_NLA_LGR_R_NET_COOKIE);
    g.buf_type = a.u8(SMC_NLA_LGR_R_BUF_TYPE);
    g.sndbuf_alloc = a.uint(SMC_NLA_LGR_R_SNDBUF_ALLOC);
    g.rmb_alloc = a.uint(SMC_NLA_LGR_R_RMB_ALLOC);
    if (a.has(SMC_NLA_LGR_R_V2_COMMON) || a.has(SMC_NLA_LGR_R_V2))
        g.v2 = decode_lgr_v2(a);
    return g;
}

Link decode_link(const nl::attrs& top) {
    const nl::attrs a = top.nested(SMC_GEN_LINK_SMCR, layout_of(link_policy));
    Link l;
    l.id = a.u8(SMC_NLA_LINK_ID).value_or(0);
    l.ibdev = a.str(SMC_NLA_LINK_IB_DEV).value_or("");
    l.ibport = a.u8(SMC_NLA_LINK_IB_PORT).value_or(0);
    l.gid = a.str(SMC_NLA_LINK_GID).value_or("");
    l.peer_gid = a.str(SMC_NLA_LINK_PEER_GID).value_or("");
    l.conns = a.u32(SMC_NLA_LINK_CONN_CNT).value_or(0);
    l.netdev_ifindex = a.u32(SMC_NLA_LINK_NET_DEV).value_or(0);
    l.uid = a.u32(SMC_NLA_LINK_UID).value_or(0);
    l.peer_uid = a.u32(SMC_NLA_LINK_PEER_UID).value_or(0);
    l.state = a.u32(SMC_NLA_LINK_STATE).value_or(0);
    return l;
}

void decode_port(const nl::attrs& dev, int type, std::uint8_t number, Device& d) {
    if (!dev.has(type))
        return;
    const nl::attrs a = dev.nested(type, layout_of(dev_port_policy));
    DevicePort p;
    p.number = number;
    p.pnetid = trim_blanks(a.str(SMC_NLA_DEV_PORT_PNETID).value_or(""));
    p.pnetid_by_user = a.u8(SMC_NLA_DEV_PORT_PNET_USR).value_or(0) != 0;
    p.netdev_ifindex = a.u32(SMC_NLA_DEV_PORT_NETDEV).value_or(0);
    p.active = a.u8(SMC_NLA_DEV_PORT_STATE).value_or(0) != 0;
    p.valid = a.u8(SMC_NLA_DEV_PORT_VALID).value_or(0) != 0;
    p.links = a.u32(SMC_NLA_DEV_PORT_LNK_CNT).value_or(0);
    d.ports.push_back(std::move(p));
}

} // namespace

namespace wire {

PnetEntry decode_pnet_entry(nlmsghdr* hdr) {
    const nl::attrs a = nl::attrs::parse(hdr, layout_of(pnet_policy));
    PnetEntry e;
    auto name = a.str(SMC_PNETID_NAME);
    if (!name)
        throw nl::malformed_reply("PNET entry without a name");
    e.pnetid = trim_blanks(*name);
    e.eth = unless_na(a.str(SMC_PNETID_ETHNAME));
    e.ib = unless_na(a.str(SMC_PNETID_IBNAME));
    if (auto port = a.u8(SMC_PNETID_IBPORT); port && *port != 0xff && !e.ib.empty())
        e.port = *port;
    return e;
}

std::optional<std::string> decode_ueid(nlmsghdr* hdr) {
    const nl::attrs a = nl::attrs::parse(hdr, layout_of(eid_policy));
    auto eid = a.str(SMC_NLA_EID_TABLE_ENTRY);
    if (!eid)
        return std::nullopt;
    return trim_blanks(*eid);
}

void decode_sys_info(nlmsghdr* hdr, SysInfo& out) {
    const nl::attrs top = nl::attrs::parse(hdr, layout_of(gen_policy));
    if (!top.has(SMC_GEN_SYS_INFO))
        return;
    const nl::attrs a = top.nested(SMC_GEN_SYS_INFO, layout_of(sys_policy));
    out.version = a.u8(SMC_NLA_SYS_VER);
    out.release = a.u8(SMC_NLA_SYS_REL);
    if (auto v = a.u8(SMC_NLA_SYS_IS_ISM_V2))
        out.ism_v2 = *v != 0;
    if (auto v = a.u8(SMC_NLA_SYS_IS_SMCR_V2))
        out.smcr_v2 = *v != 0;
    out.hostname = trim_blanks(a.str(SMC_NLA_SYS_LOCAL_HOST).value_or(""));
    out.seid = trim_blanks(a.str(SMC_NLA_SYS_SEID).value_or(""));
}

void decode_stats(nlmsghdr* hdr, Stats& out) {
    const nl::attrs top = nl::attrs::parse(hdr, layout_of(gen_policy));
    if (!top.has(SMC_GEN_STATS))
        throw nl::malformed_reply("statistics reply without SMC_GEN_STATS");
    const nl::attrs a = top.nested(SMC_GEN_STATS, layout_of(stats_policy));
    decode_tech(a, SMC_NLA_STATS_SMCR_TECH, out.smcr);
    decode_tech(a, SMC_NLA_STATS_SMCD_TECH, out.smcd);
    out.clnt_hs_err = a.u64_or0(SMC_NLA_STATS_CLNT_HS_ERR_CNT);
    out.srv_hs_err = a.u64_or0(SMC_NLA_STATS_SRV_HS_ERR_CNT);
}

void decode_fback_stats(nlmsghdr* hdr, Stats& out) {
    const nl::attrs top = nl::attrs::parse(hdr, layout_of(gen_policy));
    if (!top.has(SMC_GEN_FBACK_STATS))
        return;
    const nl::attrs a = top.nested(SMC_GEN_FBACK_STATS, layout_of(fback_policy));
    if (auto v = a.u64(SMC_NLA_FBACK_STATS_SRV_CNT))
        out.srv_fallback = *v;
    if (auto v = a.u64(SMC_NLA_FBACK_STATS_CLNT_CNT))
        out.clnt_fallback = *v;
    auto code = a.u32(SMC_NLA_FBACK_STATS_RSN_CODE);
    if (!code || *code == 0)
        return;
    const bool server = a.u8(SMC_NLA_FBACK_STATS_TYPE).value_or(0) != 0;
    auto& list = server ? out.srv_reasons : out.clnt_reasons;
    list.push_back({*code, a.u16(SMC_NLA_FBACK_STATS_RSN_CNT).value_or(0)});
}

void decode_lgr_smcr(nlmsghdr* hdr, LinkGroupTable& out) {
    const nl::attrs top = nl::attrs::parse(hdr, layout_of(gen_policy));
    if (top.has(SMC_GEN_LGR_SMCR))
        out.groups.push_back(decode_lgr(top));
    if (top.has(SMC_GEN_LINK_SMCR)) {
        if (out.groups.empty())
            throw nl::malformed_reply("link without a link group before it");
        out.groups.back().links.push_back(decode_link(top));
    }
}

} // namespace wire

namespace {

// One device of a GET_DEV_SMCR or GET_DEV_SMCD reply: top-level nest `type`.
std::optional<Device> decode_dev(nlmsghdr* hdr, int type) {
    const nl::attrs top = nl::attrs::parse(hdr, layout_of(gen_policy));
    if (!top.has(type))
        return std::nullopt;
    const nl::attrs a = top.nested(type, layout_of(dev_policy));
    Device d;
    d.ibdev = a.str(SMC_NLA_DEV_IB_NAME).value_or("");
    d.critical = a.u8(SMC_NLA_DEV_IS_CRIT).value_or(0) != 0;
    d.use_cnt = a.u32(SMC_NLA_DEV_USE_CNT);
    if (a.has(SMC_NLA_DEV_PCI_FID) || a.has(SMC_NLA_DEV_PCI_ID)) {
        PciInfo pci;
        pci.fid = a.u32(SMC_NLA_DEV_PCI_FID).value_or(0);
        pci.chid = a.u16(SMC_NLA_DEV_PCI_CHID).value_or(0);
        pci.vendor = a.u16(SMC_NLA_DEV_PCI_VENDOR).value_or(0);
        pci.device = a.u16(SMC_NLA_DEV_PCI_DEVICE).value_or(0);
        pci.id = a.str(SMC_NLA_DEV_PCI_ID).value_or("");
        d.pci = std::move(pci);
    }
    decode_port(a, SMC_NLA_DEV_PORT, 1, d);
    decode_port(a, SMC_NLA_DEV_PORT2, 2, d);
    return d;
}

} // namespace

namespace wire {

std::optional<Device> decode_dev_smcr(nlmsghdr* hdr) {
    return decode_dev(hdr, SMC_GEN_DEV_SMCR);
}

std::optional<Device> decode_dev_smcd(nlmsghdr* hdr) {
    return decode_dev(hdr, SMC_GEN_DEV_SMCD);
}

void decode_lgr_smcd(nlmsghdr* hdr, SmcdLinkGroupTable& out) {
    const nl::attrs top = nl::attrs::parse(hdr, layout_of(gen_policy));
    if (!top.has(SMC_GEN_LGR_SMCD))
        return;
    const nl::attrs a = top.nested(SMC_GEN_LGR_SMCD, layout_of(lgr_d_policy));
    SmcdLinkGroup g;
    g.id = a.u32(SMC_NLA_LGR_D_ID).value_or(0);
    g.gid = a.u64(SMC_NLA_LGR_D_GID).value_or(0);
    g.peer_gid = a.u64(SMC_NLA_LGR_D_PEER_GID).value_or(0);
    g.gid_ext = a.u64(SMC_NLA_LGR_D_EXT_GID);
    g.peer_gid_ext = a.u64(SMC_NLA_LGR_D_PEER_EXT_GID);
    g.vlan = a.u8(SMC_NLA_LGR_D_VLAN_ID).value_or(0);
    g.conns = a.u32(SMC_NLA_LGR_D_CONNS_NUM).value_or(0);
    g.pnetid = trim_blanks(a.str(SMC_NLA_LGR_D_PNETID).value_or(""));
    g.chid = a.u16(SMC_NLA_LGR_D_CHID);
    g.sndbuf_alloc = a.uint(SMC_NLA_LGR_D_SNDBUF_ALLOC);
    g.dmb_alloc = a.uint(SMC_NLA_LGR_D_DMB_ALLOC);
    if (a.has(SMC_NLA_LGR_D_V2_COMMON)) {
        LgrV2 v2;
        decode_v2_common(a, SMC_NLA_LGR_D_V2_COMMON, v2);
        g.v2 = std::move(v2);
    }
    out.groups.push_back(std::move(g));
}

void decode_seid(nlmsghdr* hdr, SeidInfo& out) {
    const nl::attrs a = nl::attrs::parse(hdr, layout_of(seid_policy));
    out.seid = trim_blanks(a.str(SMC_NLA_SEID_ENTRY).value_or(""));
    if (auto e = a.u8(SMC_NLA_SEID_ENABLED); e && !out.seid.empty())
        out.enabled = *e != 0;
    else
        out.enabled.reset();
}

} // namespace wire

std::string ifname_of(std::uint32_t ifindex) {
    if (ifindex == 0)
        return {};
    char buf[IF_NAMESIZE + 1] = {};
    if (if_indextoname(ifindex, buf))
        return buf;
    return "#" + std::to_string(ifindex);
}

int Client::gen_family() {
    if (!gen_id_)
        gen_id_ = sk_.resolve(SMC_GENL_FAMILY_NAME);
    return *gen_id_;
}

int Client::pnet_family() {
    if (!pnet_id_)
        pnet_id_ = sk_.resolve(SMCR_GENL_FAMILY_NAME);
    return *pnet_id_;
}

PnetTable Client::pnet_show(const std::optional<std::string>& pnetid) {
    PnetTable table;
    // A name turns the dump into a filtered query answered by a multi-part reply.
    nl::message req(pnet_family(), SMC_PNETID_GET, SMCR_GENL_FAMILY_VERSION,
                    pnetid ? nl::reply_kind::multi : nl::reply_kind::dump);
    if (pnetid)
        req.put_string(SMC_PNETID_NAME, *pnetid);
    sk_.transact(req, [&](nlmsghdr* h) { table.entries.push_back(wire::decode_pnet_entry(h)); });
    return table;
}

void Client::pnet_add(const std::string& pnetid, const std::optional<std::string>& eth,
                      const std::optional<std::string>& ib, std::uint8_t port) {
    nl::message req(pnet_family(), SMC_PNETID_ADD, SMCR_GENL_FAMILY_VERSION, nl::reply_kind::ack);
    req.put_string(SMC_PNETID_NAME, pnetid);
    if (eth)
        req.put_string(SMC_PNETID_ETHNAME, *eth);
    if (ib) {
        req.put_string(SMC_PNETID_IBNAME, *ib);
        req.put_u8(SMC_PNETID_IBPORT, port);
    }
    sk_.transact(req, [](nlmsghdr*) {});
}

void Client::pnet_del(const std::string& pnetid) {
    nl::message req(pnet_family(), SMC_PNETID_DEL, SMCR_GENL_FAMILY_VERSION, nl::reply_kind::ack);
    req.put_string(SMC_PNETID_NAME, pnetid);
    sk_.transact(req, [](nlmsghdr*) {});
}

void Client::pnet_flush() {
    nl::message req(pnet_family(), SMC_PNETID_FLUSH, SMCR_GENL_FAMILY_VERSION, nl::reply_kind::ack);
    try {
        sk_.transact(req, [](nlmsghdr*) {});
    } catch (const nl::error& e) {
        // Some kernels answer ENOENT when flushing an empty table: that is success.
        if (e.errno_value() != ENOENT)
            throw;
    }
}

UeidTable Client::ueid_show() {
    UeidTable t;
    nl::message req(gen_family(), SMC_NETLINK_DUMP_UEID, SMC_GENL_FAMILY_VERSION,
                    nl::reply_kind::dump);
    sk_.transact(req, [&](nlmsghdr* h) {
        if (auto eid = wire::decode_ueid(h))
            t.eids.push_back(std::move(*eid));
    });
    return t;
}

void Client::ueid_add(const std::string& eid) {
    nl::message req(gen_family(), SMC_NETLINK_ADD_UEID, SMC_GENL_FAMILY_VERSION,
                    nl::reply_kind::ack);
    req.put_string(SMC_NLA_EID_TABLE_ENTRY, eid);
    sk_.transact(req, [](nlmsghdr*) {});
}

bool Client::ueid_del(const std::string& eid) {
    nl::message req(gen_family(), SMC_NETLINK_REMOVE_UEID, SMC_GENL_FAMILY_VERSION,
                    nl::reply_kind::ack);
    req.put_string(SMC_NLA_EID_TABLE_ENTRY, eid);
    try {
        sk_.transact(req, [](nlmsghdr*) {});
    } catch (const nl::error& e) {
        if (e.errno_value() == EAGAIN)
            return true;
        throw;
    }
    return false;
}

void Client::ueid_flush() {
    nl::message req(gen_family(), SMC_NETLINK_FLUSH_UEID, SMC_GENL_FAMILY_VERSION,
                    nl::reply_kind::ack);
    sk_.transact(req, [](nlmsghdr*) {});
}

SysInfo Client::info() {
    SysInfo info;
    nl::message req(gen_family(), SMC_NETLINK_GET_SYS_INFO, SMC_GENL_FAMILY_VERSION,
                    nl::reply_kind::dump);
    sk_.transact(req, [&](nlmsghdr* h) { wire::decode_sys_info(h, info); });
    info.ueids = ueid_show().eids;

    // Device counts are a courtesy: an error here does not spoil the rest.
    auto count = [&](std::uint8_t cmd) -> std::optional<std::size_t> {
        try {
            std::size_t n = 0;
            nl::message dev(gen_family(), cmd, SMC_GENL_FAMILY_VERSION, nl::reply_kind::dump);
            sk_.transact(dev, [&](nlmsghdr*) { ++n; });
            return n;
        } catch (const nl::error&) {
            return std::nullopt;
        }
    };
    info.smcr_devices = count(SMC_NETLINK_GET_DEV_SMCR);
    info.smcd_devices = count(SMC_NETLINK_GET_DEV_SMCD);
    return info;
}

LinkGroupTable Client::linkgroups(bool links) {
    LinkGroupTable t;
    t.with_links = links;
    nl::message req(gen_family(), links ? SMC_NETLINK_GET_LINK_SMCR : SMC_NETLINK_GET_LGR_SMCR,
                    SMC_GENL_FAMILY_VERSION, nl::reply_kind::dump);
    sk_.transact(req, [&](nlmsghdr* h) { wire::decode_lgr_smcr(h, t); });
    for (auto& g : t.groups)
        for (auto& l : g.links)
            l.netdev = ifname_of(l.netdev_ifindex);
    return t;
}

std::vector<Device> Client::devices(std::uint8_t cmd, std::optional<Device> (*decode)(nlmsghdr*)) {
    std::vector<Device> devs;
    nl::message req(gen_family(), cmd, SMC_GENL_FAMILY_VERSION, nl::reply_kind::dump);
    sk_.transact(req, [&](nlmsghdr* h) {
        if (auto d = decode(h))
            devs.push_back(std::move(*d));
    });
    for (auto& d : devs)
        for (auto& p : d.ports)
            p.netdev = ifname_of(p.netdev_ifindex);
    return devs;
}

DeviceTable Client::smcr_devices() {
    return DeviceTable{devices(SMC_NETLINK_GET_DEV_SMCR, wire::decode_dev_smcr)};
}

SmcdDeviceTable Client::smcd_devices() {
    return SmcdDeviceTable{devices(SMC_NETLINK_GET_DEV_SMCD, wire::decode_dev_smcd)};
}

SmcdLinkGroupTable Client::smcd_linkgroups() {
    SmcdLinkGroupTable t;
    nl::message req(gen_family(), SMC_NETLINK_GET_LGR_SMCD, SMC_GENL_FAMILY_VERSION,
                    nl::reply_kind::dump);
    sk_.transact(req, [&](nlmsghdr* h) { wire::decode_lgr_smcd(h, t); });
    return t;
}

SeidInfo Client::seid() {
    SeidInfo s;
    nl::message req(gen_family(), SMC_NETLINK_DUMP_SEID, SMC_GENL_FAMILY_VERSION,
                    nl::reply_kind::dump);
    sk_.transact(req, [&](nlmsghdr* h) { wire::decode_seid(h, s); });
    return s;
}

void Client::seid_set(bool enable) {
    nl::message req(gen_family(), enable ? SMC_NETLINK_ENABLE_SEID : SMC_NETLINK_DISABLE_SEID,
                    SMC_GENL_FAMILY_VERSION, nl::reply_kind::ack);
    sk_.transact(req, [](nlmsghdr*) {});
}

Stats Client::stats() {
    Stats s;
    nl::message req(gen_family(), SMC_NETLINK_GET_STATS, SMC_GENL_FAMILY_VERSION,
                    nl::reply_kind::dump);
    sk_.transact(req, [&](nlmsghdr* h) { wire::decode_stats(h, s); });
    nl::message fb(gen_family(), SMC_NETLINK_GET_FBACK_STATS, SMC_GENL_FAMILY_VERSION,
                   nl::reply_kind::dump);
    sk_.transact(fb, [&](nlmsghdr* h) { wire::decode_fback_stats(h, s); });
    return s;
}

} // namespace smcctl
