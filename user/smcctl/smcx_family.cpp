// SPDX-License-Identifier: GPL-2.0
#include "smcx_family.hpp"

#include "uapi/linux/smcx.h"

namespace smcctl {

namespace {

constexpr auto top_policy = [] {
    nl::policy_table<SMCX_A_MAX + 1> t{};
    t[SMCX_A_HS] = nl::pol(NLA_NESTED);
    t[SMCX_A_POLICY] = nl::pol(NLA_NESTED);
    t[SMCX_A_PEER] = nl::pol(NLA_NESTED);
    return t;
}();

} // namespace

nl::layout smcx_top_layout() {
    return nl::layout_of(top_policy);
}

nl::message SmcxSession::request(std::uint8_t cmd, nl::reply_kind kind) {
    if (!id_)
        id_ = sk_.resolve(SMCX_GENL_NAME);
    return nl::message(*id_, cmd, SMCX_GENL_VERSION, kind);
}

} // namespace smcctl
