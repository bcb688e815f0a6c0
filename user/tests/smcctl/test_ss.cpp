// SPDX-License-Identifier: GPL-2.0
// smcss: command line, sock_diag reply decoding, selection and formatting (text and JSON).
#include <gtest/gtest.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <cerrno>
#include <cstring>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include <smcx/state.h>

#include "app.hpp"
#include "cli.hpp"
#include "cli_util.hpp"
#include "client.hpp"
#include "format.hpp"
#include "nl.hpp"
#include "uapi/linux/smc_diag.h"

using namespace smcctl;
using namespace smcctl::test;

namespace {

cmd::SsShow ss_of(std::vector<std::string> argv) {
    const auto inv = parse(std::move(argv));
    EXPECT_TRUE(std::holds_alternative<cmd::SsShow>(inv.command)) << inv.command.index();
    return std::holds_alternative<cmd::SsShow>(inv.command) ? std::get<cmd::SsShow>(inv.command)
                                                            : cmd::SsShow{};
}

// A sock_diag reply message as smc_diag builds it: struct smc_diag_msg, then attributes.
class DiagReply {
public:
    explicit DiagReply(const smc_diag_msg& m) : m_(nlmsg_alloc()) {
        nlmsghdr* h = nlmsg_put(m_.get(), 0, 1, 20 /* SOCK_DIAG_BY_FAMILY */,
                                static_cast<int>(sizeof(m)), NLM_F_MULTI);
        std::memcpy(nlmsg_data(h), &m, sizeof(m));
    }
    template <typename T> DiagReply& put(int type, const T& v, std::size_t len = sizeof(T)) {
        nla_put(m_.get(), type, static_cast<int>(len), &v);
        return *this;
    }
    DiagReply& u8(int type, std::uint8_t v) {
        nla_put_u8(m_.get(), type, v);
        return *this;
    }
    nlmsghdr* hdr() { return nlmsg_hdr(m_.get()); }

private:
    std::unique_ptr<nl_msg, nl::msg_deleter> m_;
};

smc_diag_msg v4_msg(std::uint8_t state, std::uint8_t mode) {
    smc_diag_msg m;
    std::memset(&m, 0, sizeof(m));
    m.diag_family = 43; // AF_SMC
    m.diag_state = state;
    m.diag_mode = mode;
    m.id.idiag_sport = htons(49320);
    m.id.idiag_dport = htons(5002);
    inet_pton(AF_INET, "198.18.0.1", &m.id.idiag_src[0]);
    inet_pton(AF_INET, "198.18.0.2", &m.id.idiag_dst[0]);
    m.id.idiag_cookie[0] = 7;
    m.id.idiag_cookie[1] = 1;
    m.diag_uid = 1000;
    m.diag_inode = 445;
    return m;
}

// The sockets of a lab transfer: an SMC-R one, a fallback, a listener, an INIT socket.
SocketTable sample_sockets() {
    SocketTable t;
    SmcSocket r;
    r.state = 1;
    r.mode = 0;
    r.local_addr = "198.18.0.1";
    r.local_port = 52932;
    r.peer_addr = "198.18.0.2";
    r.peer_port = 5002;
    r.uid = 0;
    r.inode = 783;
    r.fallback = FallbackInfo{0, 0};
    ConnInfo c;
    c.token = 3;
    c.sndbuf_size = c.rmbe_size = c.peer_rmbe_size = 65536;
    c.rx_cons = {284, 59416};
    c.tx_prod = {285, 58392};
    c.tx_prep = {285, 59416};
    c.tx_sent = {285, 58392};
    c.tx_fin = {285, 24600};
    r.conn = c;
    r.link = LinkInfo{0,
                      1,
                      "rxe0",
                      1,
                      "0000:0000:0000:0000:0000:ffff:c612:0001",
                      "0000:0000:0000:0000:0000:ffff:c612:0002"};
    t.sockets.push_back(r);

    SmcSocket f;
    f.state = 1;
    f.mode = 1;
    f.local_addr = "198.18.0.1";
    f.local_port = 48612;
    f.peer_addr = "198.18.0.2";
    f.peer_port = 5003;
    f.inode = 781;
    f.fallback = FallbackInfo{0x05000000, 0x03030000};
    t.sockets.push_back(f);

    SmcSocket l;
    l.ip_version = 6;
    l.state = 10;
    l.local_addr = "::";
    l.local_port = 5004;
    l.peer_addr = "::";
    l.inode = 793;
    t.sockets.push_back(l);

    SmcSocket i;
    i.state = 2;
    i.inode = 800;
    t.sockets.push_back(i);
    return t;
}

} // namespace

