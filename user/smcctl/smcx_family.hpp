// SPDX-License-Identifier: GPL-2.0
// A session with smcx's own generic netlink family SMCX (include/uapi/linux/smcx.h): the
// flight recorder and peer cache (why.cpp) and the scope rules (policy_client.cpp) share it.
#pragma once

#include <cstdint>
#include <optional>

#include "nl.hpp"

namespace smcctl {

// The top level of every SMCX message: one nest per object.
nl::layout smcx_top_layout();

class SmcxSession {
public:
    // A request for `cmd`; the family id is resolved on first use (family_not_found when
    // smcx is not loaded).
    nl::message request(std::uint8_t cmd, nl::reply_kind kind);
    void transact(nl::message& req, const nl::reply_handler& on_reply) {
        sk_.transact(req, on_reply);
    }

private:
    nl::socket sk_;
    std::optional<int> id_;
};

} // namespace smcctl
