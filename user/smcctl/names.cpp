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
};

// CLC decline codes (SMC protocol, RFC 7609 and the SMC v2 specification, plus the Linux
// internal ones) as they appear in fallback statistics.
constexpr std::array<decline_info, 36> declines{{
    {0x01010000, "MEMORY", "insufficient memory resources"},
    {0x02010000, "TIMEOUT_CL", "timeout waiting for CONFIRM LINK"},
    {0x02020000, "TIMEOUT_AL", "timeout waiting for ADD LINK"},
    {0x03000000, "CNF_ERR", "configuration error"},
    {0x03010000, "PEER_NO_SMC", "peer did not offer SMC"},
    {0x03020000, "IPSEC", "connection uses IPsec"},
    {0x03030000, "NOSMCDEV", "no SMC device found"},
    {0x03030001, "NOSMCDDEV", "no SMC-D device found"},
    {0x03030002, "NOSMCRDEV", "no SMC-R device found"},
    {0x03030003, "NOISM2SUPP", "no ISMv2 support"},
    {0x03030004, "NOV2EXT", "peer sent no v2 extension"},
    {0x03030005, "NOV2DEXT", "peer sent no SMC-Dv2 extension"},
    {0x03030006, "NOSEID", "peer sent no system EID"},
    {0x03030007, "NOSMCD2DEV", "no SMC-Dv2 device found"},
    {0x03030008, "NOUEID", "no matching user EID"},
    {0x03030009, "RELEASEERR", "release negotiation failed"},
    {0x0303000a, "MAXCONNERR", "max connections negotiation failed"},
    {0x0303000b, "MAXLINKERR", "max links negotiation failed"},
    {0x03040000, "MODEUNSUPP", "SMC modes do not match"},
    {0x03050000, "RMBE_EC", "peer has eyecatcher in RMBE"},
    {0x03060000, "OPTUNSUPP", "socket option not supported"},
    {0x03070000, "DIFFPREFIX", "IP prefix / subnet mismatch"},
    {0x03080000, "GETVLANERR", "cannot get VLAN id"},
    {0x03090000, "ISMVLANERR", "cannot register VLAN id on ISM device"},
    {0x030a0000, "NOACTLINK", "no active link in link group"},
    {0x030b0000, "NOSRVLINK", "server link not found"},
    {0x030c0000, "VERSMISMAT", "SMC version mismatch"},
    {0x030d0000, "MAX_DMB", "SMC-D DMB limit exceeded"},
    {0x030e0000, "NOROUTE", "SMC-Rv2: no route to peer"},
    {0x030f0000, "NOINDIRECT", "SMC-Rv2: indirect route mismatch"},
    {0x04000000, "SYNCERR", "synchronization error"},
    {0x05000000, "PEERDECL", "peer declined"},
    {0x09990000, "INTERR", "internal error"},
    {0x09990001, "ERR_RTOK", "rtoken handling failed"},
    {0x09990002, "ERR_RDYLNK", "link not ready"},
    {0x09990003, "ERR_REGBUF", "buffer registration failed"},
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

std::string hex_code(std::uint32_t code) {
    char buf[16];
    std::snprintf(buf, sizeof(buf), "0x%08x", code);
    return buf;
}

} // namespace smcctl
