// serialize_pipeline / deserialize_pipeline / deserialize_parameters: a
// deserialized pipeline computes what the original does. Expected values
// come from plain C++ loops over the same inputs, not from the compiler.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

#include "Halide.h"
#include "error_message.h"

using namespace Halide;

int input_value(int x, int y) {
    return x * 3 + y * 7 - 20;
}

// A blur, a histogram over an RDom with a where() and their schedule,
// serialized; its loop nest and outputs are returned through the arguments.
std::vector<uint8_t> serialized_blur_hist(std::string *loop_nest, Buffer<int> *original) {
    Buffer<int> in(16, 8, "ser_in");
    for (int y = 0; y < 8; y++) {
        for (int x = 0; x < 16; x++) {
            in(x, y) = input_value(x, y);
        }
    }
    Var x("x"), y("y"), xo("xo"), xi("xi");
    Func clamped("ser_clamped"), blur("ser_blur"), hist("ser_hist"), out("ser_out");
    clamped(x, y) = in(clamp(x, 0, 15), clamp(y, 0, 7));
    blur(x, y) = (clamped(x - 1, y) + clamped(x, y) * 2 + clamped(x + 1, y)) / 4;
    RDom r(0, 16, 0, 8, "ser_r");
    r.where((r.x + r.y) % 3 != 0);
    hist(x) = 0;
    hist(clamp(blur(r.x, r.y) % 10 + 5, 0, 9)) += 1;
    out(x, y) = blur(x, y) + hist(x % 10) * select(x > y, 1, -1);
    out.split(x, xo, xi, 4).vectorize(xi).parallel(y);
    clamped.compute_at(blur, y);
    blur.compute_root().vectorize(x, 8);
    hist.compute_root();
    hist.update().unroll(r.x, 2);
    Pipeline p(out);
    *loop_nest = p.loop_nest();
    *original = p.realize({16, 8});
    std::vector<uint8_t> data;
    serialize_pipeline(p, data);
    return data;
}

TEST(Serialization, DefinitionsUpdatesRDomWithWhereAndSchedule) {
    std::string nest;
    Buffer<int> original;
    // The original Funcs are gone when it is deserialized: same names.
    std::vector<uint8_t> data = serialized_blur_hist(&nest, &original);
    Pipeline p = deserialize_pipeline(data, {});
    EXPECT_EQ(p.outputs()[0].name(), "ser_out");
    // The schedule came along: the same loop nest.
    EXPECT_EQ(p.loop_nest(), nest);
    EXPECT_NE(nest.find("vectorized"), std::string::npos) << nest;
    EXPECT_NE(nest.find("parallel"), std::string::npos) << nest;
    EXPECT_NE(nest.find("unrolled"), std::string::npos) << nest;
    Buffer<int> got = p.realize({16, 8});
    // Deserialized a second time while the first lives: new names ("$1").
    Pipeline again = deserialize_pipeline(data, {});
    EXPECT_EQ(again.outputs()[0].name(), "ser_out$1");
    Buffer<int> got_again = again.realize({16, 8});

    // Reference in plain C++.
    auto cl = [&](int xx, int yy) { return input_value(std::min(std::max(xx, 0), 15), std::min(std::max(yy, 0), 7)); };
    auto bl = [&](int xx, int yy) {
        int s = cl(xx - 1, yy) + cl(xx, yy) * 2 + cl(xx + 1, yy);
        return s >= 0 ? s / 4 : -((-s + 3) / 4); // Halide's division rounds down
    };
    int h[10] = {0};
    for (int ry = 0; ry < 8; ry++) {
        for (int rx = 0; rx < 16; rx++) {
            if ((rx + ry) % 3 != 0) {
                int m = bl(rx, ry) % 10;
                m = m < 0 ? m + 10 : m; // Halide's modulo is non-negative
                h[std::min(std::max(m + 5, 0), 9)] += 1;
            }
        }
    }
    for (int yy = 0; yy < 8; yy++) {
        for (int xx = 0; xx < 16; xx++) {
            int want = bl(xx, yy) + h[xx % 10] * (xx > yy ? 1 : -1);
            ASSERT_EQ(got(xx, yy), want) << xx << "," << yy;
            ASSERT_EQ(got_again(xx, yy), want) << xx << "," << yy;
            ASSERT_EQ(original(xx, yy), want) << xx << "," << yy;
        }
    }
}

