// SPDX-License-Identifier: GPL-2.0
// AF_SMC sockets through sock_diag (NETLINK_SOCK_DIAG, the smc_diag module): the request,
// the decoding of its replies, and the IPv4/IPv6 question the replies leave open.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <linux/sock_diag.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstring>
#include <fstream>
#include <sstream>

#include "client.hpp"
#include "uapi/linux/smc_diag.h"

#ifndef AF_SMC
#define AF_SMC 43
#endif

namespace smcctl {

namespace {

constexpr int tcp_listen_state = 10; // TCP_LISTEN

using nl::policy_table;

// Extension structs are checked for a minimum length only: a newer kernel may append
// fields, an older one may send a shorter SMC-D struct (without the extended GIDs).
constexpr auto diag_policy = [] {
    policy_table<SMC_DIAG_MAX + 1> t{};
    t[SMC_DIAG_CONNINFO] = {NLA_UNSPEC, sizeof(smc_diag_conninfo), 0};
    t[SMC_DIAG_LGRINFO] = {NLA_UNSPEC, sizeof(smc_diag_lgrinfo), 0};
    t[SMC_DIAG_SHUTDOWN] = {NLA_U8, 0, 0};
    t[SMC_DIAG_DMBINFO] = {NLA_UNSPEC, offsetof(smcd_diag_dmbinfo, peer_gid_ext), 0};
    t[SMC_DIAG_FALLBACK] = {NLA_UNSPEC, sizeof(smc_diag_fallback), 0};
    return t;
}();

constexpr nl::layout diag_layout{SMC_DIAG_MAX, diag_policy.data()};

// The attribute's struct; bytes the kernel did not send stay zero.
template <typename T> std::optional<T> read_struct(const nl::attrs& a, int type) {
    auto b = a.bytes(type);
    if (!b)
        return std::nullopt;
    T v;
    std::memset(&v, 0, sizeof(v));
    std::memcpy(&v, b->data(), std::min(b->size(), sizeof(v)));
    return v;
}

// A NUL-terminated char array of fixed size, as a string.
template <std::size_t N> std::string fixed_string(const __u8 (&a)[N]) {
    const auto* p = reinterpret_cast<const char*>(a);
    return std::string(p, strnlen(p, N));
}

Cursor cursor(const smc_diag_cursor& c) {
    return Cursor{c.wrap, c.count};
}

std::string address_text(int af, const __be32 (&words)[4]) {
    char buf[INET6_ADDRSTRLEN] = {};
    if (!inet_ntop(af, words, buf, sizeof(buf)))
        return "?";
    return buf;
}

bool all_zero(const __be32* w, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i)
        if (w[i] != 0)
            return false;
    return true;
}

// IPv4 or IPv6.  Sockets made with socket(AF_INET[6], SOCK_STREAM, IPPROTO_SMC) report their
// family; AF_SMC sockets report AF_SMC for both protocols, with an IPv4 address in word 0
// only.  Anything in words 1-3 is IPv6; all-zero addresses (unbound or listening on the
// wildcard) are IPv6 when an IPv6 TCP listener (the CLC socket) holds the same port.
int ip_version_of(const smc_diag_msg& m, const wire::V6Ports* v6_listeners) {
    if (m.diag_family == AF_INET6)
        return 6;
    if (m.diag_family == AF_INET)
        return 4;
    if (!all_zero(m.id.idiag_src + 1, 3) || !all_zero(m.id.idiag_dst + 1, 3))
        return 6;
    if (m.id.idiag_src[0] == 0 && m.id.idiag_dst[0] == 0 && v6_listeners &&
        v6_listeners->count(ntohs(m.id.idiag_sport)))
        return 6;
    return 4;
}

} // namespace

