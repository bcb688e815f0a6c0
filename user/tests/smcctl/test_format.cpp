// SPDX-License-Identifier: GPL-2.0
// Text and JSON of hand-built models.
#include <gtest/gtest.h>

#include <string>

#include "cli_util.hpp"
#include "format.hpp"

using namespace smcctl;
using namespace smcctl::test;

namespace {

PnetTable sample_pnet() {
    PnetTable t;
    t.entries.push_back({"NET1", "eth0", "", std::nullopt});
    t.entries.push_back({"NET1", "", "rxe0", 1});
    return t;
}

Stats sample_stats() {
    Stats s;
    s.smcr.clnt_v1_succ = 1;
    s.smcr.clnt_v2_succ = 2;
    s.smcr.srv_v1_succ = 3;
    s.smcr.srv_v2_succ = 4;
    s.smcr.rx_bytes = 4 << 20;
    s.smcr.tx_bytes = 1536;
    s.smcr.rx_cnt = 20;
    s.smcr.tx_cnt = 30;
    s.smcr.tx_buf.full = 3;
    s.smcr.tx_payload.count[0] = 29;
    s.smcr.tx_payload.count[8] = 1;
    s.smcr.rx_rmb_usage = 65536;
    s.smcd.srv_v1_succ = 7;
    s.clnt_hs_err = 1;
    s.srv_hs_err = 2;
    s.clnt_fallback = 5;
    s.srv_fallback = 6;
    s.srv_reasons = {{0x03010000, 6}};
    s.clnt_reasons = {{0x03030008, 4}, {0x7f000001, 1}};
    return s;
}

} // namespace

TEST(Format, PnetTextIsSmcToolsCompatible) {
    EXPECT_EQ(to_text(sample_pnet()), "NET1 eth0 n/a 255\n"
                                      "NET1 n/a rxe0 1\n");
    EXPECT_EQ(to_text(PnetTable{}), "");
}

TEST(Format, PnetJson) {
    EXPECT_EQ(to_json(sample_pnet()), "{\n"
                                      "  \"pnet\": [\n"
                                      "    {\n"
                                      "      \"pnetid\": \"NET1\",\n"
                                      "      \"interface\": \"eth0\",\n"
                                      "      \"ib_device\": null,\n"
                                      "      \"ib_port\": null\n"
                                      "    },\n"
                                      "    {\n"
                                      "      \"pnetid\": \"NET1\",\n"
                                      "      \"interface\": null,\n"
                                      "      \"ib_device\": \"rxe0\",\n"
                                      "      \"ib_port\": 1\n"
                                      "    }\n"
                                      "  ]\n"
                                      "}\n");
    EXPECT_EQ(to_json(PnetTable{}), "{\n  \"pnet\": []\n}\n");
}

TEST(Format, Ueid) {
    UeidTable t{{"SMCX-LAB-UEID", "OTHER.EID"}};
    EXPECT_EQ(to_text(t), "SMCX-LAB-UEID\nOTHER.EID\n");
    EXPECT_EQ(to_json(t), "{\n  \"ueids\": [\n    \"SMCX-LAB-UEID\",\n    \"OTHER.EID\"\n  ]\n}\n");
    EXPECT_EQ(to_text(UeidTable{}), "");
}

TEST(Format, SysInfoText) {
    SysInfo s;
    s.version = 2;
    s.release = 1;
    s.smcr_v2 = true;
    s.ism_v2 = false;
    s.hostname = "alpha";
    s.ueids = {"SMCX-LAB-UEID"};
    s.smcr_devices = 1;
    s.smcd_devices = 0;
    const std::string t = to_text(s);
    EXPECT_TRUE(contains(t, "SMC version:      2.1\n")) << t;
    EXPECT_TRUE(contains(t, "Hostname:         alpha\n")) << t;
    EXPECT_TRUE(contains(t, "SMC-R features:   v1 v2\n")) << t;
    EXPECT_TRUE(contains(t, "System EID:       n/a\n")) << t;
    EXPECT_TRUE(contains(t, "User EIDs:        SMCX-LAB-UEID\n")) << t;
    EXPECT_TRUE(contains(t, "RoCE devices:     1\n")) << t;
}

