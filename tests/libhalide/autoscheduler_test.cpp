// Pipeline::apply_autoscheduler, add_autoscheduler and load_plugin: the
// built-in heuristic under upstream's names schedules real pipelines (the
// loop nest shows it) without changing a value (plain C++ references).
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "Halide.h"
#include "error_message.h"

using namespace Halide;

namespace {

bool has(const std::string &text, const std::string &part) {
    return text.find(part) != std::string::npos;
}

TEST(Autoscheduler, BlurIsScheduledAndKeepsItsValues) {
    Var x("x"), y("y");
    Func in("in"), blur_x("blur_x"), out("out");
    in(x, y) = x * 7 + y * 3;
    blur_x(x, y) = in(x - 1, y) + in(x, y) + in(x + 1, y);
    out(x, y) = (blur_x(x, y - 1) + blur_x(x, y) + blur_x(x, y + 1)) / 9;
    out.set_estimates({{0, 1000}, {0, 1000}});
    Pipeline p(out);
    Target t = get_jit_target_from_environment();
    AutoSchedulerResults r = p.apply_autoscheduler(t, AutoschedulerParams("Li2018"));
    EXPECT_EQ(r.autoscheduler_params.name, "Li2018");
    EXPECT_EQ(r.target, t);
    EXPECT_TRUE(r.featurization.empty());
    // blur_x is read at three rows: computed once, at root; `in` is cheap: inlined.
    EXPECT_TRUE(has(r.schedule_source, "blur_x.compute_root()")) << r.schedule_source;
    EXPECT_FALSE(has(r.schedule_source, "in.compute_root()")) << r.schedule_source;
    std::string nest = p.loop_nest();
    EXPECT_TRUE(has(nest, "parallel")) << nest;
    EXPECT_TRUE(has(nest, "vectorized")) << nest;

    Buffer<int> result = p.realize({37, 11});
    for (int j = 0; j < 11; j++) {
        for (int i = 0; i < 37; i++) {
            int s = 0;
            for (int dy = -1; dy <= 1; dy++) {
                for (int dx = -1; dx <= 1; dx++) {
                    s += (i + dx) * 7 + (j + dy) * 3;
                }
            }
            ASSERT_EQ(result(i, j), s / 9) << "at " << i << ", " << j;
        }
    }
}

TEST(Autoscheduler, UpdatesAndTuplesKeepTheirValues) {
    Var x("x"), y("y");
    RDom r(0, 5, "r");
    Func f("f"), g("g");
    f(x, y) = x + y;
    f(x, y) += f(x, y) * 2; // a pure update: vectorized and parallel
    g(x, y) = Tuple(cast<int16_t>(0), 0);
    g(x, y) = Tuple(g(x, y)[0] + cast<int16_t>(f(x + r, y)), g(x, y)[1] + r); // over r: parallel in y only
    Pipeline p(g);
    AutoSchedulerResults res =
        p.apply_autoscheduler(get_jit_target_from_environment(), AutoschedulerParams("Adams2019"));
    EXPECT_TRUE(has(res.schedule_source, "f.compute_root()")) << res.schedule_source;
    EXPECT_TRUE(has(res.schedule_source, "g.update(0)")) << res.schedule_source;
    Realization out = p.realize({19, 3});
    Buffer<int16_t> a = out[0];
    Buffer<int> b = out[1];
    for (int j = 0; j < 3; j++) {
        for (int i = 0; i < 19; i++) {
            int s = 0;
            for (int k = 0; k < 5; k++) {
                s += 3 * (i + k + j);
            }
            EXPECT_EQ(a(i, j), (int16_t)s) << "at " << i << ", " << j;
            EXPECT_EQ(b(i, j), 10);
        }
    }
}

TEST(Autoscheduler, TheUsersScheduleStands) {
    Var x("x"), y("y"), xi("xi");
    Func f("f"), g("g");
    f(x, y) = x * y;
    g(x, y) = f(x - 1, y) + f(x + 1, y);
    f.compute_at(g, y);
    g.split(x, x, xi, 4);
    Pipeline p(g);
    AutoSchedulerResults res = p.apply_autoscheduler(get_jit_target_from_environment(), AutoschedulerParams("Li2018"));
    EXPECT_EQ(res.schedule_source.find("f.compute_root"), std::string::npos) << res.schedule_source;
    Buffer<int> out = p.realize({10, 4});
    for (int j = 0; j < 4; j++) {
        for (int i = 0; i < 10; i++) {
            EXPECT_EQ(out(i, j), (i - 1) * j + (i + 1) * j);
        }
    }
}

TEST(Autoscheduler, UnknownNamesAndRegistration) {
    Var x("x");
    Func f("f");
    f(x) = x;
    Pipeline p(f);
    std::string m = message_of([&] { p.apply_autoscheduler(get_host_target(), AutoschedulerParams("Nope")); });
    EXPECT_EQ(m.rfind("Unknown autoscheduler name 'Nope'; known names are:", 0), 0u) << m;

    static int calls = 0;
    Pipeline::add_autoscheduler(
        "autoscheduler_test_custom",
        [](const Pipeline &, const Target &, const AutoschedulerParams &params, AutoSchedulerResults *out) {
            calls++;
            out->schedule_source = "custom " + params.extra.at("k");
        });
    AutoSchedulerResults res =
        p.apply_autoscheduler(get_host_target(), AutoschedulerParams("autoscheduler_test_custom", {{"k", "v"}}));
    EXPECT_EQ(calls, 1);
    EXPECT_EQ(res.schedule_source, "custom v");
    m = message_of([&] { Pipeline::add_autoscheduler("autoscheduler_test_custom", nullptr); });
    EXPECT_TRUE(has(m, "'autoscheduler_test_custom' is already registered as an autoscheduler")) << m;
}

TEST(Autoscheduler, LoadPlugin) {
    // Upstream's plugins are built in: loading them by name or file name does nothing.
    load_plugin("autoschedule_li2018");
    load_plugin("libautoschedule_adams2019.so");
    std::string m = message_of([] { load_plugin("autoscheduler_test_no_such_plugin"); });
    EXPECT_TRUE(has(m, "Failed to load: libautoscheduler_test_no_such_plugin.so")) << m;
}

} // namespace
