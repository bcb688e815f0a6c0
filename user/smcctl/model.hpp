// SPDX-License-Identifier: GPL-2.0
// The data smcctl fetches from the kernel, independent of how it is printed.  Fetching
// (client.hpp) fills these; formatting (format.hpp) reads them, as text or JSON.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace smcctl {

// One PNET table entry: a PNET ID bound to an interface or to an RDMA/ISM device port.
struct PnetEntry {
    std::string pnetid;
    std::string eth;                  // empty when the entry names a device
    std::string ib;                   // empty when the entry names an interface
    std::optional<std::uint8_t> port; // absent when the entry names an interface

    bool operator==(const PnetEntry&) const = default;
};

struct PnetTable {
    std::vector<PnetEntry> entries;
};

// The user EID table, blanks stripped.
struct UeidTable {
    std::vector<std::string> eids;
};

// SMC_NETLINK_GET_SYS_INFO plus what else `info` shows.
struct SysInfo {
    std::optional<std::uint8_t> version;
    std::optional<std::uint8_t> release;
    std::optional<bool> ism_v2;
    std::optional<bool> smcr_v2;
    std::string hostname; // blanks stripped
    std::string seid;     // empty when the kernel reports none
    std::vector<std::string> ueids;
    std::optional<std::size_t> smcr_devices; // RDMA devices SMC knows, if queried
    std::optional<std::size_t> smcd_devices; // ISM devices SMC knows, if queried
};

// Histogram over buffer or payload sizes: <=8K, 16K, 32K, 64K, 128K, 256K, 512K, 1024K, more.
struct SizeHistogram {
    static constexpr std::size_t buckets = 9;
    std::array<std::uint64_t, buckets> count{};
};

// Send or receive buffer events.
struct BufferEvents {
    std::uint64_t size_small_peer = 0; // data larger than the peer's buffer
    std::uint64_t size_small = 0;      // data larger than the local buffer
    std::uint64_t full_peer = 0;       // peer's buffer was full
    std::uint64_t full = 0;            // local buffer was full
    std::uint64_t reuse = 0;           // buffer taken from the free pool
    std::uint64_t alloc = 0;           // buffer newly allocated
    std::uint64_t downgrade = 0;       // smaller buffer than wanted
};

// Counters of one technology (SMC-R or SMC-D).
struct TechStats {
    std::uint64_t clnt_v1_succ = 0;
    std::uint64_t clnt_v2_succ = 0;
    std::uint64_t srv_v1_succ = 0;
    std::uint64_t srv_v2_succ = 0;
    std::uint64_t rx_bytes = 0;
    std::uint64_t tx_bytes = 0;
    std::uint64_t rx_cnt = 0;
    std::uint64_t tx_cnt = 0;
    std::uint64_t sendpage_cnt = 0;
    std::uint64_t splice_cnt = 0;
    std::uint64_t cork_cnt = 0;
    std::uint64_t ndly_cnt = 0;
    std::uint64_t urg_data_cnt = 0;
    BufferEvents tx_buf;
    BufferEvents rx_buf;
    SizeHistogram tx_rmb_size;
    SizeHistogram rx_rmb_size;
    SizeHistogram tx_payload;
    SizeHistogram rx_payload;
    // Gauges, not counters: bytes of buffers in use right now (absent on older kernels).
    std::optional<std::uint64_t> rx_rmb_usage;
    std::optional<std::uint64_t> tx_rmb_usage;

    std::uint64_t connections() const {
        return clnt_v1_succ + clnt_v2_succ + srv_v1_succ + srv_v2_succ;
    }
};

struct FallbackReason {
    std::uint32_t code = 0;
    std::uint64_t count = 0;

    bool operator==(const FallbackReason&) const = default;
};

// Counters of SMC_NETLINK_GET_STATS and SMC_NETLINK_GET_FBACK_STATS.
struct Stats {
    TechStats smcr;
    TechStats smcd;
    std::uint64_t clnt_hs_err = 0;
    std::uint64_t srv_hs_err = 0;
    std::uint64_t clnt_fallback = 0;
    std::uint64_t srv_fallback = 0;
    std::vector<FallbackReason> clnt_reasons; // in kernel order
    std::vector<FallbackReason> srv_reasons;
};

