// SPDX-License-Identifier: GPL-2.0
// smc_dbg: a diagnostic bundle.  Every collector writes one file into a staging directory;
// a collector that fails records its error (in its file and in summary.txt) and the bundle
// is written anyway.  The staging directory becomes one .tar.gz made by the system's tar.
#pragma once

#include <chrono>
#include <functional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace smcctl::dbg {

// An owned file descriptor.
class unique_fd {
public:
    unique_fd() = default;
    explicit unique_fd(int fd) noexcept : fd_(fd) {}
    unique_fd(unique_fd&& o) noexcept : fd_(o.release()) {}
    unique_fd& operator=(unique_fd&& o) noexcept;
    unique_fd(const unique_fd&) = delete;
    unique_fd& operator=(const unique_fd&) = delete;
    ~unique_fd();

    int get() const noexcept { return fd_; }
    explicit operator bool() const noexcept { return fd_ >= 0; }
    int release() noexcept {
        const int fd = fd_;
        fd_ = -1;
        return fd;
    }
    void reset(int fd = -1) noexcept;

private:
    int fd_ = -1;
};

// How a program run ended.
struct ProgramResult {
    bool started = false;   // exec succeeded
    int exit_code = -1;     // when it exited
    int signal = 0;         // when a signal ended it
    bool timed_out = false; // killed after the time limit
    std::string error;      // why it did not start, or empty

    bool ok() const { return started && !timed_out && signal == 0 && exit_code == 0; }
    std::string describe() const; // "exit 0", "exit 2", "killed by signal 9", "timed out", ...
};

// Runs argv (PATH search, plus /usr/sbin and /sbin) with stdin from /dev/null and stdout and
// stderr appended to `out_fd`; kills it after `timeout`.
ProgramResult run_program(const std::vector<std::string>& argv, int out_fd,
                          std::chrono::milliseconds timeout);

// What one collector reports; its output goes to the stream it is given.
struct Outcome {
    bool ok = true;
    std::string status = "ok"; // "ok", "exit 1", "failed: ...", shown in summary.txt
};

struct Collector {
    std::string file; // path inside the bundle
    std::string what; // what it collects, for summary.txt
    std::function<Outcome(std::ostream& out, int out_fd)> run;
};

// The standard set: smcctl's own views (in process), sysctl, RDMA and interface state,
// module versions, the kernel log.
std::vector<Collector> standard_collectors(std::chrono::milliseconds timeout);

struct BundleResult {
    std::string archive;
    std::size_t collectors = 0;
    std::size_t failed = 0;
};

// Runs the collectors into a staging directory named `name` and archives it to `archive`.
// Throws std::runtime_error when no archive could be written.
BundleResult make_bundle(const std::vector<Collector>& collectors, const std::string& archive,
                         const std::string& name, std::ostream& progress);

// "smc_dbg-HOST-YYYYmmdd-HHMMSS" for now.
std::string default_name();

// Kernel log records (/dev/kmsg: "PRIO,SEQ,USEC,FLAGS;TEXT") as "[  SEC.USEC] TEXT".
std::string format_kmsg_record(std::string_view record);
// Whether a kernel log line concerns SMC or RDMA (smc, smcx, rxe, infiniband, ib_*, rdma).
bool kernel_line_relevant(std::string_view line);

} // namespace smcctl::dbg