// ---- command line ----------------------------------------------------------------------------

TEST(SsCli, DefaultsShowConnectedSockets) {
    const auto s = ss_of({"smcss"});
    EXPECT_EQ(s.which, cmd::SsShow::Which::connected);
    EXPECT_FALSE(s.debug || s.smcr || s.smcd || s.wide);
}

TEST(SsCli, ShortAndLongOptions) {
    cmd::SsShow want;
    want.which = cmd::SsShow::Which::all;
    want.debug = want.smcr = want.wide = true;
    EXPECT_EQ(ss_of({"smcss", "-adRW"}), want);
    EXPECT_EQ(ss_of({"smcss", "--all", "--debug", "--smcr", "--wide"}), want);
    EXPECT_EQ(ss_of({"smcss", "-a", "-e", "-R", "-w"}), want); // smc-tools' older spellings
    EXPECT_EQ(ss_of({"smcss", "--al", "--deb", "--smcr", "--wi"}), want);
    EXPECT_EQ(ss_of({"smcctl", "ss", "-adRW"}), want);
    EXPECT_TRUE(ss_of({"smcss", "-D"}).smcd);
    EXPECT_EQ(ss_of({"smcss", "-l"}).which, cmd::SsShow::Which::listening);
}

TEST(SsCli, JsonVersionHelp) {
    EXPECT_TRUE(parse({"smcss", "--json"}).opt.json);
    EXPECT_TRUE(parse({"smcss", "-aj"}).opt.json);
    EXPECT_TRUE(std::holds_alternative<cmd::Version>(parse({"smcss", "-v"}).command));
    EXPECT_TRUE(std::holds_alternative<cmd::Version>(parse({"smcss", "-V"}).command));
    const auto inv = parse({"smcss", "-h"});
    ASSERT_TRUE(std::holds_alternative<cmd::Help>(inv.command));
    EXPECT_TRUE(contains(std::get<cmd::Help>(inv.command).text, "--listening"));
    const auto obj = parse({"smcctl", "ss", "help"});
    ASSERT_TRUE(std::holds_alternative<cmd::Help>(obj.command));
    EXPECT_TRUE(contains(std::get<cmd::Help>(obj.command).text, "Usage: smcctl ss"));
}

TEST(SsCli, ConflictsAsInSmcTools) {
    EXPECT_TRUE(contains(usage_error_of({"smcss", "-R", "-D"}), "--smcd together with --smcr"));
    EXPECT_TRUE(contains(usage_error_of({"smcss", "-l", "-a"}), "--listening together"));
    EXPECT_TRUE(contains(usage_error_of({"smcss", "-l", "-d"}), "--listening together"));
    EXPECT_TRUE(contains(usage_error_of({"smcss", "-lR"}), "--listening together"));
    EXPECT_TRUE(contains(usage_error_of({"smcss", "-x"}), "unknown option '-x'"));
    EXPECT_TRUE(contains(usage_error_of({"smcss", "--frob"}), "unknown option"));
    EXPECT_TRUE(contains(usage_error_of({"smcss", "eth0"}), "unexpected argument"));
    EXPECT_TRUE(contains(usage_error_of({"smcss", "--all=1"}), "takes no value"));
}

