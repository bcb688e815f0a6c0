// SPDX-License-Identifier: GPL-2.0
// The statistics baseline behind `stats reset`: a per-user file holding the counters at the
// time of the reset, subtracted from later readings.  The kernel's counters never change.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "model.hpp"

namespace smcctl::baseline {

// Where the baseline lives: $SMCCTL_STATS_FILE, else $XDG_CACHE_HOME/smc/stats, else
// $HOME/.cache/smc/stats (home from the password database when HOME is unset).
std::filesystem::path default_path();

// What a baseline is only valid for: one boot and one network namespace (the counters are
// per namespace and restart with the module).
struct Scope {
    std::string boot_id;
    std::string netns;

    bool operator==(const Scope&) const = default;
};
Scope current_scope();

std::string serialize(const Stats& s, const Scope& scope);
// nullopt when the text is not a baseline of this format.
std::optional<std::pair<Stats, Scope>> parse(std::string_view text);

// now - base.  nullopt when some counter went backwards (the module was reloaded), in which
// case the baseline is stale.  Gauges are taken from `now` unchanged; fallback reasons that
// drop to zero disappear.
std::optional<Stats> subtract(const Stats& now, const Stats& base);

// The stored baseline for this scope, if there is a valid one.
std::optional<Stats> load(const std::filesystem::path& path, const Scope& scope);
// Atomically replaces the baseline; throws std::runtime_error naming the file and cause.
void save(const std::filesystem::path& path, const Stats& s, const Scope& scope);
// Removes a stale baseline; errors are ignored.
void discard(const std::filesystem::path& path) noexcept;

} // namespace smcctl::baseline
