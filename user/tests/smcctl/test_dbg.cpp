// SPDX-License-Identifier: GPL-2.0
// smc_dbg: command line, running programs, kernel log filtering, the bundle.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "cli.hpp"
#include "cli_util.hpp"
#include "dbg.hpp"

using namespace smcctl;
using namespace smcctl::test;
using namespace std::chrono_literals;
namespace fs = std::filesystem;

namespace {

// A temporary directory for one test, removed afterwards.
class TempDir {
public:
    TempDir() {
        char tmpl[] = "/tmp/smcctl-test-XXXXXX";
        if (!::mkdtemp(tmpl))
            throw std::runtime_error("mkdtemp");
        path_ = tmpl;
    }
    ~TempDir() {
        std::error_code ec;
        fs::remove_all(path_, ec);
    }
    const fs::path& path() const { return path_; }

private:
    fs::path path_;
};

std::string slurp(const fs::path& p) {
    std::string s;
    if (FILE* f = std::fopen(p.c_str(), "r")) {
        char buf[4096];
        std::size_t n;
        while ((n = std::fread(buf, 1, sizeof(buf), f)) > 0)
            s.append(buf, n);
        std::fclose(f);
    }
    return s;
}

// Output of a program run into a temporary file.
struct Captured {
    dbg::ProgramResult r;
    std::string out;
};

Captured capture(const std::vector<std::string>& argv, std::chrono::milliseconds timeout = 5s) {
    TempDir d;
    const fs::path f = d.path() / "out";
    dbg::unique_fd fd(::open(f.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600));
    Captured c{dbg::run_program(argv, fd.get(), timeout), {}};
    c.out = slurp(f);
    return c;
}

std::vector<std::string> tar_list(const fs::path& archive) {
    TempDir d;
    const fs::path f = d.path() / "list";
    dbg::unique_fd fd(::open(f.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600));
    const auto r = dbg::run_program({"tar", "-tzf", archive.string()}, fd.get(), 10s);
    EXPECT_TRUE(r.ok()) << r.describe();
    std::vector<std::string> names;
    std::istringstream in(slurp(f));
    std::string line;
    while (std::getline(in, line))
        names.push_back(line);
    return names;
}

} // namespace

// ---- command line ----------------------------------------------------------------------------

TEST(DbgCli, Options) {
    auto inv = parse_command_line({"smc_dbg"});
    ASSERT_TRUE(std::holds_alternative<cmd::DbgCollect>(inv.command));
    EXPECT_FALSE(std::get<cmd::DbgCollect>(inv.command).output);
    inv = parse_command_line({"/usr/sbin/smc_dbg", "-o", "/tmp/x.tgz"});
    EXPECT_EQ(std::get<cmd::DbgCollect>(inv.command).output, "/tmp/x.tgz");
    inv = parse_command_line({"smc_dbg", "-o/tmp/y.tgz", "-t"});
    EXPECT_EQ(std::get<cmd::DbgCollect>(inv.command).output, "/tmp/y.tgz");
    inv = parse_command_line({"smc_dbg", "--output=/tmp/z.tgz"});
    EXPECT_EQ(std::get<cmd::DbgCollect>(inv.command).output, "/tmp/z.tgz");
    inv = parse_command_line({"smc_dbg", "--out", "/tmp/w.tgz"});
    EXPECT_EQ(std::get<cmd::DbgCollect>(inv.command).output, "/tmp/w.tgz");
    EXPECT_TRUE(
        std::holds_alternative<cmd::Version>(parse_command_line({"smc_dbg", "-v"}).command));
    EXPECT_TRUE(std::holds_alternative<cmd::Help>(parse_command_line({"smc_dbg", "-h"}).command));
}

TEST(DbgCli, Errors) {
    auto err = [](std::vector<std::string> argv) -> std::string {
        try {
            parse_command_line(argv);
        } catch (const usage_error& e) {
            return e.what();
        }
        return {};
    };
    EXPECT_TRUE(contains(err({"smc_dbg", "-o"}), "needs a value"));
    EXPECT_TRUE(contains(err({"smc_dbg", "-x"}), "unknown option"));
    EXPECT_TRUE(contains(err({"smc_dbg", "extra"}), "unexpected argument"));
    EXPECT_TRUE(contains(err({"smc_dbg", "--output="}), "empty output path"));
}

// ---- programs --------------------------------------------------------------------------------

