// Generators using the Generator API of issue 13 (configure() with
// add_input/add_output, Input<Expr>, scalar Outputs, GeneratorParam<LoopLevel>,
// using_autoscheduler), written as for upstream Halide. Built into a
// generator executable (AOT kernels called by configure_generators_test.cpp)
// and into generator_api_test (JIT, create_callable_from_generator).
#include "Halide.h"

using namespace Halide;

namespace {

// configure() adds the inputs and the output: `in` and n extra buffers of
// type t, a scalar k of type t, out(x) = in(x) * k + extra_0(x) + ...
class ConfigureSum : public Halide::Generator<ConfigureSum> {
public:
    GeneratorParam<int> n{"n", 2, 0, 4};
    GeneratorParam<Type> t{"t", Int(32)};

    void configure() {
        in = add_input<Buffer<>>("in", t, 1);
        for (int i = 0; i < n; i++) {
            extras.push_back(add_input<Buffer<>>("extra_" + std::to_string(i), t, 1));
        }
        k = add_input<Expr>("k", t);
        out = add_output<Buffer<>>("out", t, 1);
    }

    void generate() {
        Expr e = (*in)(x) * *k;
        for (Input<Buffer<>> *b : extras) {
            e = e + (*b)(x);
        }
        (*out)(x) = e;
    }

private:
    Input<Buffer<>> *in = nullptr;
    std::vector<Input<Buffer<>> *> extras;
    Input<Expr> *k = nullptr;
    Output<Buffer<>> *out = nullptr;
    Var x{"x"};
};

// A member Input<Expr> whose type comes from k.type (or set_type() when
// mode=typed), and members whose open type/dimensions configure() sets.
class DynamicScale : public Halide::Generator<DynamicScale> {
public:
    GeneratorParam<bool> typed{"typed", false};
    Input<Buffer<>> in{"in"};
    Input<Expr> k{"k"};
    Output<Buffer<>> out{"out"};

    void configure() {
        in.set_type(Int(16));
        in.set_dimensions(2);
        out.set_type(Int(32));
        out.set_dimensions(2);
        if (typed) {
            k.set_type(Int(8));
        }
    }

    void generate() {
        k.set_estimate(cast(k.type(), 3));
        out(x, y) = cast<int32_t>(in(x, y)) * cast<int32_t>(k) + cast<int32_t>(k.type().bits());
    }

private:
    Var x{"x"}, y{"y"};
};

// Scalar outputs: a sum and a maximum over the input (zero-dimensional).
class Reduce : public Halide::Generator<Reduce> {
public:
    Input<Buffer<float>> in{"in", 1};
    Output<float> total{"total"};
    Output<int32_t> count{"count"};
    Output<float[2]> extremes{"extremes"};

    void generate() {
        RDom r(0, in.width());
        total() = 0.0f;
        total() += in(r);
        count() = in.width();
        extremes[0]() = minimum(in(r));
        extremes[1]() = maximum(in(r));
    }
};

// GeneratorParam<LoopLevel>: where `inner` is computed (root, inlined, or
// set to a level of out from code).
class AtLevel : public Halide::Generator<AtLevel> {
public:
    GeneratorParam<LoopLevel> inner_at{"inner_at", LoopLevel::inlined()};
    Input<Buffer<int32_t>> in{"in", 2};
    Output<Buffer<int32_t>> out{"out", 2};

    void generate() {
        inner(x, y) = in(x, y) * 3 + 1;
        out(x, y) = inner(x, y) + inner(x, y + 1);
        inner.compute_at(inner_at);
    }

    Func inner{"inner"};
    Var x{"x"}, y{"y"};
};

// using_autoscheduler(): false unless an autoscheduler is named.
class Autosched : public Halide::Generator<Autosched> {
public:
    Input<Buffer<int32_t>> in{"in", 1};
    Output<Buffer<int32_t>> out{"out", 1};

    void generate() { out(x) = in(x) + (using_autoscheduler() ? 1000 : 0); }

    void schedule() {
        if (!using_autoscheduler()) {
            out.vectorize(x, 4);
        }
    }

private:
    Var x{"x"};
};

} // namespace

HALIDE_REGISTER_GENERATOR(ConfigureSum, configure_sum)
HALIDE_REGISTER_GENERATOR(DynamicScale, dynamic_scale)
HALIDE_REGISTER_GENERATOR(Reduce, reduce)
HALIDE_REGISTER_GENERATOR(AtLevel, at_level)
HALIDE_REGISTER_GENERATOR(Autosched, autosched)
