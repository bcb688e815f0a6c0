// SPDX-License-Identifier: GPL-2.0
// "Why isn't this connection on SMC?": the kernel's handshake flight recorder and peer cache
// (generic netlink family SMCX, include/uapi/linux/smcx.h), and the explanation of one
// recorded handshake in a short paragraph: what it became, the step that decided it, and
// what would change the outcome.  explain() is pure, for the tests.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "nl.hpp"
#include "smcx_family.hpp"

namespace smcctl {

// One CLC message of a handshake.
struct HsMsg {
    std::uint8_t type = 0; // 1 Proposal, 2 Accept, 3 Confirm, 4 Decline
    bool out = false;      // we sent it
    std::uint16_t len = 0;
    std::uint8_t version = 0;
    std::uint8_t path = 0;  // SMC type: 0 R, 1 D, 3 both
    std::uint8_t path2 = 0; // a Proposal's v2 type
    bool first = false;     // first-contact flag
    std::uint32_t usec = 0; // since the handshake began
    std::uint32_t diag = 0; // a Decline's reason
};

enum class HsResult : std::uint8_t { tcp = 0, smcr = 1, smcd = 2, failed = 3 };

// One handshake as the recorder kept it.
struct HsRecord {
    std::uint64_t seq = 0;
    std::uint64_t time_ns = 0; // start, since the epoch
    std::uint32_t usec = 0;    // start to decision
    bool server = false;
    HsResult result = HsResult::failed;
    std::uint32_t reason = 0;      // our fallback reason
    std::uint32_t peer_reason = 0; // the peer's Decline
    std::uint32_t err = 0;         // a failure's errno
    std::string laddr, paddr;      // printable
    std::uint16_t lport = 0, pport = 0;
    std::uint32_t uid = 0;
    std::string comm;
    bool syn_sent = false, syn_seen = false;
    std::uint8_t offer = 0; // SMCX_HS_OFFER_*
    std::vector<std::string> offer_eids;
    std::string eid; // agreed
    std::string dev;
    std::uint8_t ibport = 0;
    std::string gid, peer_gid; // printable
    bool first = false;
    std::uint32_t lgr_id = 0;
    std::uint8_t version = 0, release = 0, max_conns = 0, max_links = 0;
    bool wwi = false;
    std::uint32_t policy_id = 0;
    std::vector<HsMsg> msgs;
    unsigned msgs_lost = 0;
};

// One entry of the peer cache.
struct PeerEntry {
    std::string addr;
    std::uint16_t port = 0;
    std::uint8_t why = 0; // SMCX_PEER_*
    std::uint32_t reason = 0;
    std::uint32_t fails = 0;
    bool cached = false;
    std::uint32_t expires_ms = 0;
    std::uint64_t hits = 0;
};

// The explanation of one record.
struct Explanation {
    std::string verdict; // "SMC-R", "SMC-D", "TCP", "failed"
    std::string step;    // the step that decided it
    std::string text;    // one short paragraph
    std::string fix;     // what would change the outcome; empty when nothing to do
};

// @our_eids: this host's user EIDs (trimmed), which tell a server's "no device" Decline
// for want of a common EID from one for want of a device; empty: unknown.
Explanation explain(const HsRecord& r, const std::vector<std::string>& our_eids = {});

// "ADDR", "ADDR:PORT", "[V6]:PORT" or ":PORT" against either end of a record.
struct WhyFilter {
    std::optional<std::string> addr;
    std::optional<std::uint16_t> port;
    bool matches(const HsRecord& r) const;
};
// Throws std::invalid_argument for input that is no address and port.
WhyFilter parse_why_filter(const std::string& s);

std::string why_text(const std::vector<HsRecord>& records, bool verbose,
                     const std::vector<std::string>& our_eids = {});
std::string why_json(const std::vector<HsRecord>& records,
                     const std::vector<std::string>& our_eids = {});
std::string peers_text(const std::vector<PeerEntry>& peers);
std::string peers_json(const std::vector<PeerEntry>& peers);

// The newest record of the connection between these ends, or null.
const HsRecord* record_of(const std::vector<HsRecord>& records, const std::string& laddr,
                          std::uint16_t lport, const std::string& paddr, std::uint16_t pport);

namespace wire {
HsRecord decode_hs(nlmsghdr* hdr);
PeerEntry decode_peer(nlmsghdr* hdr);
} // namespace wire

// A session with the family SMCX.
class XClient {
public:
    std::vector<HsRecord> records();
    void records_flush();
    std::vector<PeerEntry> peers();
    // "ADDR:PORT" (IPv6 in brackets); throws std::invalid_argument for bad input.
    void peer_del(const std::string& addr_port);
    void peers_flush();

private:
    SmcxSession s_;
};

} // namespace smcctl
