// SPDX-License-Identifier: GPL-2.0
// smcctl policy over netlink: the SMCX family's POLICY_GET, _ADD, _DEL and _FLUSH.
#include <cstring>

#include "policy.hpp"
#include "smcx_family.hpp"
#include "uapi/linux/smcx.h"

namespace smcctl {

namespace {

using nl::layout_of;
using nl::pol;
using nl::policy_table;

constexpr auto rule_policy = [] {
    policy_table<SMCX_POLICY_A_MAX + 1> t{};
    t[SMCX_POLICY_A_ID] = pol(NLA_U32);
    t[SMCX_POLICY_A_ACTION] = pol(NLA_U8);
    t[SMCX_POLICY_A_ROLE] = pol(NLA_U8);
    t[SMCX_POLICY_A_CGROUP] = pol(NLA_STRING);
    t[SMCX_POLICY_A_COMM] = pol(NLA_STRING);
    t[SMCX_POLICY_A_UID_MIN] = pol(NLA_U32);
    t[SMCX_POLICY_A_UID_MAX] = pol(NLA_U32);
    t[SMCX_POLICY_A_FAMILY] = pol(NLA_U8);
    t[SMCX_POLICY_A_ADDR] = pol(NLA_UNSPEC, 16);
    t[SMCX_POLICY_A_PREFIX] = pol(NLA_U8);
    t[SMCX_POLICY_A_PORT_MIN] = pol(NLA_U16);
    t[SMCX_POLICY_A_PORT_MAX] = pol(NLA_U16);
    t[SMCX_POLICY_A_HITS] = pol(NLA_U64);
    return t;
}();

void check(int rc) {
    if (rc < 0)
        throw nl::error("cannot build netlink request: " + nl::describe_libnl(rc), 0, rc);
}

// The rule's attributes, nested in SMCX_A_POLICY.
void put_rule(nl_msg* m, const PolicyRule& r) {
    nlattr* nest = nla_nest_start(m, SMCX_A_POLICY);
    if (!nest)
        throw nl::error("cannot build netlink request", ENOMEM);
    check(nla_put_u8(m, SMCX_POLICY_A_ACTION, static_cast<std::uint8_t>(r.action)));
    check(nla_put_u8(m, SMCX_POLICY_A_ROLE, static_cast<std::uint8_t>(r.role)));
    if (r.cgroup)
        check(nla_put_string(m, SMCX_POLICY_A_CGROUP, r.cgroup->c_str()));
    if (r.comm)
        check(nla_put_string(m, SMCX_POLICY_A_COMM, r.comm->c_str()));
    if (r.uid) {
        check(nla_put_u32(m, SMCX_POLICY_A_UID_MIN, r.uid->min));
        check(nla_put_u32(m, SMCX_POLICY_A_UID_MAX, r.uid->max));
    }
    if (r.dst) {
        check(nla_put_u8(m, SMCX_POLICY_A_FAMILY, static_cast<std::uint8_t>(r.dst->family)));
        check(nla_put(m, SMCX_POLICY_A_ADDR, 16, r.dst->addr.data()));
        check(nla_put_u8(m, SMCX_POLICY_A_PREFIX, r.dst->prefix));
    }
    if (r.port) {
        check(nla_put_u16(m, SMCX_POLICY_A_PORT_MIN, static_cast<std::uint16_t>(r.port->min)));
        check(nla_put_u16(m, SMCX_POLICY_A_PORT_MAX, static_cast<std::uint16_t>(r.port->max)));
    }
    nla_nest_end(m, nest);
}

std::optional<Range> range_of(const nl::attrs& a, int lo, int hi, bool u16) {
    if (!a.has(lo))
        return std::nullopt;
    if (u16)
        return Range{a.u16(lo).value_or(0), a.u16(hi).value_or(0)};
    return Range{a.u32(lo).value_or(0), a.u32(hi).value_or(0)};
}

} // namespace

namespace wire {

PolicyRule decode_policy_rule(nlmsghdr* hdr) {
    const nl::attrs a =
        nl::attrs::parse(hdr, smcx_top_layout()).nested(SMCX_A_POLICY, layout_of(rule_policy));
    if (!a.has(SMCX_POLICY_A_ID))
        throw nl::malformed_reply("a rule without an id");
    PolicyRule r;
    r.id = a.u32(SMCX_POLICY_A_ID).value_or(0);
    r.role = static_cast<PolicyRole>(a.u8(SMCX_POLICY_A_ROLE).value_or(0));
    r.action = static_cast<PolicyAction>(a.u8(SMCX_POLICY_A_ACTION).value_or(SMCX_POLICY_SMC));
    r.cgroup = a.str(SMCX_POLICY_A_CGROUP);
    r.comm = a.str(SMCX_POLICY_A_COMM);
    r.uid = range_of(a, SMCX_POLICY_A_UID_MIN, SMCX_POLICY_A_UID_MAX, false);
    r.port = range_of(a, SMCX_POLICY_A_PORT_MIN, SMCX_POLICY_A_PORT_MAX, true);
    if (const auto addr = a.bytes(SMCX_POLICY_A_ADDR); addr && addr->size() == 16) {
        Cidr c;
        c.family = a.u8(SMCX_POLICY_A_FAMILY).value_or(AF_INET6);
        std::memcpy(c.addr.data(), addr->data(), 16);
        c.prefix = a.u8(SMCX_POLICY_A_PREFIX).value_or(128);
        r.dst = c;
    }
    r.hits = a.u64_or0(SMCX_POLICY_A_HITS);
    return r;
}

} // namespace wire

PolicyTable PolicyClient::list() {
    PolicyTable t;
    nl::message req = s_.request(SMCX_CMD_POLICY_GET, nl::reply_kind::dump);
    s_.transact(req, [&](nlmsghdr* h) { t.rules.push_back(wire::decode_policy_rule(h)); });
    return t;
}

void PolicyClient::add(const PolicyRule& r) {
    nl::message req = s_.request(SMCX_CMD_POLICY_ADD, nl::reply_kind::ack);
    put_rule(req.get(), r);
    s_.transact(req, [](nlmsghdr*) {});
}

void PolicyClient::del(std::uint32_t id) {
    nl::message req = s_.request(SMCX_CMD_POLICY_DEL, nl::reply_kind::ack);
    req.begin_nest(SMCX_A_POLICY).put_u32(SMCX_POLICY_A_ID, id).end_nest();
    s_.transact(req, [](nlmsghdr*) {});
}

void PolicyClient::flush() {
    nl::message req = s_.request(SMCX_CMD_POLICY_FLUSH, nl::reply_kind::ack);
    s_.transact(req, [](nlmsghdr*) {});
}

} // namespace smcctl
