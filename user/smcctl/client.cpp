// SPDX-License-Identifier: GPL-2.0
#include "client.hpp"

#include <array>
#include <cerrno>

#include "names.hpp"
#include "uapi/linux/smc.h"

namespace smcctl {

namespace {

// ---- attribute layouts (libnl policies) -------------------------------------------------

template <std::size_t N> using policy_table = std::array<nla_policy, N>;

constexpr nla_policy pol(std::uint16_t type, std::uint16_t minlen = 0) {
    return nla_policy{type, minlen, 0};
}

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

template <std::size_t N> nl::layout layout_of(const policy_table<N>& t) {
    return nl::layout{static_cast<int>(N) - 1, t.data()};
}

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

} // namespace wire

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
