// SPDX-License-Identifier: GPL-2.0
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <unistd.h>

#include "baseline.hpp"

using namespace smcctl;
namespace fs = std::filesystem;

namespace {

Stats sample() {
    Stats s;
    s.smcr.clnt_v2_succ = 10;
    s.smcr.srv_v2_succ = 20;
    s.smcr.rx_bytes = 1000;
    s.smcr.tx_payload.count[4] = 5;
    s.smcr.rx_buf.alloc = 2;
    s.smcr.rx_rmb_usage = 777;
    s.smcd.tx_cnt = 3;
    s.clnt_fallback = 4;
    s.srv_fallback = 1;
    s.clnt_reasons = {{0x03030008, 4}};
    s.srv_reasons = {{0x03010000, 1}};
    return s;
}

const baseline::Scope scope{"boot-1", "4026531840"};

class TempDir : public ::testing::Test {
protected:
    void SetUp() override {
        dir_ = fs::temp_directory_path() /
               ("smcctl-test-" + std::to_string(::getpid()) + "-" +
                ::testing::UnitTest::GetInstance()->current_test_info()->name());
        fs::remove_all(dir_);
    }
    void TearDown() override { fs::remove_all(dir_); }
    fs::path dir_;
};

} // namespace

TEST(Baseline, RoundTrip) {
    const Stats s = sample();
    const auto parsed = baseline::parse(baseline::serialize(s, scope));
    ASSERT_TRUE(parsed);
    EXPECT_EQ(parsed->second, scope);
    const Stats& p = parsed->first;
    EXPECT_EQ(p.smcr.clnt_v2_succ, 10u);
    EXPECT_EQ(p.smcr.srv_v2_succ, 20u);
    EXPECT_EQ(p.smcr.tx_payload.count[4], 5u);
    EXPECT_EQ(p.smcr.rx_buf.alloc, 2u);
    EXPECT_EQ(p.smcd.tx_cnt, 3u);
    EXPECT_EQ(p.clnt_fallback, 4u);
    EXPECT_EQ(p.clnt_reasons, s.clnt_reasons);
    EXPECT_EQ(p.srv_reasons, s.srv_reasons);
    EXPECT_FALSE(p.smcr.rx_rmb_usage); // gauges are not stored
}

TEST(Baseline, RejectsForeignText) {
    EXPECT_FALSE(baseline::parse(""));
    EXPECT_FALSE(baseline::parse("0           12\n1           13\n")); // smc-tools cache
    EXPECT_FALSE(baseline::parse("smcctl-stats-baseline 1\nsmcr.rx_bytes x12\n"));
}

TEST(Baseline, IgnoresUnknownKeys) {
    const auto p = baseline::parse("smcctl-stats-baseline 1\nfuture.counter 5\nsmcr.rx_cnt 9\n");
    ASSERT_TRUE(p);
    EXPECT_EQ(p->first.smcr.rx_cnt, 9u);
}

TEST(Baseline, Subtract) {
    Stats now = sample();
    now.smcr.clnt_v2_succ = 15;
    now.smcr.rx_bytes = 5000;
    now.smcr.rx_rmb_usage = 999;
    now.clnt_fallback = 6;
    now.clnt_reasons = {{0x03030008, 5}, {0x03010000, 1}};
    now.srv_reasons = {{0x03010000, 1}};
    const auto d = baseline::subtract(now, sample());
    ASSERT_TRUE(d);
    EXPECT_EQ(d->smcr.clnt_v2_succ, 5u);
    EXPECT_EQ(d->smcr.srv_v2_succ, 0u);
    EXPECT_EQ(d->smcr.rx_bytes, 4000u);
    EXPECT_EQ(d->smcr.rx_rmb_usage, 999u); // gauge: the current value
    EXPECT_EQ(d->clnt_fallback, 2u);
    EXPECT_EQ(d->clnt_reasons, (std::vector<FallbackReason>{{0x03030008, 1}, {0x03010000, 1}}));
    EXPECT_TRUE(d->srv_reasons.empty()); // dropped to zero
}

TEST(Baseline, CounterGoingBackwardsMeansStale) {
    Stats now = sample();
    now.smcr.srv_v2_succ = 1;
    EXPECT_FALSE(baseline::subtract(now, sample()));
    Stats lost = sample();
    lost.clnt_reasons.clear();
    EXPECT_FALSE(baseline::subtract(lost, sample()));
}

TEST_F(TempDir, SaveLoadAndScope) {
    const fs::path p = dir_ / "nested" / "stats";
    baseline::save(p, sample(), scope);
    ASSERT_TRUE(fs::exists(p));
    const auto loaded = baseline::load(p, scope);
    ASSERT_TRUE(loaded);
    EXPECT_EQ(loaded->smcr.srv_v2_succ, 20u);
    EXPECT_FALSE(baseline::load(p, baseline::Scope{"boot-2", scope.netns}));
    EXPECT_FALSE(baseline::load(p, baseline::Scope{scope.boot_id, "1"}));
    baseline::discard(p);
    EXPECT_FALSE(fs::exists(p));
    EXPECT_FALSE(baseline::load(p, scope));
}

TEST_F(TempDir, SaveFailureNamesTheFile) {
    fs::create_directories(dir_);
    std::ofstream(dir_ / "file") << "x";
    try {
        baseline::save(dir_ / "file" / "stats", sample(), scope);
        FAIL() << "no exception";
    } catch (const std::runtime_error& e) {
        EXPECT_NE(std::string(e.what()).find((dir_ / "file" / "stats").string()), std::string::npos)
            << e.what();
    }
}

TEST(Baseline, DefaultPathFollowsEnvironment) {
    const char* old_file = std::getenv("SMCCTL_STATS_FILE");
    const char* old_xdg = std::getenv("XDG_CACHE_HOME");
    const std::string saved_file = old_file ? old_file : "";
    const std::string saved_xdg = old_xdg ? old_xdg : "";
    ::unsetenv("SMCCTL_STATS_FILE");
    ::setenv("XDG_CACHE_HOME", "/tmp/xdg", 1);
    EXPECT_EQ(baseline::default_path(), fs::path("/tmp/xdg/smc/stats"));
    ::setenv("SMCCTL_STATS_FILE", "/tmp/other", 1);
    EXPECT_EQ(baseline::default_path(), fs::path("/tmp/other"));
    ::unsetenv("SMCCTL_STATS_FILE");
    ::unsetenv("XDG_CACHE_HOME");
    ::setenv("HOME", "/home/u", 1);
    EXPECT_EQ(baseline::default_path(), fs::path("/home/u/.cache/smc/stats"));
    if (old_file)
        ::setenv("SMCCTL_STATS_FILE", saved_file.c_str(), 1);
    if (old_xdg)
        ::setenv("XDG_CACHE_HOME", saved_xdg.c_str(), 1);
}

TEST(Baseline, CurrentScopeIsFilled) {
    const auto s = baseline::current_scope();
    EXPECT_FALSE(s.netns.empty());
}
