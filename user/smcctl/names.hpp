// SPDX-License-Identifier: GPL-2.0
// Identifier rules shared with the kernel (user EIDs, PNET IDs, interface and device names)
// and the names of CLC decline codes.  The EID and PNET ID rules themselves are the kernel's
// own, from <smcx/names.h>; this layer strips blanks and words the errors.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace smcctl {

constexpr std::size_t eid_length = 32; // SMC_MAX_EID_LEN
constexpr std::size_t pnetid_max = 16; // SMC_MAX_PNETID_LEN (kernel-internal)
constexpr std::size_t ifname_max = 15; // IFNAMSIZ - 1
constexpr std::size_t ibname_max = 63; // IB_DEVICE_NAME_MAX - 1

// Strips ASCII blanks (space, tab, newline, ...) from both ends.
std::string trim_blanks(std::string_view s);

// Turns user input into the form the kernel stores and compares: upper case, 32 characters,
// blank padded.  The kernel accepts A-Z, 0-9, '.' and '-', the first character alphanumeric,
// blanks only as trailing padding.  Throws std::invalid_argument naming the problem.
std::string normalize_ueid(std::string_view input);

// PNET IDs: 1..16 letters or digits, stored upper case.  Throws std::invalid_argument.
std::string normalize_pnetid(std::string_view input);

// Interface / RDMA device names as the kernel's attribute policy allows them.
void check_ifname(std::string_view name);
void check_ibname(std::string_view name);

// Short name ("PEER_NO_SMC") and description of a CLC decline / fallback reason code;
// empty views for codes this tool does not know.
std::string_view decline_name(std::uint32_t code);
std::string_view decline_text(std::uint32_t code);

// What to do about a decline / fallback reason, one line; empty for unknown codes.
std::string_view decline_hint(std::uint32_t code);

// Every code the tables above know, in table order.
std::vector<std::uint32_t> decline_codes();

// "0x03010000"
std::string hex_code(std::uint32_t code);

} // namespace smcctl
