// Generators used directly, as upstream 21's own tests and apps use them:
// Gen::create(GeneratorContext(target)), GeneratorParams set (set() or
// set_generatorparam_values), then apply(inputs...) or set_inputs(...) and
// the Outputs used as Funcs or realize()d. Results are compared with the
// formula computed in plain C++; errors with upstream 21's words (observed
// by running the same calls against upstream's libHalide).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "../libhalide/error_message.h"
#include "Halide.h"

using namespace Halide;

namespace {

// output(x, y) = int(input(x, y) * scale) + f(x, y) + offset + sum(extra)
class Combine : public Generator<Combine> {
public:
    GeneratorParam<int> offset{"offset", 1};
    Input<Buffer<uint8_t, 2>> input{"input"};
    Input<Func> f{"f", Int(32), 2};
    Input<float> scale{"scale"};
    Input<int[]> extra{"extra"};
    Output<Buffer<int32_t, 2>> output{"output"};

    void generate() {
        Expr e = cast<int>(input(x, y) * scale) + f(x, y) + offset;
        for (size_t i = 0; i < extra.size(); i++) {
            e += extra[i];
        }
        output(x, y) = e;
    }
    void schedule() {
        scheduled++;
        EXPECT_TRUE(get_pipeline().outputs().size() == 1); // from schedule() on, as upstream
    }

    int scheduled = 0;

private:
    Var x, y;
};

// Reads its input's shape: output(x, y) = input(x, y) + width + 10 * height
// + 100 * left + 1000 * top + 10000 * (right - left) + 20000 * (bottom - top)
// and the dimension count and type.
class Shape : public Generator<Shape> {
public:
    Input<Buffer<>> input{"input", UInt(16), 2};
    Output<Buffer<int32_t, 2>> output{"output"};

    void generate() {
        EXPECT_EQ(input.dimensions(), 2);
        EXPECT_EQ(input.type(), UInt(16));
        EXPECT_EQ(input.host_alignment(), 2);
        Expr shape = input.width() + 10 * input.height() + 100 * input.left() + 1000 * input.top() +
                     10000 * (input.right() - input.left()) + 20000 * (input.bottom() - input.top());
        Expr same = input.dim(0).extent() == input.width() && input.dim(1).min() == input.top();
        output(x, y) = select(same, cast<int>(input(x, y)) + shape, -1);
    }

private:
    Var x, y;
};

// Builds Combine inside its own generate() from its Input<Buffer>, as
// upstream's apply<T2>(): output = 2 * Combine(in, in as a Func, 0.5, {k}).
class Outer : public Generator<Outer> {
public:
    Input<Buffer<uint8_t, 2>> in{"in"};
    Input<int> k{"k"};
    Output<Buffer<int32_t, 2>> output{"output"};

