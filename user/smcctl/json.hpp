// SPDX-License-Identifier: GPL-2.0
// A small streaming JSON writer: objects, arrays, strings, integers, booleans, null.
// Output is indented with two spaces; keys keep their insertion order.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace smcctl {

class JsonWriter {
public:
    explicit JsonWriter(std::ostream& out) : out_(out) {}
    JsonWriter(const JsonWriter&) = delete;
    JsonWriter& operator=(const JsonWriter&) = delete;

    JsonWriter& begin_object();
    JsonWriter& end_object();
    JsonWriter& begin_array();
    JsonWriter& end_array();

    // Inside an object: the key of the next value.
    JsonWriter& key(std::string_view k);

    JsonWriter& value(std::string_view s);
    JsonWriter& value(const char* s) { return value(std::string_view(s)); }
    JsonWriter& value(const std::string& s) { return value(std::string_view(s)); }
    JsonWriter& value(std::uint64_t v);
    JsonWriter& value(std::int64_t v);
    JsonWriter& value(unsigned v) { return value(static_cast<std::uint64_t>(v)); }
    JsonWriter& value(int v) { return value(static_cast<std::int64_t>(v)); }
    JsonWriter& value(bool b);
    JsonWriter& null();

    // key(k).value(v)
    template <typename T> JsonWriter& field(std::string_view k, const T& v) {
        key(k);
        return value(v);
    }

    // Terminates the document with a newline; every container must be closed.
    void finish();

    static std::string escape(std::string_view s);

private:
    enum class ctx { object, array };
    struct level {
        ctx kind;
        bool empty = true;
    };

    void before_value();
    void newline_indent();

    std::ostream& out_;
    std::vector<level> stack_;
    bool key_pending_ = false;
};

} // namespace smcctl