TEST(DbgRun, ExitCodesAndOutput) {
    auto c = capture({"sh", "-c", "echo out; echo err >&2; exit 3"});
    EXPECT_TRUE(c.r.started);
    EXPECT_EQ(c.r.exit_code, 3);
    EXPECT_FALSE(c.r.ok());
    EXPECT_EQ(c.r.describe(), "exit 3");
    EXPECT_TRUE(contains(c.out, "out\n"));
    EXPECT_TRUE(contains(c.out, "err\n"));
    c = capture({"true"});
    EXPECT_TRUE(c.r.ok());
    EXPECT_EQ(c.r.describe(), "ok");
}

TEST(DbgRun, MissingProgram) {
    const auto c = capture({"smcctl-no-such-program"});
    EXPECT_FALSE(c.r.started);
    EXPECT_TRUE(contains(c.r.describe(), "command not found")) << c.r.describe();
    const auto d = capture({"/nonexistent/prog"});
    EXPECT_FALSE(d.r.started);
    EXPECT_TRUE(contains(d.r.describe(), "No such file")) << d.r.describe();
}

TEST(DbgRun, TimeoutKills) {
    const auto t0 = std::chrono::steady_clock::now();
    const auto c = capture({"sleep", "30"}, 200ms);
    EXPECT_TRUE(c.r.timed_out);
    EXPECT_EQ(c.r.describe(), "timed out (killed)");
    EXPECT_LT(std::chrono::steady_clock::now() - t0, 10s);
}

TEST(DbgRun, StdinIsEmpty) {
    const auto c = capture({"cat"}, 5s);
    EXPECT_TRUE(c.r.ok());
    EXPECT_EQ(c.out, "");
}

// ---- kernel log ------------------------------------------------------------------------------

TEST(DbgKmsg, RecordFormat) {
    EXPECT_EQ(dbg::format_kmsg_record("6,1234,19454134,-;NET: Registered PF_SMC protocol family"),
              "[   19.454134] NET: Registered PF_SMC protocol family");
    EXPECT_EQ(dbg::format_kmsg_record("4,5,7065301,-,caller=T1;rdma_rxe: loaded\n SUBSYSTEM=x"),
              "[    7.065301] rdma_rxe: loaded");
    EXPECT_EQ(dbg::format_kmsg_record("no header"), "no header");
}

TEST(DbgKmsg, Relevance) {
    EXPECT_TRUE(dbg::kernel_line_relevant("smc: adding ib device rxe0 with port count 1"));
    EXPECT_TRUE(dbg::kernel_line_relevant("NET: Registered PF_SMC protocol family"));
    EXPECT_TRUE(dbg::kernel_line_relevant("infiniband rxe0: set active"));
    EXPECT_TRUE(dbg::kernel_line_relevant("smcx: loaded"));
    EXPECT_TRUE(dbg::kernel_line_relevant("ib_core: something"));
    EXPECT_FALSE(dbg::kernel_line_relevant("smpboot: Total of 1 processors activated"));
    EXPECT_FALSE(dbg::kernel_line_relevant("tsc: Detected 2594.389 MHz processor"));
    EXPECT_FALSE(dbg::kernel_line_relevant("virtio_net virtio0 eth0: renamed"));
}

// ---- the bundle ------------------------------------------------------------------------------

