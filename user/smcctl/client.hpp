// SPDX-License-Identifier: GPL-2.0
// Fetching: the requests smcctl sends to the SMC generic netlink families, and the decoding
// of their replies into the model.  The decoders are free functions so tests can feed them
// hand-built replies.
#pragma once

#include <optional>
#include <string>

#include "model.hpp"
#include "nl.hpp"

namespace smcctl {

namespace wire {

// One SMC_PNETID_GET reply message.
PnetEntry decode_pnet_entry(nlmsghdr* hdr);
// One SMC_NETLINK_DUMP_UEID reply message; nullopt when it carries no entry.
std::optional<std::string> decode_ueid(nlmsghdr* hdr);
// The SMC_NETLINK_GET_SYS_INFO reply message.
void decode_sys_info(nlmsghdr* hdr, SysInfo& out);
// The SMC_NETLINK_GET_STATS reply message.
void decode_stats(nlmsghdr* hdr, Stats& out);
// One SMC_NETLINK_GET_FBACK_STATS reply message (appends a reason, takes the totals).
void decode_fback_stats(nlmsghdr* hdr, Stats& out);

} // namespace wire

// A session with the kernel's SMC netlink families.  Family ids are resolved on first use,
// so a command that needs only SMC_PNETID works whatever the state of SMC_GEN_NETLINK.
class Client {
public:
    Client() = default;

    PnetTable pnet_show(const std::optional<std::string>& pnetid);
    void pnet_add(const std::string& pnetid, const std::optional<std::string>& eth,
                  const std::optional<std::string>& ib, std::uint8_t port);
    void pnet_del(const std::string& pnetid);
    void pnet_flush();

    UeidTable ueid_show();
    void ueid_add(const std::string& eid); // 32 characters, blank padded
    // True when the kernel reports that removing the last user EID re-enabled the system
    // EID (s390 only).
    bool ueid_del(const std::string& eid);
    void ueid_flush();

    SysInfo info();
    Stats stats();

private:
    int gen_family();
    int pnet_family();

    nl::socket sk_;
    std::optional<int> gen_id_;
    std::optional<int> pnet_id_;
};

} // namespace smcctl