// ---- reply decoding ------------------------------------------------------------------------

TEST(SsWire, DecodesAnSmcrSocketWithEveryExtension) {
    smc_diag_conninfo ci{};
    ci.token = 3;
    ci.sndbuf_size = 65536;
    ci.rmbe_size = 32768;
    ci.peer_rmbe_size = 16384;
    ci.rx_cons.wrap = 284;
    ci.rx_cons.count = 59416;
    ci.tx_fin.wrap = 2;
    ci.tx_fin.count = 7;
    ci.tx_prod_flags = 0x20;
    smc_diag_lgrinfo li{};
    li.role = 1;
    li.lnk[0].link_id = 1;
    li.lnk[0].ibport = 1;
    std::strcpy(reinterpret_cast<char*>(li.lnk[0].ibname), "rxe0");
    std::strcpy(reinterpret_cast<char*>(li.lnk[0].gid), "fe80::1");
    std::strcpy(reinterpret_cast<char*>(li.lnk[0].peer_gid), "fe80::2");
    smc_diag_fallback fb{0, 0};

    DiagReply r(v4_msg(1, SMC_DIAG_MODE_SMCR));
    r.u8(SMC_DIAG_SHUTDOWN, 2).put(SMC_DIAG_FALLBACK, fb).put(SMC_DIAG_CONNINFO, ci);
    r.put(SMC_DIAG_LGRINFO, li);
    const SmcSocket s = wire::decode_smc_sock(r.hdr());
    EXPECT_EQ(s.ip_version, 4);
    EXPECT_EQ(s.local_addr, "198.18.0.1");
    EXPECT_EQ(s.local_port, 49320);
    EXPECT_EQ(s.peer_addr, "198.18.0.2");
    EXPECT_EQ(s.peer_port, 5002);
    EXPECT_EQ(s.uid, 1000u);
    EXPECT_EQ(s.inode, 445u);
    EXPECT_EQ(s.cookie, (1ull << 32) | 7);
    EXPECT_EQ(s.shutdown, 2);
    ASSERT_TRUE(s.conn);
    EXPECT_EQ(s.conn->token, 3u);
    EXPECT_EQ(s.conn->rmbe_size, 32768u);
    EXPECT_EQ(s.conn->rx_cons, (Cursor{284, 59416}));
    EXPECT_EQ(s.conn->tx_fin, (Cursor{2, 7}));
    EXPECT_EQ(s.conn->tx_prod_flags, 0x20);
    ASSERT_TRUE(s.link);
    EXPECT_EQ(s.link->role, 1);
    EXPECT_EQ(s.link->ibdev, "rxe0");
    EXPECT_EQ(s.link->gid, "fe80::1");
    EXPECT_EQ(s.link->peer_gid, "fe80::2");
    ASSERT_TRUE(s.fallback);
    EXPECT_FALSE(s.dmb);
}

TEST(SsWire, FallbackCodes) {
    smc_diag_fallback fb{0x05000000, 0x03030000};
    DiagReply r(v4_msg(1, SMC_DIAG_MODE_FALLBACK_TCP));
    r.put(SMC_DIAG_FALLBACK, fb);
    const SmcSocket s = wire::decode_smc_sock(r.hdr());
    EXPECT_EQ(s.mode, SMC_DIAG_MODE_FALLBACK_TCP);
    ASSERT_TRUE(s.fallback);
    EXPECT_EQ(s.fallback->reason, 0x05000000u);
    EXPECT_EQ(s.fallback->peer_diagnosis, 0x03030000u);
    EXPECT_EQ(mode_text(s), "TCP 0x05000000/0x03030000");
}

