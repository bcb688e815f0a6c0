// SPDX-License-Identifier: GPL-2.0
#include "json.hpp"

#include <cstdio>
#include <stdexcept>

namespace smcctl {

std::string JsonWriter::escape(std::string_view s) {
    std::string r;
    r.reserve(s.size() + 2);
    for (char c : s) {
        switch (c) {
        case '"':
            r += "\\\"";
            break;
        case '\\':
            r += "\\\\";
            break;
        case '\n':
            r += "\\n";
            break;
        case '\r':
            r += "\\r";
            break;
        case '\t':
            r += "\\t";
            break;
        case '\b':
            r += "\\b";
            break;
        case '\f':
            r += "\\f";
            break;
        default:
            if (static_cast<unsigned char>(c) < 0x20) {
                char buf[8];
                std::snprintf(buf, sizeof(buf), "\\u%04x", static_cast<unsigned char>(c));
                r += buf;
            } else {
                r += c;
            }
        }
    }
    return r;
}

void JsonWriter::newline_indent() {
    out_ << '\n';
    for (std::size_t i = 0; i < stack_.size(); ++i)
        out_ << "  ";
}

// Emits the separator and indentation that precede a value (or a key in an object).
void JsonWriter::before_value() {
    if (stack_.empty())
        return;
    level& top = stack_.back();
    if (top.kind == ctx::object) {
        if (!key_pending_)
            throw std::logic_error("JSON value inside an object without a key");
        key_pending_ = false;
        return;
    }
    if (!top.empty)
        out_ << ',';
    top.empty = false;
    newline_indent();
}

JsonWriter& JsonWriter::key(std::string_view k) {
    if (stack_.empty() || stack_.back().kind != ctx::object || key_pending_)
        throw std::logic_error("JSON key outside an object");
    level& top = stack_.back();
    if (!top.empty)
        out_ << ',';
    top.empty = false;
    newline_indent();
    out_ << '"' << escape(k) << "\": ";
    key_pending_ = true;
    return *this;
}

JsonWriter& JsonWriter::begin_object() {
    before_value();
    out_ << '{';
    stack_.push_back({ctx::object});
    return *this;
}

JsonWriter& JsonWriter::end_object() {
    if (stack_.empty() || stack_.back().kind != ctx::object || key_pending_)
        throw std::logic_error("unbalanced JSON object");
    const bool empty = stack_.back().empty;
    stack_.pop_back();
    if (!empty)
        newline_indent();
    out_ << '}';
    return *this;
}

JsonWriter& JsonWriter::begin_array() {
    before_value();
    out_ << '[';
    stack_.push_back({ctx::array});
    return *this;
}

JsonWriter& JsonWriter::end_array() {
    if (stack_.empty() || stack_.back().kind != ctx::array)
        throw std::logic_error("unbalanced JSON array");
    const bool empty = stack_.back().empty;
    stack_.pop_back();
    if (!empty)
        newline_indent();
    out_ << ']';
    return *this;
}

JsonWriter& JsonWriter::value(std::string_view s) {
    before_value();
    out_ << '"' << escape(s) << '"';
    return *this;
}

JsonWriter& JsonWriter::value(std::uint64_t v) {
    before_value();
    out_ << v;
    return *this;
}

JsonWriter& JsonWriter::value(std::int64_t v) {
    before_value();
    out_ << v;
    return *this;
}

JsonWriter& JsonWriter::value(bool b) {
    before_value();
    out_ << (b ? "true" : "false");
    return *this;
}

JsonWriter& JsonWriter::null() {
    before_value();
    out_ << "null";
    return *this;
}

void JsonWriter::finish() {
    if (!stack_.empty())
        throw std::logic_error("unterminated JSON document");
    out_ << '\n';
}

} // namespace smcctl
