// SPDX-License-Identifier: GPL-2.0
// A thin RAII layer over libnl-3 generic netlink: sockets, request messages, one
// request/reply round trip, and policy-checked typed attribute readers.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <netlink/attr.h>
#include <netlink/genl/genl.h>
#include <netlink/handlers.h>
#include <netlink/msg.h>
#include <netlink/netlink.h>

namespace smcctl::nl {

// A failed netlink conversation.  errno_value() is the positive errno the kernel (or the
// socket layer) reported, or 0 when the failure was detected in user space (for example a
// malformed reply); libnl_code() is the libnl error code, if any.
class error : public std::runtime_error {
public:
    error(const std::string& what, int errno_value, int libnl_code = 0)
        : std::runtime_error(what), errno_(errno_value), libnl_(libnl_code) {}
    int errno_value() const noexcept { return errno_; }
    int libnl_code() const noexcept { return libnl_; }

private:
    int errno_;
    int libnl_;
};

// The generic netlink family is not registered: the module providing it is not loaded.
class family_not_found : public error {
public:
    explicit family_not_found(std::string family)
        : error("generic netlink family " + family + " not found", 0), family_(std::move(family)) {}
    const std::string& family() const noexcept { return family_; }

private:
    std::string family_;
};

// A reply that does not match the expected attribute layout.
class malformed_reply : public error {
public:
    explicit malformed_reply(const std::string& what) : error("malformed reply: " + what, 0) {}
};

struct sock_deleter {
    void operator()(nl_sock* s) const noexcept { nl_socket_free(s); }
};
struct msg_deleter {
    void operator()(nl_msg* m) const noexcept { nlmsg_free(m); }
};

// How the kernel answers a request.
enum class reply_kind {
    ack,   // a command: answered by an ACK (or an error)
    dump,  // NLM_F_DUMP: a multi-part reply closed by NLMSG_DONE
    multi, // a plain request answered by a multi-part reply (no ACK asked for)
};

// One netlink request under construction.  Attributes are added with libnl's own nla_put_*
// so the wire format is libnl's business.
class message {
public:
    // A generic netlink request: genl header with `cmd` and `version`.
    message(int family, std::uint8_t cmd, std::uint8_t version, reply_kind kind);

    // A request of another netlink protocol: message type plus a fixed payload struct
    // (for example SOCK_DIAG_BY_FAMILY with a struct smc_diag_req).
    static message raw(std::uint16_t type, const void* payload, std::size_t len, reply_kind kind);

    message& put_string(int attr, const std::string& value);
    message& put_u8(int attr, std::uint8_t value);
    message& put_u16(int attr, std::uint16_t value);
    message& put_u32(int attr, std::uint32_t value);
    message& put_bytes(int attr, std::span<const std::uint8_t> value);
    // Attributes put between begin_nest() and end_nest() go inside attribute `attr`.
    message& begin_nest(int attr);
    message& end_nest();

    reply_kind kind() const noexcept { return kind_; }
    nl_msg* get() const noexcept { return msg_.get(); }

private:
    message(std::unique_ptr<nl_msg, msg_deleter> m, reply_kind kind)
        : msg_(std::move(m)), kind_(kind) {}

    std::unique_ptr<nl_msg, msg_deleter> msg_;
    reply_kind kind_;
    std::vector<nlattr*> nests_;
};

// Called once for every data message of a reply.
using reply_handler = std::function<void(nlmsghdr*)>;

// A connected netlink socket: NETLINK_GENERIC unless another protocol is given (for
// example NETLINK_SOCK_DIAG).
class socket {
public:
    socket();
    explicit socket(int protocol);

    // Numeric id of a generic netlink family; throws family_not_found.
    int resolve(const std::string& family_name);

    // Sends the request and consumes the whole reply, calling on_reply for every data
    // message.  Throws error with the kernel's errno when the kernel refuses the request.
    void transact(message& request, const reply_handler& on_reply);

private:
    std::unique_ptr<nl_sock, sock_deleter> sk_;
};

// Description of one attribute level for parsing: maxtype plus a libnl policy table with
// maxtype + 1 entries.
struct layout {
    int maxtype;
    const nla_policy* policy;
};

// libnl policy tables as constexpr arrays: pol() for one entry, layout_of() for the parser.
template <std::size_t N> using policy_table = std::array<nla_policy, N>;

constexpr nla_policy pol(std::uint16_t type, std::uint16_t minlen = 0) {
    return nla_policy{type, minlen, 0};
}

template <std::size_t N> layout layout_of(const policy_table<N>& t) {
    return layout{static_cast<int>(N) - 1, t.data()};
}

// The attributes of one level, indexed by type, after policy validation.
class attrs {
public:
    attrs() = default;

    // Top level of a generic netlink message (no family header).
    static attrs parse(nlmsghdr* hdr, layout l);
    // Attributes that follow a fixed payload header of `hdrlen` bytes (sock_diag replies).
    static attrs parse_after(nlmsghdr* hdr, std::size_t hdrlen, layout l);
    // Nested level inside attribute `type`; empty when that attribute is absent.
    attrs nested(int type, layout l) const;

    bool has(int type) const noexcept;
    std::optional<std::uint8_t> u8(int type) const;
    std::optional<std::uint16_t> u16(int type) const;
    std::optional<std::uint32_t> u32(int type) const;
    std::optional<std::uint64_t> u64(int type) const;
    // NLA_UINT style: 4 or 8 bytes.
    std::optional<std::uint64_t> uint(int type) const;
    std::optional<std::string> str(int type) const;
    // The raw payload of an attribute (structs of sock_diag extensions).
    std::optional<std::span<const std::uint8_t>> bytes(int type) const;

    std::uint64_t u64_or0(int type) const { return u64(type).value_or(0); }

private:
    explicit attrs(std::vector<nlattr*> tb) : tb_(std::move(tb)) {}
    nlattr* get(int type) const noexcept;

    std::vector<nlattr*> tb_;
};

// libnl's description of one of its own error codes.
std::string describe_libnl(int code);

} // namespace smcctl::nl
