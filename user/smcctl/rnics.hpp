// SPDX-License-Identifier: GPL-2.0
// smc_rnics: the RDMA devices of the system (/sys/class/infiniband), their ports, netdevs,
// link state, and what SMC makes of them (SMC_GEN_NETLINK GET_DEV_SMCR: PNET IDs, usability).
#pragma once

#include <filesystem>
#include <string>

#include "model.hpp"

namespace smcctl::rnics {

constexpr const char* sysfs_root = "/sys/class/infiniband";

// The RDMA devices under `root` (normally sysfs_root), sorted by name.  A device or port whose
// files cannot be read keeps empty fields; a missing root is an empty table.
RnicTable read_sysfs(const std::filesystem::path& root);

// Adds SMC's view (a GET_DEV_SMCR dump) to the devices and ports of `t` and marks the table
// as having it.  SMC's netdev wins over sysfs's when SMC names one.
void merge_smc(RnicTable& t, const DeviceTable& smc);

// A RoCE port: Ethernet link layer on an InfiniBand-style (CA) device; iWARP is not RoCE.
bool is_roce(const Rnic& d, const RnicPort& p);

// The table without the ports that are not RoCE unless `all` (devices left without ports
// go too).
RnicTable select(const RnicTable& t, bool all);

// "RoCE_Express2", "soft-RoCE", "mlx5_core", ...; with `rawids` a PCI device shows
// "vendor:device" instead.
std::string type_of(const Rnic& d, bool rawids);

std::string to_text(const RnicTable& t, bool rawids);
std::string to_json(const RnicTable& t);

// The whole command: sysfs, plus SMC when it is loaded (a note on `err` when it is not).
RnicTable fetch(std::ostream& err);

} // namespace smcctl::rnics