TEST(SsWire, AfSmcIpv6AddressesAreRecognized) {
    smc_diag_msg m = v4_msg(1, 0);
    inet_pton(AF_INET6, "2001:db8::1", m.id.idiag_src);
    inet_pton(AF_INET6, "::ffff:198.18.0.2", m.id.idiag_dst);
    DiagReply r(m);
    const SmcSocket s = wire::decode_smc_sock(r.hdr());
    EXPECT_EQ(s.ip_version, 6);
    EXPECT_EQ(s.local_addr, "2001:db8::1");
    EXPECT_EQ(s.peer_addr, "::ffff:198.18.0.2");
}

TEST(SsWire, WildcardListenerFamilyComesFromTheTcpListeners) {
    smc_diag_msg m;
    std::memset(&m, 0, sizeof(m));
    m.diag_family = 43;
    m.diag_state = 10;
    m.id.idiag_sport = htons(5004);
    DiagReply r(m);
    EXPECT_EQ(wire::decode_smc_sock(r.hdr()).ip_version, 4);
    EXPECT_EQ(wire::decode_smc_sock(r.hdr()).local_addr, "0.0.0.0");
    const wire::V6Ports ports{5004};
    const SmcSocket s = wire::decode_smc_sock(r.hdr(), &ports);
    EXPECT_EQ(s.ip_version, 6);
    EXPECT_EQ(s.local_addr, "::");
    const wire::V6Ports other{5005};
    EXPECT_EQ(wire::decode_smc_sock(r.hdr(), &other).ip_version, 4);
}

TEST(SsWire, IpprotoSmcSocketsCarryTheirFamily) {
    smc_diag_msg m = v4_msg(1, 0);
    m.diag_family = AF_INET6;
    std::memset(m.id.idiag_src, 0, sizeof(m.id.idiag_src));
    DiagReply r(m);
    EXPECT_EQ(wire::decode_smc_sock(r.hdr()).ip_version, 6);
}

TEST(SsWire, ShortDmbInfoOfOlderKernels) {
    smcd_diag_dmbinfo d{};
    d.linkid = 0x100;
    d.my_gid = 0x1122334455667788ull;
    d.peer_token = 9;
    DiagReply r(v4_msg(1, SMC_DIAG_MODE_SMCD));
    r.put(SMC_DIAG_DMBINFO, d, offsetof(smcd_diag_dmbinfo, peer_gid_ext));
    const SmcSocket s = wire::decode_smc_sock(r.hdr());
    ASSERT_TRUE(s.dmb);
    EXPECT_EQ(s.dmb->linkid, 0x100u);
    EXPECT_EQ(s.dmb->my_gid, 0x1122334455667788ull);
    EXPECT_EQ(s.dmb->peer_token, 9u);
    EXPECT_EQ(s.dmb->my_gid_ext, 0u);
}

TEST(SsWire, MalformedReplies) {
    // Truncated extension struct.
    smc_diag_conninfo ci{};
    DiagReply r(v4_msg(1, 0));
    r.put(SMC_DIAG_CONNINFO, ci, sizeof(ci) - 4);
    EXPECT_THROW(wire::decode_smc_sock(r.hdr()), nl::malformed_reply);

    // Message shorter than smc_diag_msg.
    std::unique_ptr<nl_msg, nl::msg_deleter> m(nlmsg_alloc());
    nlmsg_put(m.get(), 0, 1, 20, 8, NLM_F_MULTI);
    EXPECT_THROW(wire::decode_smc_sock(nlmsg_hdr(m.get())), nl::malformed_reply);
}

TEST(SsWire, ExtensionBits) {
    EXPECT_EQ(wire::diag_ext_bit(SMC_DIAG_CONNINFO), 1);
    EXPECT_EQ(wire::diag_ext_bit(SMC_DIAG_LGRINFO), 2);
    EXPECT_EQ(wire::diag_ext_bit(SMC_DIAG_SHUTDOWN), 4);
    EXPECT_EQ(wire::diag_ext_bit(SMC_DIAG_DMBINFO), 8);
    EXPECT_EQ(wire::diag_ext_bit(SMC_DIAG_FALLBACK), 16);
}

