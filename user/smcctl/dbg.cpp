// SPDX-License-Identifier: GPL-2.0
#include "dbg.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "app.hpp"
#include "smcx/version.h"

namespace smcctl::dbg {

namespace fs = std::filesystem;

// ---- file descriptors -----------------------------------------------------------------------

unique_fd& unique_fd::operator=(unique_fd&& o) noexcept {
    if (this != &o)
        reset(o.release());
    return *this;
}

unique_fd::~unique_fd() {
    reset();
}

void unique_fd::reset(int fd) noexcept {
    if (fd_ >= 0)
        ::close(fd_);
    fd_ = fd;
}

// ---- running programs -----------------------------------------------------------------------

std::string ProgramResult::describe() const {
    if (!started)
        return "failed: " + error;
    if (timed_out)
        return "timed out (killed)";
    if (signal)
        return "killed by signal " + std::to_string(signal);
    return exit_code == 0 ? "ok" : "exit " + std::to_string(exit_code);
}

namespace {

// The program's path: PATH, then the admin directories a non-login PATH may lack.
std::string find_program(const std::string& name) {
    if (name.find('/') != std::string::npos)
        return name;
    std::string path = getenv("PATH") ? getenv("PATH") : "";
    path += ":/usr/local/sbin:/usr/sbin:/sbin:/usr/bin:/bin";
    std::size_t b = 0;
    while (b <= path.size()) {
        std::size_t e = path.find(':', b);
        if (e == std::string::npos)
            e = path.size();
        if (e > b) {
            const std::string cand = path.substr(b, e - b) + "/" + name;
            if (::access(cand.c_str(), X_OK) == 0)
                return cand;
        }
        b = e + 1;
    }
    return {};
}

} // namespace

ProgramResult run_program(const std::vector<std::string>& argv, int out_fd,
                          std::chrono::milliseconds timeout) {
    ProgramResult r;
    if (argv.empty()) {
        r.error = "empty command";
        return r;
    }
    const std::string prog = find_program(argv[0]);
    if (prog.empty()) {
        r.error = argv[0] + ": command not found";
        return r;
    }
    // Everything the child needs is prepared before fork: after it, only async-signal-safe
    // calls.
    std::vector<char*> cargv;
    for (const auto& a : argv)
        cargv.push_back(const_cast<char*>(a.c_str()));
    cargv.push_back(nullptr);
    unique_fd devnull(::open("/dev/null", O_RDONLY | O_CLOEXEC));
    int p[2];
    if (::pipe2(p, O_CLOEXEC) < 0) {
        r.error = std::string("pipe: ") + std::strerror(errno);
        return r;
    }
    unique_fd rd(p[0]), wr(p[1]);

    const pid_t pid = ::fork();
    if (pid < 0) {
        r.error = std::string("fork: ") + std::strerror(errno);
        return r;
    }
    if (pid == 0) {
        if (devnull)
            ::dup2(devnull.get(), 0);
        ::dup2(out_fd, 1);
        ::dup2(out_fd, 2);
        ::execv(prog.c_str(), cargv.data());
        const int e = errno;
        [[maybe_unused]] auto n = ::write(wr.get(), &e, sizeof(e));
        ::_exit(127);
    }
    wr.reset();
    // The close-on-exec pipe reads EOF when exec worked, or the child's errno when not.
    int child_errno = 0;
    ssize_t n;
    do
        n = ::read(rd.get(), &child_errno, sizeof(child_errno));
    while (n < 0 && errno == EINTR);
    r.started = n <= 0;
    if (!r.started)
        r.error = prog + ": " + std::strerror(child_errno);

    const auto deadline = std::chrono::steady_clock::now() + timeout;
    int status = 0;
    for (;;) {
        const pid_t w = ::waitpid(pid, &status, WNOHANG);
        if (w == pid)
            break;
        if (w < 0 && errno != EINTR) {
            r.error = std::string("waitpid: ") + std::strerror(errno);
            r.started = false;
            return r;
        }
        if (std::chrono::steady_clock::now() >= deadline && !r.timed_out) {
            ::kill(pid, SIGKILL); // our own child, by its pid
            r.timed_out = true;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    if (WIFEXITED(status))
        r.exit_code = WEXITSTATUS(status);
    else if (WIFSIGNALED(status))
        r.signal = WTERMSIG(status);
    return r;
}

// ---- kernel log -----------------------------------------------------------------------------

std::string format_kmsg_record(std::string_view record) {
    const auto semi = record.find(';');
    if (semi == std::string_view::npos)
        return std::string(record);
    std::string_view head = record.substr(0, semi);
    std::string_view text = record.substr(semi + 1);
    // Continuation lines (" KEY=value") follow after a newline; keep only the message.
    if (auto nl = text.find('\n'); nl != std::string_view::npos)
        text = text.substr(0, nl);
    // head: prio,seq,usec,flags[,...]
    std::size_t c1 = head.find(',');
    std::size_t c2 = c1 == head.npos ? head.npos : head.find(',', c1 + 1);
    std::size_t c3 = c2 == head.npos ? head.npos : head.find(',', c2 + 1);
    if (c2 == head.npos)
        return std::string(text);
    const std::string usec_s(head.substr(c2 + 1, (c3 == head.npos ? head.size() : c3) - c2 - 1));
    unsigned long long usec = 0;
    try {
        usec = std::stoull(usec_s);
    } catch (const std::exception&) {
        return std::string(text);
    }
    char buf[48];
    std::snprintf(buf, sizeof(buf), "[%5llu.%06llu] ", usec / 1000000, usec % 1000000);
    return buf + std::string(text);
}

bool kernel_line_relevant(std::string_view line) {
    std::string l(line);
    std::transform(l.begin(), l.end(), l.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    // Names at the start of a word ("smc:", "smcx", "pf_smc", "rxe0", "ib_core"), so that
    // "processor" is no RoCE message.
    auto starts_word = [&](std::size_t pos) {
        return pos == 0 || !std::isalnum(static_cast<unsigned char>(l[pos - 1]));
    };
    for (const char* word : {"smc", "rxe", "infiniband", "ib_", "rdma", "roce"}) {
        for (auto pos = l.find(word); pos != std::string::npos; pos = l.find(word, pos + 1))
            if (starts_word(pos))
                return true;
    }
    return false;
}

namespace {

// ---- collectors -----------------------------------------------------------------------------

Outcome from_program(const ProgramResult& r) {
    return Outcome{r.ok(), r.describe()};
}

// One of our own views, run in process through the same entry point as the tool.
Collector own(std::string file, std::vector<std::string> argv) {
    std::string what;
    for (const auto& a : argv)
        what += (what.empty() ? "" : " ") + a;
    return Collector{std::move(file), what, [argv](std::ostream& out, int) {
                         std::ostringstream err;
                         const int rc = main_entry(argv, out, err);
                         if (!err.str().empty())
                             out << "\n--- stderr ---\n" << err.str();
                         return Outcome{rc == 0, rc == 0 ? "ok" : "exit " + std::to_string(rc)};
                     }};
}

Collector program(std::string file, std::vector<std::string> argv,
                  std::chrono::milliseconds timeout) {
    std::string what;
    for (const auto& a : argv)
        what += (what.empty() ? "" : " ") + a;
    return Collector{std::move(file), what, [argv, timeout](std::ostream& out, int fd) {
                         out.flush();
                         return from_program(run_program(argv, fd, timeout));
                     }};
}

std::string read_small_file(const fs::path& p) {
    std::ifstream f(p);
    std::ostringstream s;
    s << f.rdbuf();
    std::string v = s.str();
    while (!v.empty() && (v.back() == '\n' || v.back() == ' '))
        v.pop_back();
    return v;
}

// `sysctl -a` restricted to net.smc, read from /proc/sys directly.
Outcome sysctl_smc(std::ostream& out) {
    const fs::path dir = "/proc/sys/net/smc";
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) {
        out << "no " << dir.string() << " (SMC module not loaded?)\n";
        return {false, "failed: no /proc/sys/net/smc"};
    }
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(dir, ec))
        names.push_back(e.path().filename().string());
    std::sort(names.begin(), names.end());
    for (const auto& n : names) {
        std::string v = read_small_file(dir / n);
        std::replace(v.begin(), v.end(), '\t', ' ');
        out << "net.smc." << n << " = " << v << '\n';
    }
    return {};
}

// Versions of the SMC and RDMA modules that are loaded.
Outcome module_versions(std::ostream& out) {
    struct utsname u {};
    if (::uname(&u) == 0)
        out << "kernel: " << u.sysname << ' ' << u.release << ' ' << u.version << ' ' << u.machine
            << '\n';
    out << "smcctl: " << SMCX_VERSION << "\n\n";
    for (const char* m : {"smc", "smc_diag", "smcx", "rdma_rxe", "ib_core", "ib_uverbs"}) {
        const fs::path dir = fs::path("/sys/module") / m;
        std::error_code ec;
        if (!fs::exists(dir, ec)) {
            out << m << ": not loaded\n";
            continue;
        }
        out << m << ":";
        for (const char* attr : {"version", "srcversion", "refcnt", "initstate", "taint"}) {
            const fs::path p = dir / attr;
            if (fs::exists(p, ec))
                out << ' ' << attr << '=' << read_small_file(p);
        }
        out << '\n';
    }
    return {};
}

// Kernel log lines about SMC and RDMA: /dev/kmsg, else dmesg.
Outcome kernel_log(std::ostream& out, std::chrono::milliseconds timeout) {
    unique_fd k(::open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC));
    if (k) {
        std::size_t lines = 0;
        char buf[8192];
        for (;;) {
            const ssize_t n = ::read(k.get(), buf, sizeof(buf));
            if (n < 0 && errno == EPIPE) // overwritten while reading: go on
                continue;
            if (n < 0 && errno == EINTR)
                continue;
            if (n <= 0)
                break;
            const std::string line = format_kmsg_record(std::string_view(buf, std::size_t(n)));
            if (kernel_line_relevant(line)) {
                out << line << '\n';
                ++lines;
            }
        }
        out << "--- " << lines << " matching lines from /dev/kmsg ---\n";
        return {};
    }
    const int open_errno = errno;
    out << "/dev/kmsg: " << std::strerror(open_errno) << "; trying dmesg\n";
    // dmesg output is filtered here, so it goes through a temporary file.
    char tmpl[] = "/tmp/smc_dbg-dmesg-XXXXXX";
    unique_fd tmp(::mkstemp(tmpl));
    if (!tmp)
        return {false, std::string("failed: mkstemp: ") + std::strerror(errno)};
    ::unlink(tmpl);
    const ProgramResult r = run_program({"dmesg"}, tmp.get(), timeout);
    ::lseek(tmp.get(), 0, SEEK_SET);
    std::string all;
    char buf[8192];
    ssize_t n;
    while ((n = ::read(tmp.get(), buf, sizeof(buf))) > 0)
        all.append(buf, std::size_t(n));
    std::istringstream lines(all);
    std::string line;
    while (std::getline(lines, line))
        if (kernel_line_relevant(line) || !r.ok())
            out << line << '\n';
    if (!r.ok())
        return {false, "failed: /dev/kmsg: " + std::string(std::strerror(open_errno)) +
                           "; dmesg: " + r.describe()};
    return {};
}

std::string timestamp(const char* fmt) {
    const std::time_t now = std::time(nullptr);
    std::tm tm{};
    ::localtime_r(&now, &tm);
    char buf[64];
    std::strftime(buf, sizeof(buf), fmt, &tm);
    return buf;
}

std::string hostname() {
    char buf[256] = {};
    if (::gethostname(buf, sizeof(buf) - 1) != 0 || !buf[0])
        return "localhost";
    std::string h = buf;
    std::replace(h.begin(), h.end(), '/', '_');
    return h;
}

// Removes the staging directory whatever happens.
struct remove_on_exit {
    fs::path dir;
    ~remove_on_exit() {
        std::error_code ec;
        if (!dir.empty())
            fs::remove_all(dir, ec);
    }
};

} // namespace

std::vector<Collector> standard_collectors(std::chrono::milliseconds timeout) {
    return {
        own("smcss_all.txt", {"smcss", "--all", "--debug", "--wide"}),
        own("smcss_smcr.txt", {"smcss", "--all", "--smcr", "--wide"}),
        own("smcss_smcd.txt", {"smcss", "--all", "--smcd", "--wide"}),
        own("smcss.json", {"smcss", "--all", "--json"}),
        own("smcr_info.txt", {"smcr", "info"}),
        own("smcr_info.json", {"smcr", "--json", "info"}),
        own("smcr_stats.txt", {"smcctl", "-a", "-d", "stats"}),
        own("smcr_stats.json", {"smcctl", "-a", "--json", "stats"}),
        own("smcr_linkgroups.txt", {"smcr", "-d", "linkgroup", "show"}),
        own("smcr_links.txt", {"smcr", "-dd", "linkgroup", "link-show"}),
        own("smcr_linkgroups.json", {"smcr", "--json", "linkgroup"}),
        own("smcr_devices.txt", {"smcr", "-d", "device"}),
        own("smcr_devices.json", {"smcr", "--json", "device"}),
        own("pnet_table.txt", {"smc_pnet", "-s"}),
        own("pnet_table.json", {"smc_pnet", "--json", "-s"}),
        own("ueid.txt", {"smcr", "ueid", "show"}),
        Collector{"sysctl_net_smc.txt", "sysctl -a (net.smc)",
                  [](std::ostream& out, int) { return sysctl_smc(out); }},
        program("rdma_link.txt", {"rdma", "link", "show"}, timeout),
        program("rdma_dev.txt", {"rdma", "dev", "show"}, timeout),
        program("rdma_resource.txt", {"rdma", "resource", "show"}, timeout),
        program("ip_link.txt", {"ip", "-d", "link", "show"}, timeout),
        program("ip_addr.txt", {"ip", "addr", "show"}, timeout),
        Collector{"modules.txt", "module versions (/sys/module)",
                  [](std::ostream& out, int) { return module_versions(out); }},
        program("modinfo_smc.txt", {"modinfo", "smc", "smc_diag"}, timeout),
        Collector{"modinfo_smcx.txt", "modinfo smcx (when loaded)",
                  [timeout](std::ostream& out, int fd) {
                      std::error_code ec;
                      if (!fs::exists("/sys/module/smcx", ec)) {
                          out << "smcx: not loaded\n";
                          return Outcome{};
                      }
                      out.flush();
                      return from_program(run_program({"modinfo", "smcx"}, fd, timeout));
                  }},
        Collector{"kernel_log.txt", "kernel log lines about SMC/RDMA",
                  [timeout](std::ostream& out, int) { return kernel_log(out, timeout); }},
    };
}

std::string default_name() {
    return "smc_dbg-" + hostname() + "-" + timestamp("%Y%m%d-%H%M%S");
}

BundleResult make_bundle(const std::vector<Collector>& collectors, const std::string& archive,
                         const std::string& name, std::ostream& progress) {
    // A bad -o fails now, not after all the collecting.
    {
        fs::path dir = fs::path(archive).parent_path();
        if (dir.empty())
            dir = ".";
        if (::access(dir.c_str(), W_OK | X_OK) != 0)
            throw std::runtime_error("cannot write " + archive + ": " + dir.string() + ": " +
                                     std::strerror(errno));
    }
    char tmpl[] = "/tmp/smc_dbg.XXXXXX";
    if (!::mkdtemp(tmpl))
        throw std::runtime_error(std::string("cannot create a staging directory: ") +
                                 std::strerror(errno));
    remove_on_exit cleanup{tmpl};
    const fs::path stage = fs::path(tmpl) / name;
    fs::create_directory(stage);

    BundleResult res;
    res.archive = archive;
    std::ostringstream summary;
    summary << "smc_dbg (smcx " << SMCX_VERSION << ") on " << hostname() << " at "
            << timestamp("%Y-%m-%d %H:%M:%S %z") << "\n\n";
    for (const auto& c : collectors) {
        ++res.collectors;
        const fs::path file = stage / c.file;
        const auto t0 = std::chrono::steady_clock::now();
        Outcome o;
        {
            std::ofstream out(file, std::ios::app);
            unique_fd fd(::open(file.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC));
            if (!out || !fd) {
                o = {false, "failed: cannot create " + file.string()};
            } else {
                try {
                    o = c.run(out, fd.get());
                } catch (const std::exception& e) {
                    o = {false, std::string("failed: ") + e.what()};
                }
                out.flush();
                if (!o.ok)
                    out << "\n--- smc_dbg: " << c.what << ": " << o.status << " ---\n";
            }
        }
        const double secs =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        if (!o.ok)
            ++res.failed;
        char line[512];
        std::snprintf(line, sizeof(line), "%-24s %-40s %6.2fs  %s\n", c.file.c_str(),
                      c.what.substr(0, 40).c_str(), secs, o.status.c_str());
        summary << line;
    }
    summary << '\n' << res.failed << " of " << res.collectors << " collectors failed\n";
    {
        std::ofstream s(stage / "summary.txt");
        s << summary.str();
    }

    unique_fd log(::open("/dev/null", O_WRONLY | O_CLOEXEC));
    char errtmpl[] = "/tmp/smc_dbg-tar-XXXXXX";
    unique_fd err(::mkstemp(errtmpl));
    if (err)
        ::unlink(errtmpl);
    const ProgramResult tar = run_program({"tar", "-czf", archive, "-C", tmpl, name},
                                          err ? err.get() : log.get(), std::chrono::seconds(120));
    if (!tar.ok()) {
        std::string msg;
        if (err) {
            ::lseek(err.get(), 0, SEEK_SET);
            char buf[1024];
            const ssize_t n = ::read(err.get(), buf, sizeof(buf));
            if (n > 0)
                msg.assign(buf, std::size_t(n));
            msg = msg.substr(0, msg.find('\n')); // tar's first line names the problem
        }
        throw std::runtime_error("cannot write " + archive + ": tar " + tar.describe() +
                                 (msg.empty() ? "" : ": " + msg));
    }
    progress << "smc_dbg: " << res.collectors << " collectors, " << res.failed << " failed (see "
             << name << "/summary.txt)\n";
    return res;
}

} // namespace smcctl::dbg