namespace wire {

std::uint8_t diag_ext_bit(int ext) {
    return static_cast<std::uint8_t>(1u << (ext - 1));
}

SmcSocket decode_smc_sock(nlmsghdr* hdr, const V6Ports* v6_listeners) {
    if (nlmsg_datalen(hdr) < static_cast<int>(sizeof(smc_diag_msg)))
        throw nl::malformed_reply("sock_diag message shorter than struct smc_diag_msg");
    smc_diag_msg m;
    std::memcpy(&m, nlmsg_data(hdr), sizeof(m));
    const nl::attrs a = nl::attrs::parse_after(hdr, sizeof(smc_diag_msg), diag_layout);

    SmcSocket s;
    s.ip_version = ip_version_of(m, v6_listeners);
    const int af = s.ip_version == 6 ? AF_INET6 : AF_INET;
    s.state = m.diag_state;
    s.mode = m.diag_mode;
    s.shutdown = a.u8(SMC_DIAG_SHUTDOWN).value_or(m.diag_shutdown);
    s.local_addr = address_text(af, m.id.idiag_src);
    s.local_port = ntohs(m.id.idiag_sport);
    s.peer_addr = address_text(af, m.id.idiag_dst);
    s.peer_port = ntohs(m.id.idiag_dport);
    s.ifindex = m.id.idiag_if;
    s.uid = m.diag_uid;
    s.inode = m.diag_inode;
    s.cookie = static_cast<std::uint64_t>(m.id.idiag_cookie[0]) |
               static_cast<std::uint64_t>(m.id.idiag_cookie[1]) << 32;

    if (auto f = read_struct<smc_diag_fallback>(a, SMC_DIAG_FALLBACK))
        s.fallback = FallbackInfo{f->reason, f->peer_diagnosis};
    if (auto c = read_struct<smc_diag_conninfo>(a, SMC_DIAG_CONNINFO)) {
        ConnInfo ci;
        ci.token = c->token;
        ci.sndbuf_size = c->sndbuf_size;
        ci.rmbe_size = c->rmbe_size;
        ci.peer_rmbe_size = c->peer_rmbe_size;
        ci.rx_prod = cursor(c->rx_prod);
        ci.rx_cons = cursor(c->rx_cons);
        ci.tx_prod = cursor(c->tx_prod);
        ci.tx_cons = cursor(c->tx_cons);
        ci.rx_prod_flags = c->rx_prod_flags;
        ci.rx_conn_state_flags = c->rx_conn_state_flags;
        ci.tx_prod_flags = c->tx_prod_flags;
        ci.tx_conn_state_flags = c->tx_conn_state_flags;
        ci.tx_prep = cursor(c->tx_prep);
        ci.tx_sent = cursor(c->tx_sent);
        ci.tx_fin = cursor(c->tx_fin);
        s.conn = ci;
    }
    if (auto l = read_struct<smc_diag_lgrinfo>(a, SMC_DIAG_LGRINFO)) {
        LinkInfo li;
        li.role = l->role;
        li.link_id = l->lnk[0].link_id;
        li.ibdev = fixed_string(l->lnk[0].ibname);
        li.ibport = l->lnk[0].ibport;
        li.gid = fixed_string(l->lnk[0].gid);
        li.peer_gid = fixed_string(l->lnk[0].peer_gid);
        s.link = std::move(li);
    }
    if (auto d = read_struct<smcd_diag_dmbinfo>(a, SMC_DIAG_DMBINFO)) {
        s.dmb = DmbInfo{d->linkid,     d->peer_gid,     d->my_gid,    d->token,
                        d->peer_token, d->peer_gid_ext, d->my_gid_ext};
    }
    return s;
}

std::uint16_t decode_inet_diag_port(nlmsghdr* hdr) {
    if (nlmsg_datalen(hdr) < static_cast<int>(sizeof(inet_diag_msg)))
        throw nl::malformed_reply("inet_diag message shorter than struct inet_diag_msg");
    inet_diag_msg m;
    std::memcpy(&m, nlmsg_data(hdr), sizeof(m));
    return ntohs(m.id.idiag_sport);
}

V6Ports listen_ports_from_proc(std::istream& in) {
    V6Ports ports;
    std::string line;
    std::getline(in, line); // header
    while (std::getline(in, line)) {
        std::istringstream f(line);
        std::string slot, local, remote, state;
        if (!(f >> slot >> local >> remote >> state))
            continue;
        const auto colon = local.rfind(':');
        if (state != "0A" || colon == std::string::npos)
            continue;
        try {
            ports.insert(
                static_cast<std::uint16_t>(std::stoul(local.substr(colon + 1), nullptr, 16)));
        } catch (const std::exception&) {
        }
    }
    return ports;
}

} // namespace wire

DiagClient::DiagClient() : sk_(NETLINK_SOCK_DIAG) {}

wire::V6Ports DiagClient::v6_listeners() {
    wire::V6Ports ports;
    inet_diag_req_v2 req{};
    req.sdiag_family = AF_INET6;
    req.sdiag_protocol = IPPROTO_TCP;
    req.idiag_states = 1u << tcp_listen_state;
    try {
        auto msg = nl::message::raw(SOCK_DIAG_BY_FAMILY, &req, sizeof(req), nl::reply_kind::dump);
        sk_.transact(msg, [&](nlmsghdr* h) { ports.insert(wire::decode_inet_diag_port(h)); });
        return ports;
    } catch (const nl::error&) {
        // inet_diag not loaded and not loadable: the procfs listing has the same answer.
    }
    std::ifstream proc("/proc/net/tcp6");
    return wire::listen_ports_from_proc(proc); // no IPv6: empty, wildcards show as IPv4
}

SocketTable DiagClient::sockets(std::uint8_t ext) {
    // Asked first, so that every socket can be decoded as it arrives.
    const wire::V6Ports v6 = v6_listeners();
    smc_diag_req req{};
    req.diag_family = AF_SMC;
    req.diag_ext = ext;
    SocketTable t;
    auto msg = nl::message::raw(SOCK_DIAG_BY_FAMILY, &req, sizeof(req), nl::reply_kind::dump);
    sk_.transact(msg, [&](nlmsghdr* h) { t.sockets.push_back(wire::decode_smc_sock(h, &v6)); });
    for (auto& s : t.sockets)
        s.ifname = ifname_of(s.ifindex);
    return t;
}

} // namespace smcctl