    void generate() {
        Func in_as_int;
        in_as_int(x, y) = cast<int>(in(x, y));
        auto inner = apply<Combine>(in, in_as_int, 0.5f, std::vector<Expr>{k});
        output(x, y) = 2 * inner->output(x, y);
    }

private:
    Var x, y;
};

Buffer<uint8_t, 2> ramp(int w, int h) {
    Buffer<uint8_t, 2> b(w, h);
    for (int y = 0; y < h; y++) {
        for (int x = 0; x < w; x++) {
            b(x, y) = (uint8_t)(x * 7 + y * 3);
        }
    }
    return b;
}

int combine(int in, int f, float scale, int offset, const std::vector<int> &extra) {
    int v = (int)((float)in * scale) + f + offset;
    for (int e : extra) {
        v += e;
    }
    return v;
}

TEST(GeneratorApply, OutputsAreFuncsAfterApply) {
    const int w = 9, h = 7;
    Buffer<uint8_t, 2> in = ramp(w, h);
    Var x, y;
    Func f;
    f(x, y) = 2 * x - y;
    auto gen = Combine::create(GeneratorContext(get_host_target()));
    gen->offset.set(5);
    gen->apply(in, f, 1.5f, std::vector<int>{10, -3});
    EXPECT_EQ(gen->scheduled, 1);
    Buffer<int32_t, 2> a = gen->realize({w, h});
    Buffer<int32_t, 2> b = Func(gen->output).realize({w, h});
    Buffer<int32_t, 2> c = gen->output.realize({w, h});
    Func consumer;
    consumer(x, y) = gen->output(x, y) * 3;
    Buffer<int32_t, 2> d = consumer.realize({w, h});
    Buffer<int32_t, 2> e(w, h);
    gen->realize(e);
    for (int yy = 0; yy < h; yy++) {
        for (int xx = 0; xx < w; xx++) {
            int want = combine(in(xx, yy), 2 * xx - yy, 1.5f, 5, {10, -3});
            ASSERT_EQ(a(xx, yy), want) << xx << ", " << yy;
            ASSERT_EQ(b(xx, yy), want);
            ASSERT_EQ(c(xx, yy), want);
            ASSERT_EQ(d(xx, yy), 3 * want);
            ASSERT_EQ(e(xx, yy), want);
        }
    }
    // A Buffer is compiled in: the pipeline has no arguments left.
    EXPECT_TRUE(gen->arguments().empty());
}

TEST(GeneratorApply, SetInputsThenBuild) {
    const int w = 6, h = 5;
    Buffer<uint8_t, 2> first = ramp(w, h), in(w, h);
    in.fill(40);
    Var x, y;
    Buffer<int32_t, 2> fb(w, h);
    fb.fill(7);
    auto gen = Combine::create(GeneratorContext(get_host_target()));
    gen->set_generatorparam_values({{"offset", "-2"}});
    // Setting the inputs again replaces them, as upstream; a Buffer for an
    // Input<Func> is read through a Func.
    gen->set_inputs(first, fb, 1.0f, std::vector<int>{1});
    gen->set_inputs(in, fb, 0.25f, std::vector<int>{4});
    Buffer<int32_t, 2> r = gen->build_pipeline().realize({w, h});
    for (int yy = 0; yy < h; yy++) {
        for (int xx = 0; xx < w; xx++) {
            ASSERT_EQ(r(xx, yy), combine(40, 7, 0.25f, -2, {4}));
        }
    }
}

TEST(GeneratorApply, ScalarInputsTakeExprsAndParams) {
    const int w = 4, h = 3;
    Buffer<uint8_t, 2> in = ramp(w, h);
    Var x, y;
    Func f;
    f(x, y) = x * y;
    Param<float> scale("scale_param");
    Param<int> extra("extra_param");
    auto gen = Combine::create(GeneratorContext(get_host_target()));
    gen->apply(in, f, scale, std::vector<Expr>{extra, Expr(2)});
    scale.set(3.0f);
    extra.set(100);
    Buffer<int32_t, 2> r = gen->realize({w, h});
    for (int yy = 0; yy < h; yy++) {
        for (int xx = 0; xx < w; xx++) {
            ASSERT_EQ(r(xx, yy), combine(in(xx, yy), xx * yy, 3.0f, 1, {100, 2}));
        }
    }
}

TEST(GeneratorApply, BoundBufferHasItsShape) {
    const int w = 6, h = 4, x0 = 3, y0 = -2;
    Buffer<uint16_t, 2> in(w, h);
    in.set_min(x0, y0);
    for (int yy = y0; yy < y0 + h; yy++) {
        for (int xx = x0; xx < x0 + w; xx++) {
            in(xx, yy) = (uint16_t)(xx + 2 * yy + 10);
        }
    }
    auto gen = Shape::create(GeneratorContext(get_host_target()));
    gen->apply(in);
    Buffer<int32_t, 2> r(w, h);
    r.set_min(x0, y0);
    gen->realize(r);
    const int shape = w + 10 * h + 100 * x0 + 1000 * y0 + 10000 * (w - 1) + 20000 * (h - 1);
    for (int yy = y0; yy < y0 + h; yy++) {
        for (int xx = x0; xx < x0 + w; xx++) {
            ASSERT_EQ(r(xx, yy), xx + 2 * yy + 10 + shape) << xx << ", " << yy;
        }
    }
    EXPECT_TRUE(gen->arguments().empty());
}

TEST(GeneratorApply, UnboundInputShapeIsTheArgument) {
    // Without apply(), the same accessors are the buffer argument's fields.
    auto gen = Shape::create(GeneratorContext(get_host_target()));
    ASSERT_EQ(gen->arguments().size(), 1u);
    Buffer<uint16_t, 2> in(5, 3);
    in.fill(1);
    Callable c = gen->compile_to_callable();
    Buffer<int32_t, 2> r(5, 3);
    ASSERT_EQ(c(in, r), 0);
    EXPECT_EQ(r(2, 1), 1 + 5 + 10 * 3 + 10000 * 4 + 20000 * 2);
}

TEST(GeneratorApply, NestedApplyOfAnInputBuffer) {
    const int w = 5, h = 4;
    Buffer<uint8_t, 2> in = ramp(w, h);
    auto gen = Outer::create(GeneratorContext(get_host_target()));
    Callable c = gen->compile_to_callable(); // in and k are arguments of the outer pipeline
    Buffer<int32_t, 2> r(w, h);
    ASSERT_EQ(c(in, 6, r), 0);
    for (int yy = 0; yy < h; yy++) {
        for (int xx = 0; xx < w; xx++) {
            ASSERT_EQ(r(xx, yy), 2 * combine(in(xx, yy), in(xx, yy), 0.5f, 1, {6}));
        }
    }
}

TEST(GeneratorApply, UpstreamErrors) {
    Buffer<uint8_t, 2> in = ramp(4, 3);
    Var x, y;
    Func f;
    f(x, y) = x + y;
    const Target t = get_host_target();
    auto fresh = [&] { return Combine::create(GeneratorContext(t)); };
    EXPECT_EQ(message_of([&] { fresh()->apply(in, f, 2.0f); }), "Expected exactly 4 inputs but got 3");
    EXPECT_EQ(message_of([&] { fresh()->apply(f, f, 2.0f, std::vector<int>{1}); }),
              "Input input cannot be set with the type specified.");
    EXPECT_EQ(message_of([&] { fresh()->apply(in, Expr(1), 2.0f, std::vector<int>{1}); }),
              "Input f cannot be set with the type specified.");
    EXPECT_EQ(message_of([&] { fresh()->apply(in, f, 2.0f, 3); }),
              "Input extra is an array, and must be set with a vector type.");
    EXPECT_EQ(message_of([&] { fresh()->apply(in, f, std::vector<float>{2.0f}, std::vector<int>{1}); }),
              "Input scale is not an array, and must not be set with a vector type.");
    EXPECT_EQ(message_of([&] { fresh()->apply(in, f, 2, std::vector<int>{1}); }),
              "Type mismatch for scale: expected float32 saw int32");
    EXPECT_EQ(message_of([&] { fresh()->apply(in, in, 2.0f, std::vector<int>{1}); }),
              "Type mismatch for f: expected int32 saw uint8");
    Buffer<float, 2> floats(4, 3);
    EXPECT_EQ(message_of([&] { fresh()->apply(floats, f, 2.0f, std::vector<int>{1}); }),
              "Type mismatch for input: expected uint8 saw float32");
    Buffer<uint8_t, 3> three(2, 2, 2);
    EXPECT_EQ(message_of([&] { fresh()->apply(three, f, 2.0f, std::vector<int>{1}); }),
              "Dimensions mismatch for input: expected 2 saw 3");
    std::string m = message_of([&] { fresh()->realize({4, 3}); });
    EXPECT_EQ(m.rfind("You may not do this operation at this phase", 0), 0u) << m;
    m = message_of([&] { fresh()->get_pipeline(); });
    EXPECT_EQ(m.rfind("You may not do this operation at this phase", 0), 0u) << m;

    auto gen = fresh();
    gen->apply(in, f, 2.0f, std::vector<int>{1});
    // Upstream: an InternalError with no message; ours says why.
    m = message_of([&] { gen->apply(in, f, 2.0f, std::vector<int>{1}); });
    EXPECT_EQ(m.rfind("You may not do this operation at this phase", 0), 0u) << m;
    EXPECT_EQ(message_of([&] { gen->offset.set(3); }),
              "The GeneratorParam \"offset\" cannot be written after generate() is called.");
    EXPECT_EQ(message_of([&] { gen->set_generatorparam_value("offset", "3"); }),
              "The GeneratorParam \"offset\" cannot be written after generate() is called.");
}

} // namespace
