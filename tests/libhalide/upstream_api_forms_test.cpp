// Forms of upstream's API that its own correctness tests use, each checked
// against plain C++ or upstream 21's observed messages: realize() of a
// braced list of Buffers, a Runtime::Buffer or a halide_buffer_t *; typed
// Funcs (Func(type, dims, name)); Param(value); mux() of Tuples and Func
// calls; Buffer element access through a coordinate array;
// Internal::safe_numeric_cast; compute_at a Func defined afterwards;
// wrappers used in RDom::where() predicates and wrappers of wrappers;
// Call::IntrinsicOp in a custom lowering pass; an ImageParam or a Buffer as
// a Func; Call::make_struct read by an extern as its C struct.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <map>
#include <string>

#include "Halide.h"

using namespace Halide;

namespace {

std::string message_of(const std::function<void()> &f) {
    try {
        f();
    } catch (const Halide::Error &e) {
        return e.what();
    }
    return "";
}

TEST(UpstreamApiForms, RealizeIntoABracedListOfBuffers) {
    Func f("forms_pair"), g("forms_single");
    Var x("x");
    f(x) = {x * 2, cast<float>(x) + 0.5f};
    g(x) = x * x;
    Buffer<int32_t> a(5), c(5);
    Buffer<float> b(5);
    f.realize({a, b});
    Pipeline({f, g}).realize({a, b, c});
    for (int i = 0; i < 5; i++) {
        EXPECT_EQ(a(i), 2 * i);
        EXPECT_EQ(b(i), i + 0.5f);
        EXPECT_EQ(c(i), i * i);
    }
    // One Runtime::Buffer, one raw buffer: written in place.
    Runtime::Buffer<int32_t> rt(4);
    g.realize(rt);
    halide_buffer_t *raw = rt.raw_buffer();
    rt.fill(-1);
    Pipeline(g).realize(raw);
    for (int i = 0; i < 4; i++) {
        EXPECT_EQ(rt(i), i * i);
    }
    // A braced list of sizes is still a list of sizes.
    Buffer<int32_t> sized = g.realize({3});
    EXPECT_EQ(sized.width(), 3);
}

TEST(UpstreamApiForms, TypedFuncsCheckTheirDefinition) {
    Var x("x"), y("y");
    Func f(Int(32), 1, "forms_typed_f");
    EXPECT_FALSE(f.defined());
    EXPECT_EQ(f.type(), Int(32));
    EXPECT_EQ(f.dimensions(), 1);
    ASSERT_EQ(f.types().size(), 1u);
    EXPECT_NE(message_of([&] { f(x, y) = x; })
                  .find("Func \"forms_typed_f\" is constrained to have exactly 1 dimensions, but is defined with 2 "
                        "dimensions."),
              std::string::npos);
    Func g(Int(32), 1, "forms_typed_g");
    EXPECT_NE(message_of([&] { g(x) = 1.5f; })
                  .find("Func \"forms_typed_g\" is constrained to only hold values of type int32 but is defined with "
                        "values of type float32."),
              std::string::npos);
    Func h({Int(32), Float(32)}, 2, "forms_typed_h");
    EXPECT_NE(message_of([&] { h(x, y) = Tuple(x, y); })
                  .find("Func \"forms_typed_h\" is constrained to only hold values of type (int32, float32) but is "
                        "defined with values of type (int32, int32)."),
              std::string::npos);
    h(x, y) = Tuple(x + y, cast<float>(x) * 0.5f);
    Realization r = h.realize({3, 2});
    EXPECT_EQ(Buffer<int32_t>(r[0])(2, 1), 3);
    EXPECT_EQ(Buffer<float>(r[1])(2, 1), 1.0f);
    EXPECT_NE(message_of([&] { (void)h.type(); })
                  .find("Can't call Func::type on Func \"forms_typed_h\" because it "
                        "returns a Tuple."),
              std::string::npos);
    Func untyped("forms_untyped");
    EXPECT_NE(message_of([&] { (void)untyped.types(); })
                  .find("Can't call Func::types on Func \"forms_untyped\" because it is undefined or has no type "
                        "requirements."),
              std::string::npos);
}

TEST(UpstreamApiForms, UndefinedFuncsAnswerOnlyFromTheirRequirements) {
    Func plain("forms_undefined");
    // Upstream 21's messages, observed.
    EXPECT_NE(message_of([&] { (void)plain.dimensions(); })
                  .find("Can't call Func::dimensions on Func \"forms_undefined\" because it is undefined or has no "
                        "dimension requirements."),
              std::string::npos);
    EXPECT_NE(message_of([&] { (void)plain.outputs(); })
                  .find("Can't call Func::outputs on Func \"forms_undefined\" because it is undefined or has no "
                        "type requirements."),
              std::string::npos);
    EXPECT_NE(message_of([&] { (void)plain.value(); }).find("Can't call Func::value() on an undefined Func"),
              std::string::npos);
    EXPECT_EQ(plain.args().size(), 0u);
    EXPECT_FALSE(plain.has_update_definition());

    Func typed({Int(32), Float(32)}, 3, "forms_typed_undefined");
    EXPECT_EQ(typed.outputs(), 2);
    EXPECT_EQ(typed.dimensions(), 3);
}

TEST(UpstreamApiForms, ATypedFuncHasOutputBuffersBeforeItsDefinition) {
    // As upstream's typed_func test: the output buffer's bounds set before
    // the definition hold for the pipeline (ours refused the access).
    Var x("x"), y("y");
    Func f(Int(32), 2, "forms_typed_out");
    f.output_buffer().dim(0).set_bounds(0, 10).dim(1).set_bounds(0, 10);
    f(x, y) = x + 2 * y;
    Buffer<int32_t> out = f.realize({10, 10});
    EXPECT_EQ(out(9, 9), 27);
    EXPECT_EQ(out(3, 1), 5);
    // The bounds are constraints: another size is an error naming the one
    // broken (upstream 21 returns a buffer of that size, partly unwritten; ours
    // aborted in the crop of its result).
    EXPECT_NE(message_of([&] {
                  f.realize({12, 10});
              }).find("Constraint violated: forms_typed_out.extent.0 (12) == 10"),
              std::string::npos);
    Func tuple({Int(32), Float(32)}, 1, "forms_typed_tuple");
    EXPECT_EQ(tuple.output_buffers().size(), 2u);
    EXPECT_EQ(tuple.output_buffers()[1].type(), Float(32));
    EXPECT_NE(message_of([&] { (void)Func("forms_untyped").output_buffer(); }).find("before it is defined"),
              std::string::npos);
}

TEST(UpstreamApiForms, ParamsMadeFromAValue) {
    Param<int> p(42);
    Param<float> q(1.5f, 0.0f, 2.0f);
    Param<bool> named("forms_flag"); // a name, not a value
    EXPECT_EQ(named.name(), "forms_flag");
    EXPECT_EQ(p.get(), 42);
    EXPECT_EQ(evaluate<int>(p + 1), 43);
    EXPECT_EQ(evaluate<float>(q * 2.0f), 3.0f);
    EXPECT_TRUE(q.min_value().defined());
}

TEST(UpstreamApiForms, MuxOfTuplesAndFuncCalls) {
    Var x("x"), c("c");
    Func f("forms_mux_tuple");
    f(x) = {x, x * 10, x * 100};
    Func g("forms_mux_of_tuple");
    g(x, c) = mux(c, f(x)); // value c of the Tuple
    Buffer<int32_t> out = g.realize({4, 3});
    for (int i = 0; i < 4; i++) {
        EXPECT_EQ(out(i, 0), i);
        EXPECT_EQ(out(i, 1), i * 10);
        EXPECT_EQ(out(i, 2), i * 100);
    }
    Func a("forms_mux_a"), b("forms_mux_b"), h("forms_mux_calls"), t("forms_mux_tuples");
    a(x) = x + 1;
    b(x) = x - 1;
    h(x, c) = mux(c, {a(x), b(x)});
    t(x, c) = mux(c, {Tuple(x, x + 1), Tuple(x * 2, x * 3)});
    Buffer<int32_t> hb = h.realize({3, 2});
    Realization tr = t.realize({3, 2});
    Buffer<int32_t> t0 = tr[0], t1 = tr[1];
    for (int i = 0; i < 3; i++) {
        EXPECT_EQ(hb(i, 0), i + 1);
        EXPECT_EQ(hb(i, 1), i - 1);
        EXPECT_EQ(t0(i, 0), i);
        EXPECT_EQ(t1(i, 0), i + 1);
        EXPECT_EQ(t0(i, 1), i * 2);
        EXPECT_EQ(t1(i, 1), i * 3);
    }
}

TEST(UpstreamApiForms, BufferElementThroughACoordinateArray) {
    Buffer<int32_t> im(3, 4);
    im.fill(0);
    im.for_each_element([&](const int *pos) { im(pos) = pos[0] + 10 * pos[1]; });
    int pos[2] = {2, 3};
    EXPECT_EQ(im(pos), 32);
    EXPECT_EQ(im(1, 2), 21);
}

TEST(UpstreamApiForms, SafeNumericCastSaturatesFloatsAndWrapsIntegers) {
    EXPECT_EQ(Internal::safe_numeric_cast<int8_t>(300.0f), 127);
    EXPECT_EQ(Internal::safe_numeric_cast<int8_t>(-1e9), -128);
    EXPECT_EQ(Internal::safe_numeric_cast<uint8_t>(-5.0), 0);
    EXPECT_EQ(Internal::safe_numeric_cast<int32_t>(2.9f), 2);
    EXPECT_EQ(Internal::safe_numeric_cast<int8_t>(300), 44); // 300 mod 256
    EXPECT_EQ(Internal::safe_numeric_cast<uint16_t>(-1), 65535);
}

// compute_at/store_at a Func defined afterwards (upstream checks the level
// when lowering, as ours does).
TEST(UpstreamApiForms, ScheduledAtAFuncDefinedLater) {
    Var x("x");
    Func f("forms_early_producer"), g("forms_late_consumer");
    f(x) = x * 3;
    f.store_root().compute_at(g, x);
    g(x) = f(x) + f(x + 1);
    Buffer<int32_t> out = g.realize({6});
    for (int i = 0; i < 6; i++) {
        EXPECT_EQ(out(i), 3 * i + 3 * (i + 1));
    }
}

std::map<std::string, int> stores_by_func;
int count_stores(JITUserContext *, const halide_trace_event_t *e) {
    if (e->event == halide_trace_store) {
        stores_by_func[e->func]++;
    }
    return 0;
}

// f.in(g) also serves g's RDom::where() predicates, and a wrapper of that
// wrapper for the same consumer stands between them (upstream's tests
// func_wrapper and func_clone).
TEST(UpstreamApiForms, WrappersInPredicatesAndWrappersOfWrappers) {
    Var x("x");
    Func f("forms_wrapped"), g("forms_where_user");
    f(x) = x;
    g(x) = 0;
    RDom r(0, 10, "forms_r");
    r.where(f(r) < 5);
    g(r) += 1;
    Func f_in_g = f.in(g).compute_root();
    f.compute_root();
    f_in_g.trace_stores();
    g.jit_handlers().custom_trace = count_stores;
    stores_by_func.clear();
    Buffer<int32_t> counts = g.realize({10});
    for (int i = 0; i < 10; i++) {
        EXPECT_EQ(counts(i), i < 5 ? 1 : 0) << i;
    }
    EXPECT_EQ(stores_by_func[f_in_g.name()], 10);

    Func in("forms_chain_in"), out("forms_chain_out");
    in(x) = 2 * x;
    in.compute_root();
    out(x) = in(x) + 1;
    Func w1 = in.in(out).compute_root();
    Func w2 = w1.in(out).compute_root();
    EXPECT_NE(w1.name(), w2.name());
    w1.trace_stores();
    w2.trace_stores();
    out.jit_handlers().custom_trace = count_stores;
    stores_by_func.clear();
    Buffer<int32_t> chained = out.realize({6});
    for (int i = 0; i < 6; i++) {
        EXPECT_EQ(chained(i), 2 * i + 1);
    }
    EXPECT_EQ(stores_by_func[w1.name()], 6);
    EXPECT_EQ(stores_by_func[w2.name()], 6);
}

// A custom lowering pass written against upstream's IR API: it makes an
// intrinsic Call from an IntrinsicOp (a pure kind, as upstream's passes do)
// and recognizes it again by op.
class SevenAsAbsOfMinusSeven : public Internal::IRMutator {
public:
    using IRMutator::visit;
    Expr visit(const Internal::IntImm *op) override {
        if (op->value == 7 && op->type == Int(32)) {
            return Internal::Call::make(Int(32), Internal::Call::abs, {Expr(-7)}, Internal::Call::PureIntrinsic);
        }
        return op;
    }
};

class CountAbsCalls : public Internal::IRMutator {
public:
    using IRMutator::visit;
    int count = 0;
    Expr visit(const Internal::Call *op) override {
        if (op->is_intrinsic(Internal::Call::abs) && op->is_intrinsic({Internal::Call::likely, Internal::Call::abs})) {
            count++;
        }
        return IRMutator::visit(op);
    }
};

TEST(UpstreamApiForms, IntrinsicOpsInACustomLoweringPass) {
    using Internal::Call;
    // Upstream 21's names, observed.
    EXPECT_STREQ(Call::get_intrinsic_name(Call::likely), "likely");
    EXPECT_STREQ(Call::get_intrinsic_name(Call::make_struct), "make_struct");
    EXPECT_STREQ(Call::get_intrinsic_name(Call::get_runtime_vscale), "get_runtime_vscale");

    Var x("x");
    Expr tagged = likely(x);
    ASSERT_NE(Call::as_tag(tagged), nullptr);
    EXPECT_TRUE(Call::as_tag(tagged)->is_tag());
    EXPECT_EQ(Call::as_tag(x + 1), nullptr);
    Expr made = Call::make(Int(32), Call::likely, {Expr(x)}, Call::PureIntrinsic);
    ASSERT_NE(made.as<Call>(), nullptr);
    EXPECT_EQ(made.as<Call>()->call_type, Call::Intrinsic); // recorded as an intrinsic with effects
    EXPECT_TRUE(made.as<Call>()->is_intrinsic(Call::likely));
    EXPECT_FALSE(made.as<Call>()->is_intrinsic(Call::likely_if_innermost));

    Func f("forms_intrinsic_op");
    f(x) = x * 3 + 7;
    SevenAsAbsOfMinusSeven rewrite;
    CountAbsCalls counter;
    f.add_custom_lowering_pass(&rewrite, [] {});
    f.add_custom_lowering_pass(&counter, [] {});
    Buffer<int32_t> out = f.realize({8});
    for (int i = 0; i < 8; i++) {
        EXPECT_EQ(out(i), 3 * i + 7) << i;
    }
    EXPECT_GE(counter.count, 1);
}

TEST(UpstreamApiForms, ImageParamConvertsToOneSchedulableFunc) {
    ImageParam im(Int(32), 2, "forms_im");
    Func f = im;
    Func again = im;
    // As upstream 21: one Func, named after the ImageParam, over implicit vars.
    EXPECT_EQ(f.name(), again.name());
    EXPECT_EQ(f.name(), "forms_im_im");
    ASSERT_EQ(f.dimensions(), 2);
    EXPECT_EQ(f.args()[0].name(), "_0");
    EXPECT_EQ(f.args()[1].name(), "_1");

    Func g("forms_im_consumer");
    Var x("x"), y("y");
    g(x, y) = f(x, y) * 2 + im(x, y);
    f.compute_root();
    Buffer<int32_t> in(4, 3);
    for (int j = 0; j < 3; j++) {
        for (int i = 0; i < 4; i++) {
            in(i, j) = i + 10 * j;
        }
    }
    im.set(in);
    Buffer<int32_t> out = g.realize({4, 3});
    for (int j = 0; j < 3; j++) {
        for (int i = 0; i < 4; i++) {
            EXPECT_EQ(out(i, j), 3 * (i + 10 * j)) << i << "," << j;
        }
    }
    Func from_buffer(in);
    Buffer<int32_t> copied = from_buffer.realize({4, 3});
    for (int j = 0; j < 3; j++) {
        for (int i = 0; i < 4; i++) {
            EXPECT_EQ(copied(i, j), in(i, j));
        }
    }
    Func edge = BoundaryConditions::repeat_edge(im);
    Func h("forms_im_edge");
    h(x) = edge(x - 2, 1);
    Buffer<int32_t> clamped = h.realize({8});
    for (int i = 0; i < 8; i++) {
        EXPECT_EQ(clamped(i), std::min(std::max(i - 2, 0), 3) + 10) << i;
    }
}

} // namespace

