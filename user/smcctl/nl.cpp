// SPDX-License-Identifier: GPL-2.0
#include "nl.hpp"

#include <cerrno>
#include <cstring>
#include <exception>

#include <netlink/errno.h>
#include <netlink/genl/ctrl.h>

namespace smcctl::nl {

namespace {

struct cb_deleter {
    void operator()(nl_cb* cb) const noexcept { nl_cb_put(cb); }
};

// State shared with the C callbacks during one round trip.  Exceptions must not unwind
// through libnl, so the callbacks park them here and the caller rethrows.
struct round_trip {
    const reply_handler* on_reply;
    std::exception_ptr failure;
    int kernel_errno = 0;
};

int on_valid(nl_msg* msg, void* arg) {
    auto* rt = static_cast<round_trip*>(arg);
    try {
        (*rt->on_reply)(nlmsg_hdr(msg));
        return NL_OK;
    } catch (...) {
        rt->failure = std::current_exception();
        return NL_STOP;
    }
}

int on_error(sockaddr_nl*, nlmsgerr* err, void* arg) {
    auto* rt = static_cast<round_trip*>(arg);
    rt->kernel_errno = -err->error;
    return NL_STOP;
}

} // namespace

std::string describe_libnl(int code) {
    return nl_geterror(code);
}

message::message(int family, std::uint8_t cmd, std::uint8_t version, reply_kind kind)
    : msg_(nlmsg_alloc()), kind_(kind) {
    if (!msg_)
        throw error("cannot allocate netlink message", ENOMEM);
    const int flags = kind == reply_kind::dump ? NLM_F_DUMP : 0;
    if (!genlmsg_put(msg_.get(), NL_AUTO_PORT, NL_AUTO_SEQ, family, 0, flags, cmd, version))
        throw error("cannot build generic netlink header", ENOMEM);
}

message message::raw(std::uint16_t type, const void* payload, std::size_t len, reply_kind kind) {
    const int flags = kind == reply_kind::dump ? NLM_F_DUMP : 0;
    std::unique_ptr<nl_msg, msg_deleter> m(nlmsg_alloc_simple(type, flags));
    if (!m)
        throw error("cannot allocate netlink message", ENOMEM);
    if (const int rc = nlmsg_append(m.get(), const_cast<void*>(payload), len, NLMSG_ALIGNTO);
        rc < 0)
        throw error("cannot build netlink request: " + describe_libnl(rc), 0, rc);
    return message(std::move(m), kind);
}

message& message::put_string(int attr, const std::string& value) {
    if (const int rc = nla_put_string(msg_.get(), attr, value.c_str()); rc < 0)
        throw error("cannot add attribute: " + describe_libnl(rc), 0, rc);
    return *this;
}

message& message::put_u8(int attr, std::uint8_t value) {
    if (const int rc = nla_put_u8(msg_.get(), attr, value); rc < 0)
        throw error("cannot add attribute: " + describe_libnl(rc), 0, rc);
    return *this;
}

message& message::put_u16(int attr, std::uint16_t value) {
    if (const int rc = nla_put_u16(msg_.get(), attr, value); rc < 0)
        throw error("cannot add attribute: " + describe_libnl(rc), 0, rc);
    return *this;
}

message& message::put_u32(int attr, std::uint32_t value) {
    if (const int rc = nla_put_u32(msg_.get(), attr, value); rc < 0)
        throw error("cannot add attribute: " + describe_libnl(rc), 0, rc);
    return *this;
}

message& message::put_bytes(int attr, std::span<const std::uint8_t> value) {
    if (const int rc = nla_put(msg_.get(), attr, static_cast<int>(value.size()), value.data());
        rc < 0)
        throw error("cannot add attribute: " + describe_libnl(rc), 0, rc);
    return *this;
}

message& message::begin_nest(int attr) {
    nlattr* n = nla_nest_start(msg_.get(), attr);
    if (!n)
        throw error("cannot add attribute: message full", 0);
    nests_.push_back(n);
    return *this;
}

message& message::end_nest() {
    if (nests_.empty())
        throw error("end_nest() without begin_nest()", 0);
    nla_nest_end(msg_.get(), nests_.back());
    nests_.pop_back();
    return *this;
}

socket::socket() : socket(NETLINK_GENERIC) {}

socket::socket(int protocol) : sk_(nl_socket_alloc()) {
    if (!sk_)
        throw error("cannot allocate netlink socket", ENOMEM);
    // Replies larger than a page (sock_diag fills 32 KiB skbs) are read in one piece.
    nl_socket_enable_msg_peek(sk_.get());
    const int rc =
        protocol == NETLINK_GENERIC ? genl_connect(sk_.get()) : nl_connect(sk_.get(), protocol);
    if (rc < 0)
        throw error("cannot open netlink socket: " + describe_libnl(rc), 0, rc);
}

int socket::resolve(const std::string& family_name) {
    const int id = genl_ctrl_resolve(sk_.get(), family_name.c_str());
    if (id == -NLE_OBJ_NOTFOUND)
        throw family_not_found(family_name);
    if (id < 0)
        throw error("cannot resolve generic netlink family " + family_name + ": " +
                        describe_libnl(id),
                    0, id);
    return id;
}

void socket::transact(message& request, const reply_handler& on_reply) {
    round_trip rt{&on_reply, nullptr, 0};

    // A private callback set per round trip: the socket's own defaults stay untouched and
    // no pointer to this stack frame outlives the call.
    std::unique_ptr<nl_cb, cb_deleter> cb(nl_cb_alloc(NL_CB_DEFAULT));
    if (!cb)
        throw error("cannot allocate netlink callbacks", ENOMEM);
    nl_cb_set(cb.get(), NL_CB_VALID, NL_CB_CUSTOM, on_valid, &rt);
    nl_cb_err(cb.get(), NL_CB_CUSTOM, on_error, &rt);

    // Only commands ask for an ACK; a data reply ends with NLMSG_DONE, and an ACK queued
    // behind it would be left unread on the socket.
    if (request.kind() == reply_kind::ack)
        nl_socket_enable_auto_ack(sk_.get());
    else
        nl_socket_disable_auto_ack(sk_.get());

    if (const int rc = nl_send_auto(sk_.get(), request.get()); rc < 0)
        throw error("cannot send netlink request: " + describe_libnl(rc), 0, rc);

    const int rc = nl_recvmsgs(sk_.get(), cb.get());
    if (rt.failure)
        std::rethrow_exception(rt.failure);
    if (rt.kernel_errno != 0)
        throw error(std::strerror(rt.kernel_errno), rt.kernel_errno, rc);
    if (rc < 0)
        throw error("netlink receive failed: " + describe_libnl(rc), 0, rc);
}

attrs attrs::parse(nlmsghdr* hdr, layout l) {
    std::vector<nlattr*> tb(static_cast<std::size_t>(l.maxtype) + 1, nullptr);
    if (const int rc = genlmsg_parse(hdr, 0, tb.data(), l.maxtype, l.policy); rc < 0)
        throw malformed_reply(describe_libnl(rc));
    return attrs(std::move(tb));
}

attrs attrs::parse_after(nlmsghdr* hdr, std::size_t hdrlen, layout l) {
    if (nlmsg_datalen(hdr) < static_cast<int>(hdrlen))
        throw malformed_reply("message shorter than its fixed header");
    std::vector<nlattr*> tb(static_cast<std::size_t>(l.maxtype) + 1, nullptr);
    if (const int rc = nlmsg_parse(hdr, static_cast<int>(hdrlen), tb.data(), l.maxtype, l.policy);
        rc < 0)
        throw malformed_reply(describe_libnl(rc));
    return attrs(std::move(tb));
}

attrs attrs::nested(int type, layout l) const {
    nlattr* nest = get(type);
    if (!nest)
        return {};
    std::vector<nlattr*> tb(static_cast<std::size_t>(l.maxtype) + 1, nullptr);
    if (const int rc = nla_parse_nested(tb.data(), l.maxtype, nest, l.policy); rc < 0)
        throw malformed_reply("nested attribute " + std::to_string(type) + ": " +
                              describe_libnl(rc));
    return attrs(std::move(tb));
}

nlattr* attrs::get(int type) const noexcept {
    if (type < 0 || static_cast<std::size_t>(type) >= tb_.size())
        return nullptr;
    return tb_[static_cast<std::size_t>(type)];
}

bool attrs::has(int type) const noexcept {
    return get(type) != nullptr;
}

namespace {

template <typename T> std::optional<T> read_fixed(nlattr* a, int type) {
    if (!a)
        return std::nullopt;
    if (nla_len(a) < static_cast<int>(sizeof(T)))
        throw malformed_reply("attribute " + std::to_string(type) + " too short");
    T v;
    std::memcpy(&v, nla_data(a), sizeof(T));
    return v;
}

} // namespace

std::optional<std::uint8_t> attrs::u8(int type) const {
    return read_fixed<std::uint8_t>(get(type), type);
}
std::optional<std::uint16_t> attrs::u16(int type) const {
    return read_fixed<std::uint16_t>(get(type), type);
}
std::optional<std::uint32_t> attrs::u32(int type) const {
    return read_fixed<std::uint32_t>(get(type), type);
}
std::optional<std::uint64_t> attrs::u64(int type) const {
    return read_fixed<std::uint64_t>(get(type), type);
}

std::optional<std::uint64_t> attrs::uint(int type) const {
    nlattr* a = get(type);
    if (!a)
        return std::nullopt;
    if (nla_len(a) >= 8)
        return read_fixed<std::uint64_t>(a, type);
    return read_fixed<std::uint32_t>(a, type);
}

std::optional<std::string> attrs::str(int type) const {
    nlattr* a = get(type);
    if (!a)
        return std::nullopt;
    const auto* data = static_cast<const char*>(nla_data(a));
    return std::string(data, strnlen(data, static_cast<std::size_t>(nla_len(a))));
}

std::optional<std::span<const std::uint8_t>> attrs::bytes(int type) const {
    nlattr* a = get(type);
    if (!a)
        return std::nullopt;
    return std::span<const std::uint8_t>(static_cast<const std::uint8_t*>(nla_data(a)),
                                         static_cast<std::size_t>(nla_len(a)));
}

} // namespace smcctl::nl
