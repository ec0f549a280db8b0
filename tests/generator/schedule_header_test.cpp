// The .schedule.h the generator driver wrote for schedule_header_generator.cpp
// with an autoscheduler named is C++ that compiles here, and applying it to
// a fresh copy of the pipeline gives the schedule the autoscheduler chose
// (the same loop nest) and the values of a plain C++ computation.
#include <gtest/gtest.h>

#include <string>

#include "Halide.h"
#include "schedule_header.schedule.h"
#include "schedule_header_algorithm.h"

using namespace Halide;

namespace {

enum class Schedule { FromHeader, Autoscheduler, None };

// The generator's pipeline (its input and its output Func named as the
// generator names them), scheduled as asked; its loop nest. One at a time:
// while a Func lives, another of its name gets a "$n" suffix.
std::string loop_nest_of(Schedule how, Buffer<int> *realize_into = nullptr, std::string *source = nullptr) {
    const Target target = get_host_target();
    ImageParam in(Int(32), 2, "in");
    Var x("x"), y("y");
    Func out("out");
    out(x, y) = schedule_header_algorithm(in, x, y)(x, y);
    Pipeline p(out);
    if (how == Schedule::FromHeader) {
        apply_schedule_schedule_header(p, target);
    } else if (how == Schedule::Autoscheduler) {
        AutoSchedulerResults r = p.apply_autoscheduler(target, AutoschedulerParams("Mullapudi2016"));
        if (source) {
            *source = r.schedule_source;
        }
    }
    if (realize_into) {
        const int w = realize_into->width(), h = realize_into->height();
        Buffer<int> input(w + 2, h + 2);
        for (int j = 0; j < h + 2; j++) {
            for (int i = 0; i < w + 2; i++) {
                input(i, j) = (i * 13 + j * 7) % 31;
            }
        }
        in.set(input);
        p.realize(*realize_into);
    }
    return p.loop_nest();
}

TEST(ScheduleHeader, AppliesTheAutoschedulersSchedule) {
    const int w = 37, h = 19;
    Buffer<int> out(w, h);
    std::string source;
    const std::string nest = loop_nest_of(Schedule::FromHeader, &out);
    EXPECT_EQ(nest, loop_nest_of(Schedule::Autoscheduler, nullptr, &source));
    EXPECT_NE(nest, loop_nest_of(Schedule::None)); // the header did schedule something
    EXPECT_NE(nest.find("parallel"), std::string::npos) << nest;
    EXPECT_NE(nest.find("vectorized"), std::string::npos) << nest;
    EXPECT_NE(source.find("pipeline.get_func("), std::string::npos) << source;

    auto in_at = [&](int i, int j) { return (i * 13 + j * 7) % 31; };
    for (int j = 0; j < h; j++) {
        for (int i = 0; i < w; i++) {
            ASSERT_EQ(out(i, j), schedule_header_reference(in_at, i, j)) << i << ", " << j;
        }
    }
}

} // namespace
