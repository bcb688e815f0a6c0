// SPDX-License-Identifier: GPL-2.0
// Formatting: the model as text for people and as JSON for programs.  Both read the same
// structs; nothing here talks to the kernel.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model.hpp"

namespace smcctl {

class JsonWriter;

struct StatsView {
    bool smcr = true;     // show the SMC-R section
    bool smcd = true;     // show the SMC-D section
    bool details = false; // per-reason fallbacks, buffer and socket-call counters
    // ISM devices the kernel reports, when asked: 0 puts a note in the SMC-D section
    std::optional<std::size_t> smcd_devices;
};

// smc-tools compatible lines: "PNETID ETH IBDEV PORT", with n/a and 255 for unused fields.
std::string to_text(const PnetTable& t);
std::string to_json(const PnetTable& t);

std::string to_text(const UeidTable& t);
std::string to_json(const UeidTable& t);

std::string to_text(const SysInfo& s);
std::string to_json(const SysInfo& s);

std::string to_text(const Stats& s, const StatsView& v);
// JSON always carries every counter of both technologies.
std::string to_json(const Stats& s);

// ---- sockets (smcss) ----------------------------------------------------------------------

struct SsView {
    enum class Which { connected, all, listening };
    Which which = Which::connected; // connected: neither LISTEN nor INIT sockets
    bool debug = false;             // shutdown, buffers, cursors
    bool smcr = false;              // SMC-R sockets only, with link columns
    bool smcd = false;              // SMC-D sockets only, with DMB columns
    bool wide = false;              // addresses not truncated
};

// The sockets a view shows, in kernel order.
SocketTable select_sockets(const SocketTable& t, const SsView& v);
// smc-tools smcss columns, aligned.  Shows every socket of `t` (select first).
std::string to_text(const SocketTable& t, const SsView& v);
// Every field of every socket of `t`.
std::string to_json(const SocketTable& t);

// State name as smcss shows it ("ACTIVE", "LISTEN", "PEERCLW1", ...; "0x42?" if unknown).
std::string smc_state_name(std::uint8_t state);
// Mode column: "SMCR", "SMCD", "TCP 0x03010000", "TCP 0x05000000/0x03030000".
std::string mode_text(const SmcSocket& s);
// Names of the fallback codes: "PEER_NO_SMC", "PEERDECL/NOSMCDEV"; empty when not a fallback.
std::string fallback_names(const SmcSocket& s);
// "198.18.0.1:5000", "fe80::1:5000", "::ffff:198.18.0.1:5000" (smc-tools' form: no
// brackets); truncated to 23 characters with ".." before the port unless wide.
std::string endpoint_text(const std::string& addr, std::uint16_t port, bool wide);

// ---- link groups and devices (smcr linkgroup / device) ------------------------------------

struct LgrView {
    bool links = false;  // one line per link (link-show)
    unsigned detail = 0; // -d, -dd
    std::optional<std::uint32_t> lgid;
    std::optional<std::string> ibdev;
    std::optional<std::string> netdev;
};

// Link groups (and, for link-show, links) a view shows.  Device filters need the links.
LinkGroupTable select_linkgroups(const LinkGroupTable& t, const LgrView& v);
std::string to_text(const LinkGroupTable& t, const LgrView& v);
std::string to_json(const LinkGroupTable& t);

struct DevView {
    unsigned detail = 0;
    std::optional<std::string> ibdev;
    std::optional<std::string> netdev;
};

DeviceTable select_devices(const DeviceTable& t, const DevView& v);
// One line per valid port, as smc-tools' smcr device.
std::string to_text(const DeviceTable& t, const DevView& v);
std::string to_json(const DeviceTable& t);

// ---- SMC-D and the system EID (smcd) -------------------------------------------------------

// What smcd prints instead of an empty table when the kernel reports no ISM device.
std::string no_smcd_device_text();

struct SmcdLgrView {
    unsigned detail = 0;
    std::optional<std::uint32_t> lgid;
    std::optional<std::size_t> devices; // ISM devices the kernel reports, when known
};

SmcdLinkGroupTable select_smcd_linkgroups(const SmcdLinkGroupTable& t, const SmcdLgrView& v);
std::string to_text(const SmcdLinkGroupTable& t, const SmcdLgrView& v);
std::string to_json(const SmcdLinkGroupTable& t);

std::string to_text(const SmcdDeviceTable& t);
std::string to_json(const SmcdDeviceTable& t);

std::string to_text(const SeidInfo& s);
std::string to_json(const SeidInfo& s);

// {"address", "port"} under `key`.
void json_endpoint(JsonWriter& j, std::string_view key, const std::string& addr,
                   std::uint16_t port);

// A CLC decline code under `key`: null for 0, else {"code", "hex", "name", "text"} (name and
// text null when unknown).  Shared by smcss and smc_chk.
void json_decline(JsonWriter& j, std::string_view key, std::uint32_t code);

// The fallback codes {"reason", "peer_diagnosis"} (each as json_decline), null when absent.
void json_fallback(JsonWriter& j, std::string_view key, const std::optional<FallbackInfo>& f);

// An SMC-R socket's link {"role", "ib_device", "ib_port", "link_id", "gid", "peer_gid"}, null
// when absent.
void json_link(JsonWriter& j, std::string_view key, const std::optional<LinkInfo>& l);

// 1536 -> "1.5K" (binary multiples, one decimal; plain number below 1024).
std::string abbreviate(std::uint64_t v);

// Columns of text, each as wide as its widest cell, two blanks apart; trailing blanks cut.
class TextTable {
public:
    enum class Align { left, right };
    TextTable& column(std::string header, Align a = Align::left);
    // A row may have fewer cells than there are columns.
    TextTable& row(std::vector<std::string> cells);
    std::string str() const;

private:
    std::vector<std::string> headers_;
    std::vector<Align> align_;
    std::vector<std::vector<std::string>> rows_;
};

} // namespace smcctl
