// SPDX-License-Identifier: GPL-2.0
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "preload_policy.hpp"
#include "run.hpp"

using namespace smcx::preload;
namespace run = smcctl::smc_run;

TEST(Policy, ConvertsOnlyInetTcpStreams) {
    EXPECT_TRUE(is_tcp({AF_INET, SOCK_STREAM, 0}));
    EXPECT_TRUE(is_tcp({AF_INET6, SOCK_STREAM, IPPROTO_TCP}));
    EXPECT_TRUE(is_tcp({AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0}));
    EXPECT_FALSE(is_tcp({AF_INET, SOCK_DGRAM, 0}));
    EXPECT_FALSE(is_tcp({AF_INET, SOCK_STREAM, IPPROTO_SCTP}));
    EXPECT_FALSE(is_tcp({AF_INET, SOCK_STREAM, 262})); // MPTCP
    EXPECT_FALSE(is_tcp({AF_UNIX, SOCK_STREAM, 0}));
    EXPECT_FALSE(is_tcp({af_smc, SOCK_STREAM, 0}));
    EXPECT_FALSE(is_tcp({AF_INET, SOCK_STREAM, ipproto_smc}));
}

TEST(Policy, SmcCallKeepsFlagsAndFamily) {
    const int t = SOCK_STREAM | SOCK_CLOEXEC;
    auto a = smc_call({AF_INET, t, 0}, Mode::afsmc);
    EXPECT_EQ(a.domain, af_smc);
    EXPECT_EQ(a.type, t);
    EXPECT_EQ(a.protocol, smcproto_smc);
    a = smc_call({AF_INET6, t, IPPROTO_TCP}, Mode::afsmc);
    EXPECT_EQ(a.protocol, smcproto_smc6);
    a = smc_call({AF_INET6, t, 0}, Mode::ipproto);
    EXPECT_EQ(a.domain, AF_INET6);
    EXPECT_EQ(a.type, t);
    EXPECT_EQ(a.protocol, ipproto_smc);
}

TEST(Policy, Modes) {
    Mode m = Mode::ipproto;
    EXPECT_TRUE(parse_mode(nullptr, m));
    EXPECT_EQ(m, Mode::afsmc);
    EXPECT_TRUE(parse_mode("ipproto", m));
    EXPECT_EQ(m, Mode::ipproto);
    EXPECT_TRUE(parse_mode("afsmc", m));
    EXPECT_EQ(m, Mode::afsmc);
    EXPECT_FALSE(parse_mode("tcp", m));
}

TEST(Policy, Sizes) {
    int v = 0;
    EXPECT_TRUE(parse_size("65536", v));
    EXPECT_EQ(v, 65536);
    EXPECT_TRUE(parse_size("64K", v));
    EXPECT_EQ(v, 65536);
    EXPECT_TRUE(parse_size("1m", v));
    EXPECT_EQ(v, 1 << 20);
    EXPECT_TRUE(parse_size("16KiB", v));
    EXPECT_EQ(v, 16384);
    for (const char* bad : {"", "0", "-1", "K", "12x", "2G", "99999999999", "1 K"})
        EXPECT_FALSE(parse_size(bad, v)) << bad;
}

TEST(SmcRun, Options) {
    auto o = run::parse({"smc_run", "-r", "1M", "-t64K", "-m", "ipproto", "-d", "prog", "-r", "x"});
    EXPECT_EQ(o.rcvbuf.value(), "1M");
    EXPECT_EQ(o.sndbuf.value(), "64K");
    EXPECT_EQ(o.mode, "ipproto");
    EXPECT_TRUE(o.debug);
    EXPECT_EQ(o.program, (std::vector<std::string>{"prog", "-r", "x"}));
    o = run::parse({"smc_run", "--", "-weird"});
    EXPECT_EQ(o.program, (std::vector<std::string>{"-weird"}));
    EXPECT_TRUE(run::parse({"smc_run", "-v"}).version);
    EXPECT_THROW(run::parse({"smc_run"}), run::bad_usage);
    EXPECT_THROW(run::parse({"smc_run", "-r"}), run::bad_usage);
    EXPECT_THROW(run::parse({"smc_run", "-r", "abc", "true"}), run::bad_usage);
    EXPECT_THROW(run::parse({"smc_run", "-m", "tcp", "true"}), run::bad_usage);
    EXPECT_THROW(run::parse({"smc_run", "-x", "true"}), run::bad_usage);
}

TEST(SmcRun, LdPreloadKeepsExisting) {
    EXPECT_EQ(run::ld_preload_value("/a.so", nullptr), "/a.so");
    EXPECT_EQ(run::ld_preload_value("/a.so", ""), "/a.so");
    EXPECT_EQ(run::ld_preload_value("/a.so", "/b.so"), "/a.so /b.so");
}

TEST(SmcRun, FindsLibrary) {
    namespace fs = std::filesystem;
    const fs::path d = fs::temp_directory_path() / ("smc_run_test." + std::to_string(getpid()));
    fs::create_directories(d / "bin");
    fs::create_directories(d / "preload");
    EXPECT_EQ(run::find_library(nullptr, (d / "bin").string()), std::string()) << "nothing yet";
    std::ofstream(d / "preload" / "libsmc-preload.so") << "x";
    EXPECT_EQ(run::find_library(nullptr, (d / "bin").string()),
              (d / "preload" / "libsmc-preload.so").string());
    std::ofstream(d / "bin" / "libsmc-preload.so") << "x";
    EXPECT_EQ(run::find_library(nullptr, (d / "bin").string()),
              (d / "bin" / "libsmc-preload.so").string());
    const std::string env = (d / "preload" / "libsmc-preload.so").string();
    EXPECT_EQ(run::find_library(env.c_str(), "/nonexistent"), env);
    EXPECT_EQ(run::find_library("/nonexistent/lib.so", (d / "bin").string()), std::string());
    fs::remove_all(d);
}

// The real library in a child: it loads into an unmodified program and passes
// other sockets through.  (No TCP socket here: on the build host that could
// autoload smc.ko; the lab selftests cover conversion.)
TEST(Library, LoadsAndNeverBreaksSockets) {
    const pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
        setenv("LD_PRELOAD", PRELOAD_LIB, 1);
        execl("/usr/bin/python3", "python3", "-c",
              "import socket\n"
              "u=socket.socket(socket.AF_INET, socket.SOCK_DGRAM)\n"
              "assert u.getsockopt(socket.SOL_SOCKET, socket.SO_PROTOCOL)==17\n"
              "x=socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)\n"
              "u.close(); x.close()\n",
              static_cast<char*>(nullptr));
        _exit(99);
    }
    int st = 0;
    ASSERT_EQ(waitpid(pid, &st, 0), pid);
    if (WIFEXITED(st) && WEXITSTATUS(st) == 99)
        GTEST_SKIP() << "no python3";
    EXPECT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0) << st;
}