// ---- sockets (sock_diag) ------------------------------------------------------------------

// A position in a ring buffer.
struct Cursor {
    std::uint16_t wrap = 0;
    std::uint32_t count = 0;

    bool operator==(const Cursor&) const = default;
};

// SMC_DIAG_CONNINFO: buffers and cursors of a connection.
struct ConnInfo {
    std::uint32_t token = 0;
    std::uint32_t sndbuf_size = 0;
    std::uint32_t rmbe_size = 0;
    std::uint32_t peer_rmbe_size = 0;
    Cursor rx_prod, rx_cons, tx_prod, tx_cons;
    std::uint8_t rx_prod_flags = 0;
    std::uint8_t rx_conn_state_flags = 0;
    std::uint8_t tx_prod_flags = 0;
    std::uint8_t tx_conn_state_flags = 0;
    Cursor tx_prep, tx_sent, tx_fin;
};

// SMC_DIAG_LGRINFO: the SMC-R link the socket uses.
struct LinkInfo {
    std::uint8_t role = 0; // 0 client, 1 server
    std::uint8_t link_id = 0;
    std::string ibdev;
    std::uint8_t ibport = 0;
    std::string gid;
    std::string peer_gid;
};

// SMC_DIAG_DMBINFO: the SMC-D connection.
struct DmbInfo {
    std::uint32_t linkid = 0;
    std::uint64_t peer_gid = 0;
    std::uint64_t my_gid = 0;
    std::uint64_t token = 0;
    std::uint64_t peer_token = 0;
    std::uint64_t peer_gid_ext = 0;
    std::uint64_t my_gid_ext = 0;
};

// SMC_DIAG_FALLBACK: CLC decline codes.
struct FallbackInfo {
    std::uint32_t reason = 0;
    std::uint32_t peer_diagnosis = 0;
};

enum class SocketMode : std::uint8_t { smcr = 0, tcp = 1, smcd = 2 };

// One AF_SMC socket.  Addresses and ports are those of its internal TCP (CLC) socket.
struct SmcSocket {
    int ip_version = 4; // 4 or 6
    std::uint8_t state = 0;
    std::uint8_t mode = 0; // SocketMode value (kept raw: unknown values are shown as such)
    std::uint8_t shutdown = 0;
    std::string local_addr; // text form, without the port
    std::uint16_t local_port = 0;
    std::string peer_addr;
    std::uint16_t peer_port = 0;
    std::uint32_t ifindex = 0; // SO_BINDTODEVICE interface, 0 if none
    std::string ifname;        // its name, resolved when fetched ("" if none)
    std::uint32_t uid = 0;
    std::uint64_t inode = 0;
    std::uint64_t cookie = 0;
    std::optional<FallbackInfo> fallback;
    std::optional<ConnInfo> conn;
    std::optional<LinkInfo> link;
    std::optional<DmbInfo> dmb;
};

struct SocketTable {
    std::vector<SmcSocket> sockets;
};

// ---- link groups and devices (SMC_GEN_NETLINK) ---------------------------------------------

// One link of an SMC-R link group.
struct Link {
    std::uint8_t id = 0;
    std::string ibdev;
    std::uint8_t ibport = 0;
    std::string gid;
    std::string peer_gid;
    std::uint32_t conns = 0;
    std::uint32_t netdev_ifindex = 0;
    std::string netdev;         // resolved name, empty if unknown
    std::uint32_t uid = 0;      // 4 raw bytes in network order, as received
    std::uint32_t peer_uid = 0; // same
    std::uint32_t state = 0;    // 0 unused, 1 inactive, 2 activating, 3 active
};

// SMC-Rv2 negotiation results of a link group.
struct LgrV2 {
    std::optional<std::uint8_t> version;
    std::optional<std::uint8_t> release;
    std::optional<std::uint8_t> peer_os;
    std::string negotiated_eid; // blanks stripped
    std::string peer_host;      // blanks stripped
    std::optional<bool> direct;
    std::optional<std::uint8_t> max_conns;
    std::optional<std::uint8_t> max_links;
};

