// SPDX-License-Identifier: GPL-2.0
// smc_run [-r SIZE] [-t SIZE] [-m afsmc|ipproto] [-d] [-v] [-h] PROGRAM [ARGS...]
//
// Puts libsmc-preload.so in front of LD_PRELOAD, passes the options to it
// through the environment (SMC_RCVBUF, SMC_SNDBUF, SMC_PRELOAD_MODE, SMC_DEBUG)
// and execs PROGRAM, which keeps our pid: signals, exit status and job control
// are the program's own.
#include "run.hpp"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <ostream>
#include <unistd.h>

#include <smcx/version.h>

#include "preload_policy.hpp"

#ifndef SMCX_PRELOAD_INSTALL_PATH
#define SMCX_PRELOAD_INSTALL_PATH "/usr/local/lib/smcx/libsmc-preload.so"
#endif

namespace smcctl::smc_run {

namespace fs = std::filesystem;

namespace {
constexpr const char* lib_name = "libsmc-preload.so";

std::string size_arg(const std::string& opt, const std::string& v) {
    int n;
    if (!smcx::preload::parse_size(v.c_str(), n))
        throw bad_usage("invalid size for " + opt + ": '" + v + "'");
    return v;
}

bool is_file(const fs::path& p) {
    std::error_code ec;
    return fs::is_regular_file(p, ec);
}
} // namespace

std::string usage() {
    return "Usage: smc_run [OPTIONS] PROGRAM [ARGS]\n"
           "Run PROGRAM with its TCP sockets turned into SMC sockets (libsmc-preload.so).\n"
           "  -r SIZE   receive buffer size (SO_RCVBUF) of the SMC sockets; K, M suffixes\n"
           "  -t SIZE   send buffer size (SO_SNDBUF) of the SMC sockets\n"
           "  -m MODE   afsmc: socket(AF_SMC, ...) (default); ipproto: IPPROTO_SMC\n"
           "  -d        debug: report every converted socket on stderr\n"
           "  -v        show version\n"
           "  -h        show this help\n"
           "The library is $SMC_PRELOAD_LIB, or libsmc-preload.so next to smc_run.\n";
}

Options parse(const std::vector<std::string>& argv) {
    Options o;
    std::size_t i = 1;
    for (; i < argv.size(); ++i) {
        const std::string& a = argv[i];
        if (a == "--") {
            ++i;
            break;
        }
        if (a.size() < 2 || a[0] != '-')
            break;
        auto value = [&](const std::string& opt) -> std::string {
            if (a.size() > 2)
                return a.substr(2); // -r64K
            if (i + 1 >= argv.size())
                throw bad_usage("option " + opt + " needs a value");
            return argv[++i];
        };
        const std::string opt = a.substr(0, 2);
        if (opt == "-r")
            o.rcvbuf = size_arg(opt, value(opt));
        else if (opt == "-t")
            o.sndbuf = size_arg(opt, value(opt));
        else if (opt == "-m") {
            o.mode = value(opt);
            smcx::preload::Mode m;
            if (!smcx::preload::parse_mode(o.mode.c_str(), m))
                throw bad_usage("invalid mode '" + o.mode + "' (afsmc or ipproto)");
        } else if (a == "-d")
            o.debug = true;
        else if (a == "-v" || a == "--version")
            o.version = true;
        else if (a == "-h" || a == "--help")
            o.help = true;
        else
            throw bad_usage("unknown option '" + a + "'");
    }
    o.program.assign(argv.begin() + static_cast<std::ptrdiff_t>(std::min(i, argv.size())),
                     argv.end());
    if (!o.version && !o.help && o.program.empty())
        throw bad_usage("no program to run");
    return o;
}

std::string find_library(const char* env_value, const std::string& self_dir) {
    if (env_value && *env_value)
        return is_file(env_value) ? std::string(env_value) : std::string();
    const fs::path self(self_dir);
    for (const fs::path& p :
         {self / lib_name, self / ".." / "preload" / lib_name,
          self / ".." / "lib" / "smcx" / lib_name, fs::path(SMCX_PRELOAD_INSTALL_PATH)}) {
        if (is_file(p))
            return fs::weakly_canonical(p).string();
    }
    return {};
}

std::string ld_preload_value(const std::string& lib, const char* existing) {
    if (!existing || !*existing)
        return lib;
    return lib + " " + existing;
}

int main(const std::vector<std::string>& argv, std::ostream& out, std::ostream& err) {
    Options o;
    try {
        o = parse(argv);
    } catch (const bad_usage& e) {
        err << "smc_run: " << e.what() << '\n' << usage();
        return 2;
    }
    if (o.help) {
        out << usage();
        return 0;
    }
    if (o.version) {
        out << "smc_run (smcx) " << SMCX_VERSION << '\n';
        return 0;
    }

    std::error_code ec;
    const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    const char* env = std::getenv("SMC_PRELOAD_LIB");
    const std::string lib = find_library(env, ec ? std::string(".") : exe.parent_path().string());
    if (lib.empty()) {
        err << "smc_run: cannot find " << lib_name
            << (env && *env ? std::string(" at SMC_PRELOAD_LIB=") + env
                            : std::string(" (set SMC_PRELOAD_LIB)"))
            << '\n';
        return 1;
    }

    const std::string preload = ld_preload_value(lib, std::getenv("LD_PRELOAD"));
    ::setenv("LD_PRELOAD", preload.c_str(), 1);
    ::setenv("SMC_PRELOAD_MODE", o.mode.c_str(), 1);
    if (o.rcvbuf)
        ::setenv("SMC_RCVBUF", o.rcvbuf->c_str(), 1);
    if (o.sndbuf)
        ::setenv("SMC_SNDBUF", o.sndbuf->c_str(), 1);
    if (o.debug) {
        ::setenv("SMC_DEBUG", "1", 1);
        err << "smc_run: LD_PRELOAD=" << preload << " mode=" << o.mode << '\n';
    }
    out.flush();
    err.flush();

    std::vector<char*> args;
    for (const auto& a : o.program)
        args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    ::execvp(args[0], args.data());
    const int e = errno;
    err << "smc_run: " << o.program[0] << ": " << std::strerror(e) << '\n';
    return e == ENOENT ? 127 : 126;
}

} // namespace smcctl::smc_run