TEST(Format, SysInfoJson) {
    SysInfo s;
    s.version = 2;
    s.release = 1;
    s.smcr_v2 = true;
    s.hostname = "alpha";
    EXPECT_EQ(to_json(s), "{\n"
                          "  \"smc_version\": 2,\n"
                          "  \"smc_release\": 1,\n"
                          "  \"hostname\": \"alpha\",\n"
                          "  \"smcr_v2\": true,\n"
                          "  \"ism_v2\": null,\n"
                          "  \"seid\": null,\n"
                          "  \"ueids\": [],\n"
                          "  \"smcr_devices\": null,\n"
                          "  \"smcd_devices\": null\n"
                          "}\n");
}

TEST(Format, StatsJsonCarriesTheLabCounters) {
    const std::string j = to_json(sample_stats());
    EXPECT_TRUE(contains(j, "  \"smcr\": {\n"
                            "    \"connections\": 10,\n"
                            "    \"v1\": {\n"
                            "      \"clnt_success\": 1,\n"
                            "      \"srv_success\": 3\n"
                            "    },\n"
                            "    \"v2\": {\n"
                            "      \"clnt_success\": 2,\n"
                            "      \"srv_success\": 4\n"
                            "    },\n"
                            "    \"rx\": {\n"
                            "      \"bytes\": 4194304,\n"
                            "      \"cnt\": 20,\n"
                            "      \"rmb_usage\": 65536,\n"))
        << j;
    EXPECT_TRUE(contains(j, "\"handshake_errors\": {\n    \"clnt\": 1,\n    \"srv\": 2\n  }")) << j;
    EXPECT_TRUE(contains(j, "\"fallbacks\": {\n    \"clnt\": 5,\n    \"srv\": 6,\n")) << j;
    EXPECT_TRUE(contains(j, "\"code\": 50397184,\n        \"hex\": \"0x03010000\",\n"
                            "        \"name\": \"PEER_NO_SMC\",\n        \"count\": 6"))
        << j;
    EXPECT_TRUE(contains(j, "\"name\": null")) << j; // unknown reason code
    EXPECT_TRUE(contains(j, "\"over_1024K\": 1")) << j;
    EXPECT_TRUE(contains(j, "\"tx_rmb_size\"") == false) << j;
    EXPECT_TRUE(contains(j, "\"smcd\": {\n    \"connections\": 7,")) << j;
    EXPECT_TRUE(contains(j, "\"rmb_usage\": null")) << j; // SMC-D has no gauge here
    EXPECT_EQ(j.back(), '\n');
}

TEST(Format, StatsTextSummary) {
    StatsView v;
    const std::string t = to_text(sample_stats(), v);
    EXPECT_TRUE(contains(t, "Connections\n")) << t;
    EXPECT_TRUE(contains(t, "Total connections handled                  31")) << t;
    EXPECT_TRUE(contains(t, "TCP fallbacks                              11  (client 5, server 6)"))
        << t;
    EXPECT_TRUE(contains(t, "\nSMC-R\n")) << t;
    EXPECT_TRUE(contains(t, "SMC connections                            10  (client 3, server 7)"))
        << t;
    EXPECT_TRUE(
        contains(t, "    v2                                        6  (client 2, server 4)"))
        << t;
    EXPECT_TRUE(contains(t, "    Data (bytes)                        4194304  (4.0M)")) << t;
    EXPECT_TRUE(contains(t, "\nSMC-D\n")) << t;
    EXPECT_TRUE(
        contains(t, "    Reqs        29       0       0       0       0       0       0       0"
                    "       1\n"))
        << t;
    EXPECT_FALSE(contains(t, "PEER_NO_SMC")) << t; // reasons only with details
}

TEST(Format, StatsTextDetailsAndSmcrOnly) {
    StatsView v;
    v.smcd = false;
    v.details = true;
    const std::string t = to_text(sample_stats(), v);
    EXPECT_FALSE(contains(t, "SMC-D\n")) << t;
    EXPECT_TRUE(contains(t, "server PEER_NO_SMC")) << t;
    EXPECT_TRUE(contains(t, "client NOUEID")) << t;
    EXPECT_TRUE(contains(t, "client 0x7f000001")) << t;
    EXPECT_TRUE(contains(t, "Buffer downgrades")) << t;
    EXPECT_TRUE(contains(t, "RX buffer bytes in use")) << t;
}

TEST(Format, Abbreviate) {
    EXPECT_EQ(abbreviate(0), "0");
    EXPECT_EQ(abbreviate(1023), "1023");
    EXPECT_EQ(abbreviate(1536), "1.5K");
    EXPECT_EQ(abbreviate(4u << 20), "4.0M");
    EXPECT_EQ(abbreviate(3ull << 40), "3.0T");
}
