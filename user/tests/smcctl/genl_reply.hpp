// SPDX-License-Identifier: GPL-2.0
// A generic netlink reply message built as the kernel builds it, for feeding the decoders.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include <netlink/attr.h>
#include <netlink/genl/genl.h>
#include <netlink/msg.h>

#include "nl.hpp"

namespace smcctl::test {

// A generic netlink reply under construction, as the kernel builds it.
class Reply {
public:
    explicit Reply(std::uint8_t cmd) : m_(nlmsg_alloc()) {
        genlmsg_put(m_.get(), 0, 0, 0x42, 0, NLM_F_MULTI, cmd, 1);
    }
    Reply& str(int type, const char* s) {
        nla_put_string(m_.get(), type, s);
        return *this;
    }
    Reply& u8(int type, std::uint8_t v) {
        nla_put_u8(m_.get(), type, v);
        return *this;
    }
    Reply& u16(int type, std::uint16_t v) {
        nla_put_u16(m_.get(), type, v);
        return *this;
    }
    Reply& u32(int type, std::uint32_t v) {
        nla_put_u32(m_.get(), type, v);
        return *this;
    }
    Reply& u64(int type, std::uint64_t v) {
        nla_put_u64(m_.get(), type, v);
        return *this;
    }
    Reply& bytes(int type, const void* p, int len) {
        nla_put(m_.get(), type, len, p);
        return *this;
    }
    Reply& begin(int type) {
        nests_.push_back(nla_nest_start(m_.get(), type));
        return *this;
    }
    Reply& end() {
        nla_nest_end(m_.get(), nests_.back());
        nests_.pop_back();
        return *this;
    }
    nlmsghdr* hdr() { return nlmsg_hdr(m_.get()); }

private:
    std::unique_ptr<nl_msg, nl::msg_deleter> m_;
    std::vector<nlattr*> nests_;
};

} // namespace smcctl::test