TEST(SsWire, ListenPortsFromProcNetTcp6) {
    std::istringstream in(
        "  sl  local_address                         remote_address                        st "
        "tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n"
        "   0: 00000000000000000000000000000000:138C 00000000000000000000000000000000:0000 0A "
        "00000000:00000000 00:00000000 00000000     0        0 793 1 0000000000000000 100 0 0 "
        "10 0\n"
        "   1: 0000000000000000FFFF00000100A8C0:C0E4 0000000000000000FFFF00000200A8C0:138A 01 "
        "00000000:00000000 00:00000000 00000000     0        0 800 1 0000000000000000 20 4 30 "
        "10 -1\n");
    EXPECT_EQ(wire::listen_ports_from_proc(in), (wire::V6Ports{5004}));
}

// ---- selection ------------------------------------------------------------------------------

TEST(SsSelect, StatesAndModes) {
    const SocketTable t = sample_sockets();
    SsView v;
    EXPECT_EQ(select_sockets(t, v).sockets.size(), 2u); // neither LISTEN nor INIT
    v.which = SsView::Which::all;
    EXPECT_EQ(select_sockets(t, v).sockets.size(), 4u);
    v.which = SsView::Which::listening;
    ASSERT_EQ(select_sockets(t, v).sockets.size(), 1u);
    EXPECT_EQ(select_sockets(t, v).sockets[0].state, 10);
    v = SsView{};
    v.smcr = true;
    ASSERT_EQ(select_sockets(t, v).sockets.size(), 1u);
    EXPECT_EQ(select_sockets(t, v).sockets[0].inode, 783u);
    v.smcr = false;
    v.smcd = true;
    EXPECT_TRUE(select_sockets(t, v).sockets.empty());
}

// ---- text ------------------------------------------------------------------------------------

TEST(SsText, BasicColumnsAligned) {
    SsView v;
    v.which = SsView::Which::all;
    const std::string t = to_text(sample_sockets(), v);
    EXPECT_EQ(t, "State   UID  Inode  Local Address     Peer Address     Intf  Mode\n"
                 "ACTIVE    0    783  198.18.0.1:52932  198.18.0.2:5002  -     SMCR\n"
                 "ACTIVE    0    781  198.18.0.1:48612  198.18.0.2:5003  -     "
                 "TCP 0x05000000/0x03030000 (PEERDECL/NOSMCDEV)\n"
                 "LISTEN    0    793  :::5004                            -\n"
                 "INIT      0    800\n");
}

TEST(SsText, FallbackWithoutPeerDiagnosis) {
    SmcSocket s = sample_sockets().sockets[1];
    s.fallback = FallbackInfo{0x03010000, 0};
    EXPECT_EQ(mode_text(s), "TCP 0x03010000");
    EXPECT_EQ(fallback_names(s), "PEER_NO_SMC");
    s.fallback = FallbackInfo{0x7f000000, 0};
    EXPECT_EQ(fallback_names(s), "?");
    s.fallback = FallbackInfo{0, 0};
    EXPECT_EQ(mode_text(s), "TCP");
    EXPECT_EQ(fallback_names(s), "");
    EXPECT_EQ(fallback_names(sample_sockets().sockets[0]), ""); // SMC-R: no fallback names
}

