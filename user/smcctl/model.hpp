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

} // namespace smcctl