TEST(DbgBundle, FailuresAreRecordedAndTheArchiveIsWritten) {
    TempDir d;
    const fs::path archive = d.path() / "bundle.tar.gz";
    std::vector<dbg::Collector> cs{
        {"good.txt", "good",
         [](std::ostream& out, int) {
             out << "hello\n";
             return dbg::Outcome{};
         }},
        {"bad.txt", "bad",
         [](std::ostream& out, int) {
             out << "partial\n";
             return dbg::Outcome{false, "exit 1"};
         }},
        {"throws.txt", "throws",
         [](std::ostream&, int) -> dbg::Outcome { throw std::runtime_error("boom"); }},
        {"prog.txt", "program",
         [](std::ostream& out, int fd) {
             out << "before\n";
             out.flush();
             const auto r = dbg::run_program({"sh", "-c", "echo from-child"}, fd, 5s);
             return dbg::Outcome{r.ok(), r.describe()};
         }},
    };
    std::ostringstream progress;
    const auto res = dbg::make_bundle(cs, archive.string(), "smc_dbg-test", progress);
    EXPECT_EQ(res.collectors, 4u);
    EXPECT_EQ(res.failed, 2u);
    EXPECT_TRUE(contains(progress.str(), "4 collectors, 2 failed")) << progress.str();
    ASSERT_TRUE(fs::exists(archive));

    auto names = tar_list(archive);
    std::sort(names.begin(), names.end());
    EXPECT_EQ(names,
              (std::vector<std::string>{"smc_dbg-test/", "smc_dbg-test/bad.txt",
                                        "smc_dbg-test/good.txt", "smc_dbg-test/prog.txt",
                                        "smc_dbg-test/summary.txt", "smc_dbg-test/throws.txt"}));

    // Unpack and look inside.
    TempDir x;
    dbg::unique_fd null(::open("/dev/null", O_WRONLY | O_CLOEXEC));
    ASSERT_TRUE(dbg::run_program({"tar", "-xzf", archive.string(), "-C", x.path().string()},
                                 null.get(), 10s)
                    .ok());
    const fs::path dir = x.path() / "smc_dbg-test";
    EXPECT_EQ(slurp(dir / "good.txt"), "hello\n");
    EXPECT_TRUE(contains(slurp(dir / "bad.txt"), "partial\n\n--- smc_dbg: bad: exit 1 ---"));
    EXPECT_TRUE(contains(slurp(dir / "throws.txt"), "failed: boom"));
    EXPECT_EQ(slurp(dir / "prog.txt"), "before\nfrom-child\n");
    const std::string summary = slurp(dir / "summary.txt");
    EXPECT_TRUE(contains(summary, "good.txt")) << summary;
    EXPECT_TRUE(contains(summary, "failed: boom")) << summary;
    EXPECT_TRUE(contains(summary, "2 of 4 collectors failed")) << summary;
}

TEST(DbgBundle, UnwritableArchiveThrows) {
    std::vector<dbg::Collector> cs{
        {"a.txt", "a", [](std::ostream&, int) { return dbg::Outcome{}; }}};
    std::ostringstream progress;
    try {
        dbg::make_bundle(cs, "/nonexistent-dir/x.tar.gz", "smc_dbg-test", progress);
        FAIL() << "no exception";
    } catch (const std::runtime_error& e) {
        EXPECT_TRUE(contains(e.what(), "cannot write /nonexistent-dir/x.tar.gz")) << e.what();
    }
}

TEST(DbgBundle, TarFailureIsReported) {
    TempDir d;
    // The directory exists, but the archive path is a directory: tar itself fails.
    fs::create_directory(d.path() / "sub.tar.gz");
    std::vector<dbg::Collector> cs{
        {"a.txt", "a", [](std::ostream&, int) { return dbg::Outcome{}; }}};
    std::ostringstream progress;
    try {
        dbg::make_bundle(cs, (d.path() / "sub.tar.gz").string(), "smc_dbg-test", progress);
        FAIL() << "no exception";
    } catch (const std::runtime_error& e) {
        EXPECT_TRUE(contains(e.what(), ": tar exit ")) << e.what();
        EXPECT_FALSE(contains(e.what(), "\n")) << e.what();
    }
}

TEST(DbgBundle, StandardCollectorsCoverTheBrief) {
    const auto cs = dbg::standard_collectors(1s);
    std::vector<std::string> files;
    for (const auto& c : cs)
        files.push_back(c.file);
    for (const char* f : {"smcss_all.txt",
                          "smcss.json",
                          "smcr_info.txt",
                          "smcr_info.json",
                          "smcr_stats.txt",
                          "smcr_stats.json",
                          "smcr_linkgroups.txt",
                          "smcr_links.txt",
                          "smcr_linkgroups.json",
                          "smcr_devices.txt",
                          "smcr_devices.json",
                          "pnet_table.txt",
                          "ueid.txt",
                          "sysctl_net_smc.txt",
                          "rdma_link.txt",
                          "rdma_resource.txt",
                          "ip_link.txt",
                          "ip_addr.txt",
                          "modules.txt",
                          "kernel_log.txt"})
        EXPECT_NE(std::find(files.begin(), files.end(), f), files.end()) << f;
    auto sorted = files;
    std::sort(sorted.begin(), sorted.end());
    EXPECT_EQ(std::adjacent_find(sorted.begin(), sorted.end()), sorted.end()) << "duplicate";
}

TEST(DbgBundle, DefaultName) {
    const std::string n = dbg::default_name();
    EXPECT_EQ(n.rfind("smc_dbg-", 0), 0u) << n;
    EXPECT_EQ(std::count(n.begin(), n.end(), '/'), 0);
}