TEST(Serialization, ParamsWithDefaultsAndRangesAndImageParams) {
    Param<float> gain("ser_gain", 2.0f, 0.0f, 10.0f);
    Param<int> offset("ser_offset");
    ImageParam img(Float(32), 2, "ser_img");
    Var x, y;
    Func f("ser_f");
    f(x, y) = img(x, y) * gain + cast<float>(offset);

    std::vector<uint8_t> data;
    std::map<std::string, Parameter> params;
    serialize_pipeline(Pipeline(f), data, params);
    ASSERT_EQ(params.size(), 3u);
    EXPECT_TRUE(params.at("ser_img").is_buffer());
    EXPECT_FALSE(params.at("ser_gain").is_buffer());

    std::map<std::string, Parameter> fresh = deserialize_parameters(data);
    ASSERT_EQ(fresh.size(), 3u);
    EXPECT_EQ(fresh.at("ser_gain").type(), Float(32));
    EXPECT_EQ(fresh.at("ser_img").dimensions(), 2);
    const Internal::FloatImm *mx = fresh.at("ser_gain").max_value().as<Internal::FloatImm>();
    ASSERT_TRUE(mx);
    EXPECT_EQ(mx->value, 10.0);
    EXPECT_EQ(fresh.at("ser_gain").scalar<float>(), 2.0f); // the value came along (upstream's does not)

    // The user's own Params stand in for the pipeline's.
    Pipeline p = deserialize_pipeline(data, params);
    Buffer<float> input(5, 4);
    for (int j = 0; j < 4; j++) {
        for (int i = 0; i < 5; i++) {
            input(i, j) = i + 10.0f * j;
        }
    }
    img.set(input);
    gain.set(3.0f);
    offset.set(-1);
    Buffer<float> got = p.realize({5, 4});
    for (int j = 0; j < 4; j++) {
        for (int i = 0; i < 5; i++) {
            EXPECT_EQ(got(i, j), input(i, j) * 3.0f - 1.0f);
        }
    }
    // Range checks came along: gain above its maximum fails at run time.
    gain.set(20.0f);
    EXPECT_ANY_THROW(p.realize({5, 4}));
}

TEST(Serialization, FreshParametersAreTheArgumentsOfANewPipeline) {
    Param<int> k("ser_k", 5);
    Var x;
    Func f("ser_g");
    f(x) = x * k;
    std::vector<uint8_t> data;
    serialize_pipeline(Pipeline(f), data);
    Pipeline p = deserialize_pipeline(data, {});
    // The new pipeline's k is its own: its value is the serialized one (5).
    Buffer<int> got = p.realize({4});
    for (int i = 0; i < 4; i++) {
        EXPECT_EQ(got(i), i * 5);
    }
}

TEST(Serialization, TuplesSpecializationsAndFiles) {
    Param<bool> flag("ser_flag");
    Var x;
    Func f("ser_tuple");
    f(x) = Tuple(x, cast<float>(x) * 0.5f);
    f(x) += Tuple(1, 1.0f);
    Func g("ser_spec");
    g(x) = select(flag, f(x)[0], -f(x)[0]) + cast<int>(f(x)[1]);
    g.specialize(flag).vectorize(x, 4);
    std::string path = ::testing::TempDir() + "ser_test.hlpipe";
    serialize_pipeline(Pipeline(g), path);
    std::map<std::string, Parameter> params = deserialize_parameters(path);
    ASSERT_EQ(params.count("ser_flag"), 1u);
    params.at("ser_flag").set_scalar<bool>(true);
    Pipeline p = deserialize_pipeline(path, params);
    Buffer<int> got = p.realize({8});
    for (int i = 0; i < 8; i++) {
        EXPECT_EQ(got(i), (i + 1) + (int)(i * 0.5f + 1.0f));
    }
    params.at("ser_flag").set_scalar<bool>(false);
    got = p.realize({8});
    for (int i = 0; i < 8; i++) {
        EXPECT_EQ(got(i), -(i + 1) + (int)(i * 0.5f + 1.0f));
    }
    std::remove(path.c_str());
}

TEST(Serialization, BadDataIsAClearError) {
    Var x;
    Func f("ser_small");
    f(x) = x;
    std::vector<uint8_t> data;
    serialize_pipeline(Pipeline(f), data);
    std::vector<uint8_t> truncated(data.begin(), data.begin() + (long)data.size() / 2);
    EXPECT_NE(message_of([&] { deserialize_pipeline(truncated, {}); }).find("truncated"), std::string::npos);
    std::vector<uint8_t> wrong_version = data;
    wrong_version[8] = 99;
    EXPECT_NE(message_of([&] { deserialize_pipeline(wrong_version, {}); }).find("version 99"), std::string::npos);
    std::vector<uint8_t> not_ours = {'n', 'o', 't', ' ', 'a', ' ', 'p', 'i', 'p', 'e'};
    EXPECT_NE(message_of([&] { deserialize_pipeline(not_ours, {}); }).find("not a pipeline"), std::string::npos);
    std::vector<uint8_t> extra = data;
    extra.push_back(0);
    EXPECT_NE(message_of([&] { deserialize_pipeline(extra, {}); }).find("corrupt"), std::string::npos);
    std::istringstream empty("");
    EXPECT_NE(message_of([&] { deserialize_pipeline(empty, {}); }).find("truncated"), std::string::npos);
}