struct LinkGroup {
    std::uint32_t id = 0;
    std::uint8_t role = 0; // 0 client, 1 server
    std::uint8_t type = 0; // 0 none, 1 single, 2 sym, 3 asym peer, 4 asym local
    std::string pnetid;    // blanks stripped
    std::uint8_t vlan = 0;
    std::uint32_t conns = 0;
    std::optional<std::uint64_t> net_cookie;
    std::optional<std::uint8_t> buf_type;
    std::optional<std::uint64_t> sndbuf_alloc;
    std::optional<std::uint64_t> rmb_alloc;
    std::optional<LgrV2> v2;
    std::vector<Link> links; // only when links were asked for
};

struct LinkGroupTable {
    std::vector<LinkGroup> groups;
    bool with_links = false;
};

// One port of an RDMA device as SMC sees it.
struct DevicePort {
    std::uint8_t number = 1; // 1-based
    std::string pnetid;      // blanks stripped
    bool pnetid_by_user = false;
    std::uint32_t netdev_ifindex = 0;
    std::string netdev; // resolved name, empty if unknown
    bool active = false;
    bool valid = false;
    std::uint32_t links = 0;
};

struct PciInfo {
    std::uint32_t fid = 0;
    std::uint16_t chid = 0;
    std::uint16_t vendor = 0;
    std::uint16_t device = 0;
    std::string id; // PCI slot name
};

struct Device {
    std::string ibdev;
    bool critical = false;
    std::optional<std::uint32_t> use_cnt;
    std::optional<PciInfo> pci;
    std::vector<DevicePort> ports;
};

struct DeviceTable {
    std::vector<Device> devices;
};

// ISM devices (SMC_NETLINK_GET_DEV_SMCD): the same attributes, one port.
struct SmcdDeviceTable {
    std::vector<Device> devices;
};

// One SMC-D link group (SMC_NETLINK_GET_LGR_SMCD).
struct SmcdLinkGroup {
    std::uint32_t id = 0;
    std::uint64_t gid = 0;
    std::uint64_t peer_gid = 0;
    std::optional<std::uint64_t> gid_ext; // extended halves of 128-bit GIDs, if sent
    std::optional<std::uint64_t> peer_gid_ext;
    std::uint8_t vlan = 0;
    std::uint32_t conns = 0;
    std::string pnetid; // blanks stripped
    std::optional<std::uint16_t> chid;
    std::optional<LgrV2> v2;
    std::optional<std::uint64_t> sndbuf_alloc;
    std::optional<std::uint64_t> dmb_alloc;
};

struct SmcdLinkGroupTable {
    std::vector<SmcdLinkGroup> groups;
};

// SMC_NETLINK_DUMP_SEID.
struct SeidInfo {
    std::string seid;            // blanks stripped; empty when the kernel reports none
    std::optional<bool> enabled; // absent when there is no system EID
};

// ---- RDMA devices as the system has them (smc_rnics) ----------------------------------------

// One port of an RDMA device: sysfs (/sys/class/infiniband) plus SMC's view of it.
struct RnicPort {
    std::uint8_t number = 1;
    std::string link_layer;        // "Ethernet" (RoCE), "InfiniBand"; empty if unknown
    std::string state;             // "ACTIVE", "DOWN", "INIT", ...; empty if unknown
    std::string phys_state;        // "LinkUp", "Disabled", "Polling", ...; empty if unknown
    std::string netdev;            // the interface the port runs on; empty if none
    std::optional<DevicePort> smc; // GET_DEV_SMCR's entry, absent if SMC does not know it
};

struct Rnic {
    std::string name;
    std::string node_type;        // "CA" (InfiniBand, RoCE), "RNIC" (iWARP), ...
    std::string driver;           // kernel driver of a PCI device ("mlx5_core", ...)
    std::string parent;           // the netdev a software device (rxe, siw) is made on
    std::optional<PciInfo> pci;   // PCI slot, vendor and device; absent for software devices
    std::optional<bool> critical; // SMC: link groups depend on it (absent: SMC does not know it)
    std::vector<RnicPort> ports;
};

struct RnicTable {
    std::vector<Rnic> devices;
    bool smc_loaded = false; // SMC answered GET_DEV_SMCR: PNET IDs and usability are known
};

} // namespace smcctl
