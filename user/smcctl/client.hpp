// SPDX-License-Identifier: GPL-2.0
// Fetching: the requests smcctl sends to the SMC generic netlink families, and the decoding
// of their replies into the model.  The decoders are free functions so tests can feed them
// hand-built replies.
#pragma once

#include <cstdint>
#include <istream>
#include <optional>
#include <set>
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
// One message of an SMC_NETLINK_GET_LGR_SMCR or _GET_LINK_SMCR dump: a link group is
// appended, a link goes to the link group before it.
void decode_lgr_smcr(nlmsghdr* hdr, LinkGroupTable& out);
// One SMC_NETLINK_GET_DEV_SMCR reply message; nullopt when it carries no device.
std::optional<Device> decode_dev_smcr(nlmsghdr* hdr);
// One SMC_NETLINK_GET_DEV_SMCD reply message; nullopt when it carries no device.
std::optional<Device> decode_dev_smcd(nlmsghdr* hdr);
// One SMC_NETLINK_GET_LGR_SMCD reply message: a link group is appended.
void decode_lgr_smcd(nlmsghdr* hdr, SmcdLinkGroupTable& out);
// The SMC_NETLINK_DUMP_SEID reply message (an empty one: no system EID).
void decode_seid(nlmsghdr* hdr, SeidInfo& out);

// Local TCP ports that have an IPv6 listener, for telling IPv4 from IPv6 AF_SMC listeners
// (the kernel reports both as AF_SMC with all-zero addresses).
using V6Ports = std::set<std::uint16_t>;
// One AF_SMC sock_diag reply message.  `v6_listeners` settles the family of sockets whose
// addresses are all zero; without it they count as IPv4.
SmcSocket decode_smc_sock(nlmsghdr* hdr, const V6Ports* v6_listeners = nullptr);
// Local port of one inet_diag reply message.
std::uint16_t decode_inet_diag_port(nlmsghdr* hdr);
// Local ports of the listening sockets in a /proc/net/tcp6 listing.
V6Ports listen_ports_from_proc(std::istream& in);

// The diag_ext bits of an AF_SMC sock_diag request (1 << (SMC_DIAG_* - 1)).
std::uint8_t diag_ext_bit(int ext);

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

    // SMC-R link groups; with their links when `links` (one dump gives both).
    LinkGroupTable linkgroups(bool links);
    // RDMA devices SMC knows.
    DeviceTable smcr_devices();
    // ISM devices SMC knows (none outside s390).
    SmcdDeviceTable smcd_devices();
    // SMC-D link groups.
    SmcdLinkGroupTable smcd_linkgroups();

    SeidInfo seid();
    // Enables (true) or disables the system EID.
    void seid_set(bool enable);

private:
    int gen_family();
    int pnet_family();
    // A GET_DEV_SMCR / GET_DEV_SMCD dump, netdev names resolved.
    std::vector<Device> devices(std::uint8_t cmd, std::optional<Device> (*decode)(nlmsghdr*));

    nl::socket sk_;
    std::optional<int> gen_id_;
    std::optional<int> pnet_id_;
};

// A session with the sock_diag interface of AF_SMC (the smc_diag module).
class DiagClient {
public:
    DiagClient();

    // Every AF_SMC socket of the network namespace; `ext` is the diag_ext mask of the
    // extensions wanted (SMC_DIAG_FALLBACK and SMC_DIAG_SHUTDOWN always come).
    SocketTable sockets(std::uint8_t ext);

private:
    wire::V6Ports v6_listeners();

    nl::socket sk_;
};

// Name of an interface index ("" when there is none, "#7" when it does not resolve).
std::string ifname_of(std::uint32_t ifindex);

} // namespace smcctl