// make_struct's pointer is a C struct of its fields, padding and all: an
// extern reads it through its own struct type (upstream's make_struct test;
// ours packed the fields, and the extern read a wild pointer).
struct ApiFormsStruct {
    double a;
    int32_t b;
    int16_t c;
    const char *d;
    uint8_t e;
    int64_t f;
};

extern "C" HALIDE_EXPORT_SYMBOL int api_forms_read_struct(ApiFormsStruct *s) {
    // The pointer last: read at a wrong offset it would be wild.
    if (s->e != 1 || s->f != -(int64_t(1) << 40) || s->a != 3.0 || s->b != 1234567 || s->c != 1234 ||
        std::string(s->d) != "a global string") {
        return 1;
    }
    return 42;
}
HalideExtern_1(int, api_forms_read_struct, ApiFormsStruct *);

TEST(UpstreamApiForms, MakeStructIsLaidOutAsACStruct) {
    Expr s = Internal::Call::make(Handle(), Internal::Call::make_struct,
                                  {cast<double>(3.0f), cast<int32_t>(1234567), cast<int16_t>(1234),
                                   Expr(std::string("a global string")), Expr(true), Expr(-(int64_t(1) << 40))},
                                  Internal::Call::Intrinsic);
    Func g("api_forms_struct");
    g() = api_forms_read_struct(s);
    Buffer<int> out = g.realize();
    EXPECT_EQ(out(), 42);
}
