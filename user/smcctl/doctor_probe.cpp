// SPDX-License-Identifier: GPL-2.0
// smcctl doctor PEER[:PORT]: a real AF_SMC connection (smc_chk -C's) and what it says.
#include <arpa/inet.h>

#include <stdexcept>

#include "addr.hpp"
#include "chk.hpp"
#include "doctor.hpp"
#include "names.hpp"
#include "why.hpp"

namespace smcctl::doctor {

namespace {

std::uint16_t port_of(std::string_view s) {
    const std::string p(s);
    if (p.empty() || p.size() > 5 || p.find_first_not_of("0123456789") != std::string::npos ||
        std::stoul(p) == 0 || std::stoul(p) > 65535)
        throw std::invalid_argument("invalid port '" + p + "' (1 to 65535)");
    return static_cast<std::uint16_t>(std::stoul(p));
}

std::string code_text(std::uint32_t code) {
    const std::string_view n = decline_name(code), t = decline_text(code);
    return (n.empty() ? std::string("unknown") : std::string(n)) + " (" + hex_code(code) + ")" +
           (t.empty() ? "" : " " + std::string(t));
}

std::string where(const SmcSocket& s) {
    const std::string a = s.ip_version == 6 ? "[" + s.peer_addr + "]" : s.peer_addr;
    return "connection to " + a + ":" + std::to_string(s.peer_port);
}

// The kernel's record of the probe's handshake (smcx's flight recorder, why.hpp): the step
// that decided it and the CLC messages both sides sent, what the peer answered included.
// Nothing under a stack without the recorder (the stock smc.ko).
void enrich_probe_report(CheckResult& r, const chk::Report& report) {
    const SmcSocket& s = report.sock;
    std::vector<HsRecord> recs;
    try {
        recs = XClient().records();
    } catch (const nl::error&) {
        return;
    }
    const HsRecord* rec = record_of(recs, s.local_addr, s.local_port, s.peer_addr, s.peer_port);
    if (!rec)
        return;
    const Explanation x = explain(*rec);
    r.findings.push_back({Level::ok, "handshake decided at " + x.step + ": " + x.text, {}});
    static constexpr const char* types[] = {"?", "Proposal", "Accept", "Confirm", "Decline"};
    std::string clc;
    for (const auto& m : rec->msgs) {
        clc += clc.empty() ? "" : ", ";
        clc += std::string(m.out ? "-> " : "<- ") + types[m.type < 5 ? m.type : 0] + " v" +
               std::to_string(m.version) + " " + std::to_string(m.len) + " B";
        if (m.first)
            clc += " first contact";
        if (m.diag)
            clc += " " + std::string(decline_name(m.diag));
        clc += " +" + std::to_string(m.usec) + " us";
    }
    if (!clc.empty())
        r.findings.push_back({Level::ok, "CLC exchange: " + clc, {}});
}

} // namespace

cmd::ChkConnect parse_peer(std::string_view peer) {
    cmd::ChkConnect c;
    const std::string s(peer);
    if (s.empty())
        throw std::invalid_argument("empty PEER");
    // HOST[:PORT] or [HOST][:PORT]; a bare IPv6 address (two colons or more) is all host
    const auto split = split_host_port(s);
    if (const auto* e = std::get_if<SplitError>(&split))
        throw std::invalid_argument(*e == SplitError::no_close
                                        ? "PEER '" + s + "' lacks its ']'"
                                        : "PEER '" + s + "': ':PORT' expected after ']'");
    const auto& [host, port] = std::get<HostPort>(split);
    c.address = host;
    if (port)
        c.port = port_of(*port);
    if (c.address.empty())
        throw std::invalid_argument("PEER '" + s + "' has no host");
    const auto a = parse_addr(c.address);
    c.ipv6 = a && a->family == AF_INET6;
    return c;
}

std::vector<Finding> judge_probe(const SmcSocket& s) {
    switch (static_cast<SocketMode>(s.mode)) {
    case SocketMode::smcr: {
        std::string text = where(s) + ": SMC-R";
        if (s.link)
            text += " over " + s.link->ibdev + " port " + std::to_string(s.link->ibport) +
                    " (GID " + s.link->gid + ", peer GID " + s.link->peer_gid + ")";
        return {{Level::ok, text, {}}};
    }
    case SocketMode::smcd:
        return {{Level::ok, where(s) + ": SMC-D", {}}};
    case SocketMode::tcp:
        break;
    default:
        return {{Level::warn, where(s) + ": unknown mode " + std::to_string(s.mode),
                 "smc_chk -C " + s.peer_addr + " -p " + std::to_string(s.peer_port) + " -d"}};
    }
    const std::uint32_t reason = s.fallback ? s.fallback->reason : 0;
    const std::uint32_t peer = s.fallback ? s.fallback->peer_diagnosis : 0;
    std::string text = where(s) + ": TCP fallback";
    if (reason)
        text += ", reason " + code_text(reason);
    if (peer)
        text += "; the peer's reason " + code_text(peer);
    const auto a = chk::advice(s);
    return {{Level::fail, text,
             a ? (a->peer ? "on the peer: " : "") + a->hint : std::string("smc_dbg")}};
}

CheckResult probe(const cmd::ChkConnect& peer) {
    CheckResult r{"probe", {}};
    try {
        const chk::Report report = chk::try_connect(peer);
        r.findings = judge_probe(report.sock);
        enrich_probe_report(r, report);
    } catch (const chk::untestable& e) {
        r.findings.push_back({Level::fail, e.what(),
                              "run 'smc_chk -S -p " + std::to_string(peer.port) +
                                  "' on the peer, or name the port of its SMC server"});
    }
    return r;
}

} // namespace smcctl::doctor
