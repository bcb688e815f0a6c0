// SPDX-License-Identifier: GPL-2.0
#include "names.hpp"

#include <smcx/names.h>

#include <array>
#include <cstdio>
#include <stdexcept>

namespace smcctl {

static_assert(eid_length == SMCX_NAME_EID_LEN);
static_assert(pnetid_max == SMCX_NAME_PNETID_MAX);

namespace {

// The character classes and the EID / PNET ID rules are the kernel's, from <smcx/names.h>.
bool is_blank(char c) {
    return smcx_name_blank(c);
}

std::string printable(char c) {
    if (c >= 0x21 && c < 0x7f)
        return std::string("'") + c + "'";
    char buf[8];
    std::snprintf(buf, sizeof(buf), "0x%02x", static_cast<unsigned char>(c));
    return buf;
}

struct decline_info {
    std::uint32_t code;
    std::string_view name;
    std::string_view text;
    std::string_view hint; // what to do about it, for smc_chk
};

// CLC decline codes (SMC protocol, RFC 7609 and the SMC v2 specification, plus the Linux
// internal ones and smcx's own POLICY and PEERCACHED) as they appear in fallback statistics,
// with a hint for each.
constexpr std::array<decline_info, 38> declines{{
    {0x01010000, "MEMORY", "insufficient memory resources",
     "the SMC stack ran out of memory for buffers: check free memory and net.smc.wmem / "
     "net.smc.rmem"},
    {0x02010000, "TIMEOUT_CL", "timeout waiting for CONFIRM LINK",
     "the RDMA link did not come up: check that the RoCE ports are ACTIVE on both hosts "
     "(smc_rnics) and that RoCE traffic (UDP port 4791 for RoCE v2) passes between them"},
    {0x02020000, "TIMEOUT_AL", "timeout waiting for ADD LINK",
     "the second RDMA link did not come up: check the RoCE ports of both hosts (smc_rnics) and "
     "the path between them"},
    {0x03000000, "CNF_ERR", "configuration error",
     "the SMC configuration does not fit: compare smcr info, smc_pnet and smc_rnics on both "
     "hosts"},
    {0x03010000, "PEER_NO_SMC", "peer did not offer SMC",
     "the peer does not use SMC: run its program under smc_run, or set net.smc.tcp2smc=1 on "
     "its host (smcx)"},
    {0x03020000, "IPSEC", "connection uses IPsec",
     "SMC does not run under IPsec: use SMC on a path without IPsec"},
    {0x03030000, "NOSMCDEV", "no SMC device found",
     "no RDMA device fits the connection's interface: check smc_rnics (a RoCE port ACTIVE on "
     "the interface) and, for the stock smc.ko, smc_pnet"},
    {0x03030001, "NOSMCDDEV", "no SMC-D device found",
     "there is no SMC-D (ISM) device, which exists only on s390: use SMC-R"},
    {0x03030002, "NOSMCRDEV", "no SMC-R device found",
     "no RoCE device for the interface: check smc_rnics (an ACTIVE RoCE port on the "
     "interface) and, for the stock smc.ko, smc_pnet (interface and device under one PNET ID)"},
    {0x03030003, "NOISM2SUPP", "no ISMv2 support",
     "there is no ISMv2 device (s390 only) for SMC-Dv2: use SMC-R"},
    {0x03030004, "NOV2EXT", "peer sent no v2 extension",
     "the peer offered only SMC v1: SMC-Rv2 needs a user EID on both hosts (smcr ueid add) "
     "and a stack with v2 support"},
    {0x03030005, "NOV2DEXT", "peer sent no SMC-Dv2 extension",
     "the peer offered no SMC-Dv2: use SMC-R, or give both hosts ISMv2"},
    {0x03030006, "NOSEID", "peer sent no system EID",
     "SMC-Dv2 needs a system EID, which only ISMv2 hardware provides: use SMC-R"},
    {0x03030007, "NOSMCD2DEV", "no SMC-Dv2 device found",
     "there is no ISMv2 device (s390 only): use SMC-R"},
    {0x03030008, "NOUEID", "no matching user EID",
     "the hosts share no EID: add the same user EID on both (smcr ueid add EID)"},
    {0x03030009, "RELEASEERR", "release negotiation failed",
     "the SMC releases of the two stacks do not agree: update the older one"},
    {0x0303000a, "MAXCONNERR", "max connections negotiation failed",
     "the limits on connections per link group do not agree: compare "
     "net.smc.smcr_max_conns_per_lgr on both hosts"},
    {0x0303000b, "MAXLINKERR", "max links negotiation failed",
     "the limits on links per link group do not agree: compare "
     "net.smc.smcr_max_links_per_lgr on both hosts"},
    {0x03040000, "MODEUNSUPP", "SMC modes do not match",
     "the hosts share no SMC mode (SMC-R/SMC-D, v1/v2): compare smcr info on both hosts"},
    {0x03050000, "RMBE_EC", "peer has eyecatcher in RMBE",
     "the peer's buffers use a layout this stack does not support: update the peer's SMC stack"},
    {0x03060000, "OPTUNSUPP", "socket option not supported",
     "the program set a socket option SMC cannot honour (for example TCP_FASTOPEN): drop it, "
     "or let this connection run over TCP"},
    {0x03070000, "DIFFPREFIX", "IP prefix / subnet mismatch",
     "SMC v1 needs both hosts in one IP subnet: use SMC-Rv2 (a user EID on both hosts), or "
     "put the hosts in one subnet"},
    {0x03080000, "GETVLANERR", "cannot get VLAN id",
     "the VLAN id of the interface could not be read: check the VLAN setup (ip -d link)"},
    {0x03090000, "ISMVLANERR", "cannot register VLAN id on ISM device",
     "the ISM device refused the VLAN id: check the VLAN setup of the ISM device"},
    {0x030a0000, "NOACTLINK", "no active link in link group",
     "the link group has no active link: check the RoCE ports (smc_rnics) and the links "
     "(smcr -d linkgroup link-show)"},
    {0x030b0000, "NOSRVLINK", "server link not found",
     "the server did not find the link the client chose: retry; if it persists, collect "
     "smc_dbg on both hosts"},
    {0x030c0000, "VERSMISMAT", "SMC version mismatch",
     "the hosts share no SMC version: compare smcr info on both hosts"},
    {0x030d0000, "MAX_DMB", "SMC-D DMB limit exceeded",
     "the ISM device has no DMB left: close connections or use SMC-R"},
    {0x030e0000, "NOROUTE", "SMC-Rv2: no route to peer",
     "SMC-Rv2 found no route to the peer over a RoCE interface: check ip route get PEER and "
     "that the route's interface has an ACTIVE RoCE port (smc_rnics)"},
    {0x030f0000, "NOINDIRECT", "SMC-Rv2: indirect route mismatch",
     "one host reaches the other through a gateway and the other directly: make the routes "
     "of both hosts alike (ip route)"},
    {0x03ff0001, "POLICY", "a scope rule chose TCP",
     "a scope rule of this host sends the connection as TCP: smcctl policy list names it, "
     "smcctl policy del ID removes it"},
    {0x03ff0002, "PEERCACHED", "peer cached as breaking SMC",
     "the peer broke an earlier SMC handshake and gets TCP until its entry expires: smcctl "
     "peers shows it, smcctl peers delete ADDR:PORT forgets it"},
    {0x04000000, "SYNCERR", "synchronization error",
     "the peer announced SMC but did not follow the handshake: check the peer's SMC stack "
     "(smc_dbg there)"},
    {0x05000000, "PEERDECL", "peer declined",
     "the peer declined SMC; its reason is the peer diagnosis: look at the peer (smcss, "
     "smcr -d stats there)"},
    {0x09990000, "INTERR", "internal error",
     "the SMC stack failed internally: check the kernel log (dmesg) and collect smc_dbg"},
    {0x09990001, "ERR_RTOK", "rtoken handling failed",
     "exchanging RDMA buffer keys failed: check the kernel log (dmesg) on both hosts"},
    {0x09990002, "ERR_RDYLNK", "link not ready",
     "the link was not ready in time: retry; check the links (smcr -d linkgroup link-show)"},
    {0x09990003, "ERR_REGBUF", "buffer registration failed",
     "registering a buffer with the RDMA device failed: check the kernel log (dmesg) and the "
     "device's resources (rdma resource)"},
}};

const decline_info* find_decline(std::uint32_t code) {
    for (const auto& d : declines)
        if (d.code == code)
            return &d;
    return nullptr;
}

} // namespace

std::string trim_blanks(std::string_view s) {
    std::size_t b = 0, e = s.size();
    while (b < e && is_blank(s[b]))
        ++b;
    while (e > b && is_blank(s[e - 1]))
        --e;
    return std::string(s.substr(b, e - b));
}

std::string normalize_ueid(std::string_view input) {
    const std::string in = trim_blanks(input);
    std::array<std::uint8_t, eid_length> out{};
    std::size_t bad = 0;
    switch (-smcx_ueid_normalize(in.data(), in.size(), out.data(), &bad)) {
    case SMCX_NAME_OK:
        return std::string(out.begin(), out.end());
    case SMCX_NAME_EEMPTY:
        throw std::invalid_argument("invalid user EID: EID is empty");
    case SMCX_NAME_ELONG:
        throw std::invalid_argument("invalid user EID: longer than 32 characters");
    case SMCX_NAME_EFIRST:
        throw std::invalid_argument("invalid user EID: first character must be A-Z or 0-9");
    case SMCX_NAME_EBLANK:
        throw std::invalid_argument(
            "invalid user EID: blanks are only allowed as trailing padding");
    default:
        throw std::invalid_argument("invalid user EID: unsupported character " +
                                    printable(in[bad]) + " (allowed: A-Z, 0-9, '.', '-')");
    }
}

std::string normalize_pnetid(std::string_view input) {
    const std::string in = trim_blanks(input);
    std::array<char, pnetid_max + 1> out{};
    std::size_t bad = 0;
    switch (-smcx_pnetid_normalize(in.data(), in.size(), out.data(), &bad)) {
    case SMCX_NAME_OK:
        return std::string(out.data());
    case SMCX_NAME_EEMPTY:
        throw std::invalid_argument("invalid PNET ID: empty");
    case SMCX_NAME_ELONG:
        throw std::invalid_argument("invalid PNET ID: longer than 16 characters");
    default:
        throw std::invalid_argument("invalid PNET ID: unsupported character " + printable(in[bad]) +
                                    " (allowed: A-Z, a-z, 0-9)");
    }
}

void check_ifname(std::string_view name) {
    if (name.empty() || name.size() > ifname_max)
        throw std::invalid_argument("invalid interface name: must be 1 to 15 characters");
    for (char c : name)
        if (is_blank(c) || c == '/' || c == ':')
            throw std::invalid_argument("invalid interface name: unsupported character " +
                                        printable(c));
}

void check_ibname(std::string_view name) {
    if (name.empty() || name.size() > ibname_max)
        throw std::invalid_argument("invalid device name: must be 1 to 63 characters");
    for (char c : name)
        if (is_blank(c))
            throw std::invalid_argument("invalid device name: blanks are not allowed");
}

std::string_view decline_name(std::uint32_t code) {
    const auto* d = find_decline(code);
    return d ? d->name : std::string_view{};
}

std::string_view decline_text(std::uint32_t code) {
    const auto* d = find_decline(code);
    return d ? d->text : std::string_view{};
}

std::string_view decline_hint(std::uint32_t code) {
    const auto* d = find_decline(code);
    return d ? d->hint : std::string_view{};
}

std::vector<std::uint32_t> decline_codes() {
    std::vector<std::uint32_t> codes;
    for (const auto& d : declines)
        codes.push_back(d.code);
    return codes;
}

std::string hex_code(std::uint32_t code) {
    char buf[16];
    std::snprintf(buf, sizeof(buf), "0x%08x", code);
    return buf;
}

} // namespace smcctl
