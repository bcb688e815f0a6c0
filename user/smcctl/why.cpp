// SPDX-License-Identifier: GPL-2.0
#include "why.hpp"

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <ctime>
#include <sstream>
#include <stdexcept>

#include <arpa/inet.h>

#include "addr.hpp"
#include "json.hpp"
#include "names.hpp"
#include "smcx_family.hpp"
#include "uapi/linux/smcx.h"

namespace smcctl {

namespace {

// ---- decoding ---------------------------------------------------------------------------

using nl::layout_of;
using nl::pol;
using nl::policy_table;

constexpr auto msg_policy = [] {
    policy_table<SMCX_HS_MSG_A_MAX + 1> t{};
    for (int a : {SMCX_HS_MSG_A_TYPE, SMCX_HS_MSG_A_OUT, SMCX_HS_MSG_A_VERSION, SMCX_HS_MSG_A_PATH,
                  SMCX_HS_MSG_A_PATH2, SMCX_HS_MSG_A_FIRST})
        t[static_cast<std::size_t>(a)] = pol(NLA_U8);
    t[SMCX_HS_MSG_A_LEN] = pol(NLA_U16);
    t[SMCX_HS_MSG_A_USEC] = pol(NLA_U32);
    t[SMCX_HS_MSG_A_DIAG] = pol(NLA_U32);
    return t;
}();

constexpr auto hs_policy = [] {
    policy_table<SMCX_HS_A_MAX + 1> t{};
    for (int a : {SMCX_HS_A_ROLE, SMCX_HS_A_RESULT, SMCX_HS_A_FAMILY, SMCX_HS_A_SYN_SENT,
                  SMCX_HS_A_SYN_SEEN, SMCX_HS_A_OFFER, SMCX_HS_A_IBPORT, SMCX_HS_A_FIRST,
                  SMCX_HS_A_VERSION, SMCX_HS_A_RELEASE, SMCX_HS_A_MAX_CONNS, SMCX_HS_A_MAX_LINKS,
                  SMCX_HS_A_WWI, SMCX_HS_A_MSGS_LOST})
        t[static_cast<std::size_t>(a)] = pol(NLA_U8);
    for (int a : {SMCX_HS_A_USEC, SMCX_HS_A_REASON, SMCX_HS_A_PEER_REASON, SMCX_HS_A_ERRNO,
                  SMCX_HS_A_UID, SMCX_HS_A_NETNS, SMCX_HS_A_LGR_ID, SMCX_HS_A_POLICY_ID})
        t[static_cast<std::size_t>(a)] = pol(NLA_U32);
    t[SMCX_HS_A_SEQ] = pol(NLA_U64);
    t[SMCX_HS_A_TIME] = pol(NLA_U64);
    t[SMCX_HS_A_LPORT] = pol(NLA_U16);
    t[SMCX_HS_A_PPORT] = pol(NLA_U16);
    for (int a : {SMCX_HS_A_LADDR, SMCX_HS_A_PADDR, SMCX_HS_A_GID, SMCX_HS_A_PEER_GID})
        t[static_cast<std::size_t>(a)] = pol(NLA_UNSPEC, 16);
    for (int a : {SMCX_HS_A_COMM, SMCX_HS_A_PEER_EID, SMCX_HS_A_EID, SMCX_HS_A_DEV})
        t[static_cast<std::size_t>(a)] = pol(NLA_STRING);
    t[SMCX_HS_A_MSG] = pol(NLA_NESTED);
    return t;
}();

constexpr auto peer_policy = [] {
    policy_table<SMCX_PEER_A_MAX + 1> t{};
    t[SMCX_PEER_A_FAMILY] = pol(NLA_U8);
    t[SMCX_PEER_A_ADDR] = pol(NLA_UNSPEC, 16);
    t[SMCX_PEER_A_PORT] = pol(NLA_U16);
    t[SMCX_PEER_A_WHY] = pol(NLA_U8);
    t[SMCX_PEER_A_REASON] = pol(NLA_U32);
    t[SMCX_PEER_A_FAILS] = pol(NLA_U32);
    t[SMCX_PEER_A_CACHED] = pol(NLA_U8);
    t[SMCX_PEER_A_EXPIRES_MS] = pol(NLA_U32);
    t[SMCX_PEER_A_HITS] = pol(NLA_U64);
    return t;
}();

std::string addr16_of(const nl::attrs& a, int type) {
    const auto b = a.bytes(type);
    return b ? addr_text(*b) : std::string();
}

// Every instance of a repeated attribute at the top of a nest (libnl's parse keeps the last).
template <typename F> void each_attr(nlattr* nest, int type, F&& f) {
    nlattr* pos;
    int rem;
    nla_for_each_nested(pos, nest, rem) {
        if (nla_type(pos) == type)
            f(pos);
    }
}

nlattr* find_nest(nlmsghdr* hdr, int type) {
    return nlmsg_find_attr(hdr, GENL_HDRLEN, type);
}

// ---- explaining -------------------------------------------------------------------------

std::string ends(const HsRecord& r) {
    auto ep = [](const std::string& a, std::uint16_t p) {
        const bool v6 = a.find(':') != std::string::npos;
        return (v6 ? "[" + a + "]" : a) + ":" + std::to_string(p);
    };
    std::string l = r.lport ? ep(r.laddr, r.lport) : std::string("(unbound)");
    return (r.server ? "server " : "client ") + l + (r.server ? " <- " : " -> ") +
           ep(r.paddr, r.pport);
}

std::string msg_name(const HsMsg& m) {
    static constexpr std::array<const char*, 5> names = {"message", "Proposal", "Accept", "Confirm",
                                                         "Decline"};
    const char* n = m.type < names.size() ? names[m.type] : "message";
    return std::string(m.out ? "our " : "the peer's ") + n;
}

std::string reason_words(std::uint32_t code) {
    const auto name = decline_name(code);
    const auto text = decline_text(code);
    if (name.empty())
        return hex_code(code);
    return std::string(name) + " (" + std::string(text) + ")";
}

std::string join(const std::vector<std::string>& v) {
    std::string s;
    for (const auto& x : v)
        s += (s.empty() ? "" : ", ") + x;
    return s.empty() ? "none" : s;
}

std::string errno_words(std::uint32_t e) {
    const char* n = e == ETIMEDOUT      ? "ETIMEDOUT"
                    : e == EPROTO       ? "EPROTO"
                    : e == ECONNRESET   ? "ECONNRESET"
                    : e == ECONNREFUSED ? "ECONNREFUSED"
                    : e == ECONNABORTED ? "ECONNABORTED"
                                        : nullptr;
    std::string s = std::strerror(static_cast<int>(e));
    return n ? std::string(n) + ": " + s : s;
}

const HsMsg* last_msg(const HsRecord& r) {
    return r.msgs.empty() ? nullptr : &r.msgs.back();
}

void explain_smc(const HsRecord& r, Explanation& x) {
    const bool d = r.result == HsResult::smcd;
    x.verdict = d ? "SMC-D" : "SMC-R";
    x.step = "Confirm";
    std::ostringstream o;
    o << ends(r) << " is " << x.verdict << " over " << (r.dev.empty() ? "?" : r.dev);
    if (!d)
        o << " port " << unsigned(r.ibport);
    char id[16];
    std::snprintf(id, sizeof(id), "%08x", r.lgr_id);
    o << ", " << (r.first ? "first contact: new link group " : "in link group ") << id << ", SMC v"
      << unsigned(r.version) << "." << unsigned(r.release);
    if (!r.eid.empty())
        o << ", EID " << r.eid;
    if (r.wwi)
        o << ", write with immediate";
    o << "; the handshake took " << r.usec << " us.";
    x.text = o.str();
}

bool shares(const std::vector<std::string>& a, const std::vector<std::string>& b) {
    for (const auto& x : a)
        if (std::find(b.begin(), b.end(), x) != b.end())
            return true;
    return false;
}

// A Decline for "no device" or "no EID": the EIDs tell which, where both sides' are known.
bool eid_decline(std::uint32_t code) {
    return code == 0x03030000 || code == 0x03030008; // NOSMCDEV, NOUEID
}

void explain_tcp(const HsRecord& r, const std::vector<std::string>& ours, Explanation& x) {
    x.verdict = "TCP";
    const HsMsg* last = last_msg(r);
    std::ostringstream o;
    o << ends(r) << " is TCP: ";
    if (r.reason == 0x03ff0001) { // POLICY
        x.step = "scope rule";
        o << "scope rule " << r.policy_id << " says TCP, so no SMC option was sent.";
        x.fix = "smcctl policy list; smcctl policy del " + std::to_string(r.policy_id);
    } else if (r.reason == 0x03ff0002) { // PEERCACHED
        x.step = "peer cache";
        o << "the peer broke an earlier SMC handshake and is in the peer cache, so no SMC "
             "option was sent.";
        x.fix = "smcctl peers; smcctl peers del " + r.paddr + ":" + std::to_string(r.pport) +
                " (or wait until the entry expires, net.smc.smcx_peer_ttl)";
    } else if (r.reason == 0x03010000) { // PEERNOSMC
        x.step = r.server ? "SYN" : "SYN-ACK";
        if (r.server)
            o << "the client's SYN did not announce SMC: its program does not use SMC.";
        else
            o << "the server's SYN-ACK did not announce SMC: its side does not use SMC (or a "
                 "box in the path strips the option).";
        x.fix = std::string(decline_hint(r.reason)) + (r.server ? " (on the client)" : "");
    } else if (r.reason == 0x05000000) { // PEERDECL
        x.step = "the peer's Decline";
        o << "the peer declined";
        if (r.msgs.size() >= 2)
            o << " after " << msg_name(r.msgs[r.msgs.size() - 2]);
        o << ": " << reason_words(r.peer_reason) << ".";
        x.fix = std::string(decline_hint(r.peer_reason));
        if (eid_decline(r.peer_reason) && !r.server && !r.offer_eids.empty()) {
            o << " A server declines so when it has no RoCE device for the connection or "
                 "shares none of the EIDs our Proposal offered: "
              << join(r.offer_eids) << ".";
            x.fix = "on the peer: smcr ueid add " + r.offer_eids.front() +
                    " (or run smcctl doctor there)";
        }
    } else if (r.reason == 0x04000000 && r.server && r.msgs.empty()) { // SYNCERR
        x.step = "the client's first bytes";
        o << "the client announced SMC in its SYN but sent no CLC message (a program that "
             "speaks first through a box that copied the option, or a stack that fell back "
             "without a word); its bytes went to the application untouched.";
        x.fix = std::string(decline_hint(r.reason));
    } else {
        const bool first = !r.server && !r.msgs.empty() && r.msgs.front().type == 4;
        const HsMsg* before = r.msgs.size() >= 2 ? &r.msgs[r.msgs.size() - 2] : nullptr;
        x.step = first    ? std::string("our Proposal")
                 : before ? "after " + msg_name(*before)
                          : std::string("handshake");
        if (first)
            o << "we had nothing to offer, so a Decline went in place of our Proposal: ";
        else if (last && r.msgs.size() >= 2)
            o << "we declined after " << msg_name(r.msgs[r.msgs.size() - 2]) << ": ";
        else
            o << "we declined: ";
        o << reason_words(r.reason) << ".";
        x.fix = std::string(decline_hint(r.reason));
        if (eid_decline(r.reason) && r.server && !shares(r.offer_eids, ours)) {
            o << " No common EID: the client offered " << join(r.offer_eids) << ", ours are "
              << join(ours) << ".";
            if (!r.offer_eids.empty())
                x.fix = "smcr ueid add " + r.offer_eids.front() +
                        " here, or add one of ours "
                        "on the client";
        }
    }
    x.text = o.str();
}

void explain_failed(const HsRecord& r, Explanation& x) {
    x.verdict = "failed";
    const HsMsg* last = last_msg(r);
    std::ostringstream o;
    o << ends(r) << " failed (" << errno_words(r.err) << "): ";
    if (!last && !r.syn_seen && r.err != ECONNABORTED) {
        x.step = "TCP connect";
        o << "the TCP connection itself did not come up; SMC played no part.";
        x.text = o.str();
        return;
    }
    if (r.err == ECONNABORTED) {
        x.step = last ? "after " + msg_name(*last) : "handshake";
        o << "the application closed the socket (or shut it down) during the handshake.";
        x.text = o.str();
        return;
    }
    const bool proposed =
        !r.server && !r.msgs.empty() && r.msgs.front().type == 1 && r.msgs.front().out;
    const bool after_proposal = proposed && r.msgs.size() == 1;
    const bool echoed = proposed && r.msgs.size() == 2 && r.msgs[1].type == 1 && !r.msgs[1].out;
    x.step = proposed && r.msgs.size() <= 2 ? std::string("the answer to our Proposal")
             : last                         ? "after " + msg_name(*last)
                                            : std::string("handshake");
    if (echoed)
        o << "the peer announced SMC and sent our Proposal back: it echoes the SMC option and "
             "our bytes without speaking SMC (or a box in the path does).";
    else if (after_proposal && r.err == ETIMEDOUT)
        o << "the peer announced SMC but never answered our Proposal.";
    else if (after_proposal && r.err == EPROTO)
        o << "the peer announced SMC but answered our Proposal with bytes that are no CLC "
             "message: it echoes the option without speaking SMC, or a box in the path does.";
    else if (after_proposal && r.err == ECONNRESET)
        o << "the peer announced SMC and reset the connection after our Proposal.";
    else if (r.server)
        o << "the client stopped following the handshake.";
    else
        o << "the SMC setup did not complete; a fallback was no longer possible once our "
             "Proposal was out.";
    x.text = o.str();
    if (!r.server)
        x.fix = "the peer cache offers " + r.paddr + ":" + std::to_string(r.pport) +
                " plain TCP for net.smc.smcx_peer_ttl seconds from now (smcctl peers); fix or "
                "update the peer's SMC stack";
}

std::string time_of(std::uint64_t ns) {
    const std::time_t t = static_cast<std::time_t>(ns / 1000000000ull);
    std::tm tm{};
    gmtime_r(&t, &tm);
    char buf[32];
    std::strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%S", &tm);
    char ms[8];
    std::snprintf(ms, sizeof(ms), ".%03uZ", unsigned((ns / 1000000ull) % 1000));
    return std::string(buf) + ms;
}

std::string offer_words(std::uint8_t o) {
    static constexpr std::array<std::pair<std::uint8_t, const char*>, 6> bits{{
        {SMCX_HS_OFFER_V1, "v1"},
        {SMCX_HS_OFFER_V2, "v2"},
        {SMCX_HS_OFFER_R, "SMC-R"},
        {SMCX_HS_OFFER_D, "SMC-D"},
        {SMCX_HS_OFFER_IPV6, "IPv6"},
        {SMCX_HS_OFFER_WWI, "write-with-immediate"},
    }};
    std::string s;
    for (const auto& [bit, name] : bits)
        if (o & bit)
            s += (s.empty() ? "" : " ") + std::string(name);
    return s;
}

const char* result_name(HsResult r) {
    switch (r) {
    case HsResult::tcp:
        return "TCP";
    case HsResult::smcr:
        return "SMCR";
    case HsResult::smcd:
        return "SMCD";
    case HsResult::failed:
        break;
    }
    return "FAILED";
}

const char* peer_why_name(std::uint8_t why) {
    switch (why) {
    case SMCX_PEER_NOT_CLC:
        return "not-clc";
    case SMCX_PEER_RESET:
        return "reset";
    case SMCX_PEER_SILENT:
        return "silent";
    case SMCX_PEER_DECLINES:
        return "declines";
    default:
        return "?";
    }
}

std::string addr_port(const std::string& a, std::uint16_t p) {
    const bool v6 = a.find(':') != std::string::npos;
    return (v6 ? "[" + a + "]" : a) + ":" + std::to_string(p);
}

// The address and the port of "ADDR", "ADDR:PORT", "[V6]:PORT" or ":PORT", each checked;
// throws std::invalid_argument for either part that is bad.
struct FilterParts {
    std::optional<ParsedAddr> addr;
    std::optional<std::uint16_t> port;
};

FilterParts filter_parts(const std::string& s) {
    const auto split = split_host_port(s);
    if (const auto* e = std::get_if<SplitError>(&split))
        throw std::invalid_argument(
            (*e == SplitError::no_close ? "missing ']' in " : "expected ':PORT' after ']' in ") +
            s);
    const auto& [addr, port] = std::get<HostPort>(split);
    FilterParts f;
    if (!addr.empty()) {
        f.addr = parse_addr(addr);
        if (!f.addr)
            throw std::invalid_argument("not an IP address: " + addr);
    }
    if (port && !port->empty()) {
        std::size_t used = 0;
        unsigned long v = 0;
        try {
            v = std::stoul(*port, &used);
        } catch (const std::exception&) {
            used = 0;
        }
        if (used != port->size() || v == 0 || v > 65535)
            throw std::invalid_argument("not a port (1-65535): " + *port);
        f.port = static_cast<std::uint16_t>(v);
    }
    return f;
}

// "ADDR:PORT" into 16 bytes (v4-mapped for IPv4) and the port.
std::pair<Addr16, std::uint16_t> parse_addr_port(const std::string& s) {
    const FilterParts f = filter_parts(s);
    if (!f.addr || !f.port)
        throw std::invalid_argument("expected ADDR:PORT (an IPv6 address in brackets): " + s);
    return {f.addr->bytes, *f.port};
}

} // namespace

// ---- public -----------------------------------------------------------------------------

Explanation explain(const HsRecord& r, const std::vector<std::string>& our_eids) {
    Explanation x;
    switch (r.result) {
    case HsResult::smcr:
    case HsResult::smcd:
        explain_smc(r, x);
        break;
    case HsResult::tcp:
        explain_tcp(r, our_eids, x);
        break;
    case HsResult::failed:
        explain_failed(r, x);
        break;
    }
    return x;
}

WhyFilter parse_why_filter(const std::string& s) {
    const FilterParts p = filter_parts(s);
    WhyFilter f;
    // the kernel's spelling, so that "::1" and "0::1" match alike
    if (p.addr)
        f.addr = addr_text(p.addr->bytes, p.addr->family);
    f.port = p.port;
    return f;
}

bool WhyFilter::matches(const HsRecord& r) const {
    auto end_is = [&](const std::string& a, std::uint16_t p) {
        return (!addr || *addr == a) && (!port || *port == p);
    };
    return end_is(r.paddr, r.pport) || end_is(r.laddr, r.lport);
}

std::string why_text(const std::vector<HsRecord>& records, bool verbose,
                     const std::vector<std::string>& our_eids) {
    std::ostringstream o;
    if (records.empty())
        o << "No handshake recorded (net.smc.smcx_hs_records is the recorder's size; a user "
             "without CAP_NET_ADMIN sees only their own).\n";
    for (const auto& r : records) {
        const Explanation x = explain(r, our_eids);
        o << time_of(r.time_ns) << "  " << x.verdict << "  (" << (r.comm.empty() ? "?" : r.comm)
          << ", uid " << r.uid << ", decided at: " << x.step << ")\n  " << x.text << '\n';
        if (!x.fix.empty())
            o << "  To change it: " << x.fix << '\n';
        if (verbose) {
            o << "  SYN option: ours " << (r.syn_sent ? "yes" : "no") << ", peer's "
              << (r.syn_seen ? "yes" : "no");
            if (r.offer)
                o << "; Proposal offers " << offer_words(r.offer) << ", EIDs "
                  << join(r.offer_eids);
            o << '\n';
            for (const auto& m : r.msgs) {
                o << "    +" << m.usec << " us  " << (m.out ? "-> " : "<- ") << msg_name(m) << " v"
                  << unsigned(m.version) << ", " << m.len << " bytes"
                  << (m.first ? ", first contact" : "");
                if (m.diag)
                    o << ", " << reason_words(m.diag);
                o << '\n';
            }
            if (r.msgs_lost)
                o << "    (" << r.msgs_lost << " more messages not recorded)\n";
        }
    }
    return o.str();
}

std::string why_json(const std::vector<HsRecord>& records,
                     const std::vector<std::string>& our_eids) {
    std::ostringstream o;
    JsonWriter w(o);
    w.begin_object().key("handshakes").begin_array();
    for (const auto& r : records) {
        const Explanation x = explain(r, our_eids);
        w.begin_object()
            .field("seq", r.seq)
            .field("time", time_of(r.time_ns))
            .field("role", r.server ? "server" : "client")
            .field("result", result_name(r.result))
            .field("step", x.step)
            .field("explanation", x.text)
            .field("fix", x.fix)
            .field("reason", r.reason)
            .field("reason_name", std::string(decline_name(r.reason)))
            .field("peer_reason", r.peer_reason)
            .field("peer_reason_name", std::string(decline_name(r.peer_reason)))
            .field("errno", r.err)
            .field("local", r.laddr)
            .field("local_port", unsigned(r.lport))
            .field("peer", r.paddr)
            .field("peer_port", unsigned(r.pport))
            .field("uid", r.uid)
            .field("comm", r.comm)
            .field("syn_sent", r.syn_sent)
            .field("syn_seen", r.syn_seen)
            .field("offer", offer_words(r.offer));
        w.key("offer_eids").begin_array();
        for (const auto& e : r.offer_eids)
            w.value(e);
        w.end_array();
        w.field("eid", r.eid)
            .field("device", r.dev)
            .field("ib_port", unsigned(r.ibport))
            .field("gid", r.gid)
            .field("peer_gid", r.peer_gid)
            .field("first_contact", r.first)
            .field("lgr_id", r.lgr_id)
            .field("version", unsigned(r.version))
            .field("release", unsigned(r.release))
            .field("max_conns", unsigned(r.max_conns))
            .field("max_links", unsigned(r.max_links))
            .field("write_imm", r.wwi)
            .field("policy_id", r.policy_id)
            .field("usec", r.usec);
        w.key("messages").begin_array();
        for (const auto& m : r.msgs)
            w.begin_object()
                .field("type", unsigned(m.type))
                .field("out", m.out)
                .field("len", unsigned(m.len))
                .field("version", unsigned(m.version))
                .field("path", unsigned(m.path))
                .field("first_contact", m.first)
                .field("usec", m.usec)
                .field("diag", m.diag)
                .end_object();
        w.end_array();
        w.field("messages_lost", r.msgs_lost);
        w.end_object();
    }
    w.end_array().end_object();
    w.finish();
    return o.str();
}

std::string peers_text(const std::vector<PeerEntry>& peers) {
    std::ostringstream o;
    if (peers.empty()) {
        o << "No peer in the cache.\n";
        return o.str();
    }
    char line[256];
    std::snprintf(line, sizeof(line), "%-40s %-9s %-6s %5s %8s %10s  %s\n", "Peer", "Why", "TCP",
                  "Fails", "Hits", "Expires", "Last decline");
    o << line;
    for (const auto& p : peers) {
        std::snprintf(line, sizeof(line), "%-40s %-9s %-6s %5u %8llu %9.1fs  %s\n",
                      addr_port(p.addr, p.port).c_str(), peer_why_name(p.why),
                      p.cached ? "yes" : "no", p.fails, static_cast<unsigned long long>(p.hits),
                      p.expires_ms / 1000.0,
                      p.reason ? std::string(decline_name(p.reason)).c_str() : "-");
        o << line;
    }
    return o.str();
}

std::string peers_json(const std::vector<PeerEntry>& peers) {
    std::ostringstream o;
    JsonWriter w(o);
    w.begin_object().key("peers").begin_array();
    for (const auto& p : peers)
        w.begin_object()
            .field("addr", p.addr)
            .field("port", unsigned(p.port))
            .field("why", peer_why_name(p.why))
            .field("cached", p.cached)
            .field("fails", p.fails)
            .field("hits", p.hits)
            .field("expires_ms", p.expires_ms)
            .field("reason", p.reason)
            .field("reason_name", std::string(decline_name(p.reason)))
            .end_object();
    w.end_array().end_object();
    w.finish();
    return o.str();
}

const HsRecord* record_of(const std::vector<HsRecord>& records, const std::string& laddr,
                          std::uint16_t lport, const std::string& paddr, std::uint16_t pport) {
    for (auto it = records.rbegin(); it != records.rend(); ++it)
        if (it->lport == lport && it->pport == pport && it->laddr == laddr && it->paddr == paddr)
            return &*it;
    return nullptr;
}

namespace wire {

HsRecord decode_hs(nlmsghdr* hdr) {
    const nl::attrs top = nl::attrs::parse(hdr, smcx_top_layout());
    const nl::attrs a = top.nested(SMCX_A_HS, layout_of(hs_policy));
    if (!top.has(SMCX_A_HS))
        throw nl::malformed_reply("SMCX_CMD_HS_GET without SMCX_A_HS");
    HsRecord r;
    r.seq = a.u64_or0(SMCX_HS_A_SEQ);
    r.time_ns = a.u64_or0(SMCX_HS_A_TIME);
    r.usec = a.u32(SMCX_HS_A_USEC).value_or(0);
    r.server = a.u8(SMCX_HS_A_ROLE).value_or(0) == 1;
    r.result = static_cast<HsResult>(a.u8(SMCX_HS_A_RESULT).value_or(3) & 3);
    r.reason = a.u32(SMCX_HS_A_REASON).value_or(0);
    r.peer_reason = a.u32(SMCX_HS_A_PEER_REASON).value_or(0);
    r.err = a.u32(SMCX_HS_A_ERRNO).value_or(0);
    r.laddr = addr16_of(a, SMCX_HS_A_LADDR);
    r.paddr = addr16_of(a, SMCX_HS_A_PADDR);
    r.lport = a.u16(SMCX_HS_A_LPORT).value_or(0);
    r.pport = a.u16(SMCX_HS_A_PPORT).value_or(0);
    r.uid = a.u32(SMCX_HS_A_UID).value_or(0);
    r.comm = a.str(SMCX_HS_A_COMM).value_or("");
    r.syn_sent = a.u8(SMCX_HS_A_SYN_SENT).value_or(0);
    r.syn_seen = a.u8(SMCX_HS_A_SYN_SEEN).value_or(0);
    r.offer = a.u8(SMCX_HS_A_OFFER).value_or(0);
    r.eid = a.str(SMCX_HS_A_EID).value_or("");
    r.dev = a.str(SMCX_HS_A_DEV).value_or("");
    r.ibport = a.u8(SMCX_HS_A_IBPORT).value_or(0);
    r.gid = addr16_of(a, SMCX_HS_A_GID);
    r.peer_gid = addr16_of(a, SMCX_HS_A_PEER_GID);
    r.first = a.u8(SMCX_HS_A_FIRST).value_or(0);
    r.lgr_id = a.u32(SMCX_HS_A_LGR_ID).value_or(0);
    r.version = a.u8(SMCX_HS_A_VERSION).value_or(0);
    r.release = a.u8(SMCX_HS_A_RELEASE).value_or(0);
    r.max_conns = a.u8(SMCX_HS_A_MAX_CONNS).value_or(0);
    r.max_links = a.u8(SMCX_HS_A_MAX_LINKS).value_or(0);
    r.wwi = a.u8(SMCX_HS_A_WWI).value_or(0);
    r.policy_id = a.u32(SMCX_HS_A_POLICY_ID).value_or(0);
    r.msgs_lost = a.u8(SMCX_HS_A_MSGS_LOST).value_or(0);
    // the repeated attributes: walk the nest itself
    nlattr* nest = find_nest(hdr, SMCX_A_HS);
    each_attr(nest, SMCX_HS_A_PEER_EID, [&](nlattr* e) {
        if (nla_len(e) > 0)
            r.offer_eids.emplace_back(static_cast<const char*>(nla_data(e)),
                                      strnlen(static_cast<const char*>(nla_data(e)),
                                              static_cast<std::size_t>(nla_len(e))));
    });
    each_attr(nest, SMCX_HS_A_MSG, [&](nlattr* e) {
        std::array<nlattr*, SMCX_HS_MSG_A_MAX + 1> tb{};
        if (nla_parse_nested(tb.data(), SMCX_HS_MSG_A_MAX, e,
                             const_cast<nla_policy*>(msg_policy.data())) < 0)
            throw nl::malformed_reply("SMCX_HS_A_MSG");
        HsMsg m;
        auto u8 = [&](int t) { return tb[t] ? nla_get_u8(tb[t]) : std::uint8_t(0); };
        m.type = u8(SMCX_HS_MSG_A_TYPE);
        m.out = u8(SMCX_HS_MSG_A_OUT);
        m.len = tb[SMCX_HS_MSG_A_LEN] ? nla_get_u16(tb[SMCX_HS_MSG_A_LEN]) : 0;
        m.version = u8(SMCX_HS_MSG_A_VERSION);
        m.path = u8(SMCX_HS_MSG_A_PATH);
        m.path2 = u8(SMCX_HS_MSG_A_PATH2);
        m.first = u8(SMCX_HS_MSG_A_FIRST);
        m.usec = tb[SMCX_HS_MSG_A_USEC] ? nla_get_u32(tb[SMCX_HS_MSG_A_USEC]) : 0;
        m.diag = tb[SMCX_HS_MSG_A_DIAG] ? nla_get_u32(tb[SMCX_HS_MSG_A_DIAG]) : 0;
        r.msgs.push_back(m);
    });
    return r;
}

PeerEntry decode_peer(nlmsghdr* hdr) {
    const nl::attrs top = nl::attrs::parse(hdr, smcx_top_layout());
    if (!top.has(SMCX_A_PEER))
        throw nl::malformed_reply("SMCX_CMD_PEER_GET without SMCX_A_PEER");
    const nl::attrs a = top.nested(SMCX_A_PEER, layout_of(peer_policy));
    PeerEntry p;
    p.addr = addr16_of(a, SMCX_PEER_A_ADDR);
    p.port = a.u16(SMCX_PEER_A_PORT).value_or(0);
    p.why = a.u8(SMCX_PEER_A_WHY).value_or(0);
    p.reason = a.u32(SMCX_PEER_A_REASON).value_or(0);
    p.fails = a.u32(SMCX_PEER_A_FAILS).value_or(0);
    p.cached = a.u8(SMCX_PEER_A_CACHED).value_or(0);
    p.expires_ms = a.u32(SMCX_PEER_A_EXPIRES_MS).value_or(0);
    p.hits = a.u64_or0(SMCX_PEER_A_HITS);
    return p;
}

} // namespace wire

std::vector<HsRecord> XClient::records() {
    std::vector<HsRecord> v;
    nl::message req = s_.request(SMCX_CMD_HS_GET, nl::reply_kind::dump);
    s_.transact(req, [&](nlmsghdr* h) { v.push_back(wire::decode_hs(h)); });
    return v;
}

void XClient::records_flush() {
    nl::message req = s_.request(SMCX_CMD_HS_FLUSH, nl::reply_kind::ack);
    s_.transact(req, [](nlmsghdr*) {});
}

std::vector<PeerEntry> XClient::peers() {
    std::vector<PeerEntry> v;
    nl::message req = s_.request(SMCX_CMD_PEER_GET, nl::reply_kind::dump);
    s_.transact(req, [&](nlmsghdr* h) { v.push_back(wire::decode_peer(h)); });
    return v;
}

void XClient::peer_del(const std::string& addr_port) {
    const auto [addr, port] = parse_addr_port(addr_port);
    const bool v4 = is_v4_mapped(addr);
    nl::message req = s_.request(SMCX_CMD_PEER_DEL, nl::reply_kind::ack);
    req.begin_nest(SMCX_A_PEER)
        .put_u8(SMCX_PEER_A_FAMILY, v4 ? AF_INET : AF_INET6)
        .put_bytes(SMCX_PEER_A_ADDR, addr)
        .put_u16(SMCX_PEER_A_PORT, port)
        .end_nest();
    s_.transact(req, [](nlmsghdr*) {});
}

void XClient::peers_flush() {
    nl::message req = s_.request(SMCX_CMD_PEER_FLUSH, nl::reply_kind::ack);
    s_.transact(req, [](nlmsghdr*) {});
}

} // namespace smcctl
