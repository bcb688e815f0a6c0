// SPDX-License-Identifier: GPL-2.0
#include <gtest/gtest.h>

#include <sstream>
#include <stdexcept>

#include "json.hpp"

using smcctl::JsonWriter;

TEST(Json, NestedDocument) {
    std::ostringstream o;
    JsonWriter j(o);
    j.begin_object();
    j.field("a", 1);
    j.key("b").begin_array().value("x").value(true).null().end_array();
    j.key("c").begin_object().end_object();
    j.key("d").begin_array().end_array();
    j.field("e", std::uint64_t{18446744073709551615ull});
    j.end_object().finish();
    EXPECT_EQ(o.str(), "{\n"
                       "  \"a\": 1,\n"
                       "  \"b\": [\n"
                       "    \"x\",\n"
                       "    true,\n"
                       "    null\n"
                       "  ],\n"
                       "  \"c\": {},\n"
                       "  \"d\": [],\n"
                       "  \"e\": 18446744073709551615\n"
                       "}\n");
}

TEST(Json, Escapes) {
    EXPECT_EQ(JsonWriter::escape("a\"b\\c\n\t\x01"), "a\\\"b\\\\c\\n\\t\\u0001");
}

TEST(Json, MisuseIsALogicError) {
    std::ostringstream o;
    JsonWriter j(o);
    j.begin_object();
    EXPECT_THROW(j.value(1), std::logic_error); // no key
    EXPECT_THROW(j.end_array(), std::logic_error);
    EXPECT_THROW(j.finish(), std::logic_error);
}