TEST(SsText, DebugColumns) {
    SsView v;
    v.debug = true;
    const std::string t = to_text(sample_sockets(), v);
    std::istringstream in(t);
    std::string header, smcr, tcp;
    std::getline(in, header);
    std::getline(in, smcr);
    std::getline(in, tcp);
    for (const char* col : {"ShutD", "Token", "Sndbuf", "Rcvbuf", "Peerbuf", "rxprod-Cursor",
                            "rxcons-Cursor", "rxFlags", "txprod-Cursor", "txcons-Cursor", "txFlags",
                            "txprep-Cursor", "txsent-Cursor", "txfin-Cursor"})
        EXPECT_TRUE(contains(header, col)) << col;
    std::istringstream cells(smcr);
    std::vector<std::string> words;
    for (std::string w; cells >> w;)
        words.push_back(w);
    ASSERT_EQ(words.size(), 21u) << smcr;
    EXPECT_EQ(words[7], "<->");
    EXPECT_EQ(words[8], "00000003");
    EXPECT_EQ(words[9], "65536");
    EXPECT_TRUE(contains(smcr, "284:59416")) << smcr;
    EXPECT_TRUE(contains(smcr, "285:24600")) << smcr;
    EXPECT_TRUE(contains(smcr, "00:00")) << smcr;
    // A fallback socket has no connection info: its line ends after the shutdown state.
    EXPECT_EQ(tcp.substr(tcp.size() - 3), "<->") << tcp;
    // Columns line up: the Token header starts where the token does.
    EXPECT_EQ(header.find("Token"), smcr.find("00000003"));
}

TEST(SsText, SmcrColumns) {
    SsView v;
    v.smcr = true;
    const std::string t = to_text(select_sockets(sample_sockets(), v), v);
    EXPECT_EQ(t, "State   UID  Inode  Local Address     Peer Address     Intf  Mode  Role  "
                 "IB-Device  Port  Linkid  GID                                      Peer-GID\n"
                 "ACTIVE    0    783  198.18.0.1:52932  198.18.0.2:5002  -     SMCR  CLNT  "
                 "rxe0          1       1  0000:0000:0000:0000:0000:ffff:c612:0001  "
                 "0000:0000:0000:0000:0000:ffff:c612:0002\n");
}

TEST(SsText, SmcdColumns) {
    SocketTable t;
    SmcSocket s = sample_sockets().sockets[0];
    s.mode = 2;
    s.link.reset();
    s.dmb = DmbInfo{0x100, 0xaa, 0xbb, 0xcc, 0xdd, 0, 0};
    t.sockets.push_back(s);
    SsView v;
    v.smcd = true;
    const std::string out = to_text(t, v);
    EXPECT_TRUE(contains(out, "GID               Token             Peer-GID")) << out;
    EXPECT_TRUE(contains(out, "SMCD  00000000000000bb  00000000000000cc  00000000000000aa  "
                              "00000000000000dd  00000100"))
        << out;
}

TEST(SsText, EndpointTruncation) {
    // smc-tools: inet_ntop()'s text, ":", the port; cut to 23 with ".." unless wide
    EXPECT_EQ(endpoint_text("198.18.0.1", 5000, false), "198.18.0.1:5000");
    EXPECT_EQ(endpoint_text("2001:db8:1234:5678::1", 5000, true), "2001:db8:1234:5678::1:5000");
    EXPECT_EQ(endpoint_text("::ffff:198.18.0.2", 7000, false), "::ffff:198.18.0.2:7000");
    EXPECT_EQ(endpoint_text("::", 5002, false), ":::5002");
    const std::string cut = endpoint_text("2001:db8:1234:5678:9abc::1", 5000, false);
    EXPECT_EQ(cut, "2001:db8:1234:56..:5000");
    EXPECT_EQ(cut.size(), 23u) << cut;
    EXPECT_EQ(endpoint_text("::ffff:198.18.0.12", 65535, false), "::ffff:198.18.0..:65535");
}

