// SPDX-License-Identifier: GPL-2.0
// Formatting: the model as text for people and as JSON for programs.  Both read the same
// structs; nothing here talks to the kernel.
#pragma once

#include <cstdint>
#include <string>

#include "model.hpp"

namespace smcctl {

struct StatsView {
    bool smcr = true;     // show the SMC-R section
    bool smcd = true;     // show the SMC-D section
    bool details = false; // per-reason fallbacks, buffer and socket-call counters
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

// 1536 -> "1.5K" (binary multiples, one decimal; plain number below 1024).
std::string abbreviate(std::uint64_t v);

} // namespace smcctl