TEST(SsText, StateNames) {
    // smc-tools' names for Linux's smc_state numbers (smcss(8))
    EXPECT_EQ(smc_state_name(1), "ACTIVE");
    EXPECT_EQ(smc_state_name(2), "INIT");
    EXPECT_EQ(smc_state_name(7), "CLOSED");
    EXPECT_EQ(smc_state_name(10), "LISTEN");
    EXPECT_EQ(smc_state_name(20), "PEERCLW1");
    EXPECT_EQ(smc_state_name(21), "PEERCLW2");
    EXPECT_EQ(smc_state_name(22), "APPLCLW1");
    EXPECT_EQ(smc_state_name(23), "APPLCLW2");
    EXPECT_EQ(smc_state_name(24), "APPLFINCLW");
    EXPECT_EQ(smc_state_name(25), "PEERFINCLW");
    EXPECT_EQ(smc_state_name(26), "PEERABORTW");
    EXPECT_EQ(smc_state_name(27), "PROCESSABORT");
    EXPECT_EQ(smc_state_name(99), "0x63?");
    EXPECT_EQ(smc_state_name(0), "0x00?");
    EXPECT_EQ(smc_state_name(3), "0x03?");
}

TEST(SsText, StateNamesFollowTheKernelsNumbers) {
    // the numbers the module reports (include/smcx/state.h)
    EXPECT_EQ(smc_state_name(SMCX_ACTIVE), "ACTIVE");
    EXPECT_EQ(smc_state_name(SMCX_PEERCLOSEWAIT1), "PEERCLW1");
    EXPECT_EQ(smc_state_name(SMCX_APPCLOSEWAIT1), "APPLCLW1");
    EXPECT_EQ(smc_state_name(SMCX_APPFINCLOSEWAIT), "APPLFINCLW");
    EXPECT_EQ(smc_state_name(SMCX_PROCESSABORT), "PROCESSABORT");
}

// ---- JSON ------------------------------------------------------------------------------------

TEST(SsJson, EveryField) {
    const std::string j = to_json(sample_sockets());
    EXPECT_EQ(j.rfind("{\n  \"sockets\": [\n", 0), 0u) << j;
    for (const char* s :
         {"\"state\": \"ACTIVE\"", "\"state_code\": 1", "\"inode\": 783", "\"family\": \"inet\"",
          "\"address\": \"198.18.0.1\"", "\"port\": 52932", "\"mode\": \"SMCR\"",
          "\"text\": \"<->\"", "\"token\": 3", "\"sndbuf_size\": 65536",
          "\"rx_cons\": {\n          \"wrap\": 284,\n          \"count\": 59416",
          "\"role\": \"CLNT\"", "\"ib_device\": \"rxe0\"", "\"dmb\": null", "\"family\": \"inet6\"",
          "\"state\": \"LISTEN\"", "\"interface\": null"})
        EXPECT_TRUE(contains(j, s)) << s << "\n" << j;
}

TEST(SsJson, FallbackReasonWithNames) {
    SocketTable t;
    t.sockets.push_back(sample_sockets().sockets[1]);
    const std::string j = to_json(t);
    EXPECT_TRUE(contains(j, "\"mode\": \"TCP\"")) << j;
    EXPECT_TRUE(contains(j, "\"reason\": {\n          \"code\": 83886080,\n          \"hex\": "
                            "\"0x05000000\",\n          \"name\": \"PEERDECL\""))
        << j;
    EXPECT_TRUE(contains(j, "\"peer_diagnosis\": {\n          \"code\": 50528256,\n"
                            "          \"hex\": \"0x03030000\",\n          \"name\": "
                            "\"NOSMCDEV\""))
        << j;
    EXPECT_TRUE(contains(j, "\"conninfo\": null")) << j;
}

TEST(SsJson, EmptyTable) {
    EXPECT_EQ(to_json(SocketTable{}), "{\n  \"sockets\": []\n}\n");
    EXPECT_EQ(to_text(SocketTable{}, SsView{}),
              "State  UID  Inode  Local Address  Peer Address  Intf  Mode\n");
}

TEST(SsApp, MissingSmcDiagIsNamed) {
    EXPECT_EQ(describe_failure(cmd::SsShow{}, nl::error("No such file or directory", ENOENT)),
              "SMC socket monitoring not available (module smc_diag not loaded)");
}
