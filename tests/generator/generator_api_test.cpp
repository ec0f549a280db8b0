// The Generator API from code (issue 13): GeneratorContext,
// create_callable_from_generator, Generator<T>::create, GeneratorRegistry,
// GeneratorParam<LoopLevel> set from code, autoscheduler GeneratorParams;
// outputs compared with plain C++ computations. Then one test per error
// message of configure(), add_input/add_output, set_type/set_dimensions/
// set_array_size, Input<Expr>, LoopLevel GeneratorParams and the registry.
#include <gtest/gtest.h>

#include "../libhalide/error_message.h"
#include "Halide.h"
// The generators of the AOT test, registered in this program too.
#include "configure_generators.cpp"

using namespace Halide;

namespace {

GeneratorContext jit_context() {
    return GeneratorContext(get_jit_target_from_environment());
}

TEST(GeneratorApi, CallableFromConfigureGenerator) {
    Callable c = create_callable_from_generator(jit_context(), "configure_sum", {{"n", "3"}, {"t", "int16"}});
    const int n = 19;
    Buffer<int16_t> in(n), e0(n), e1(n), e2(n), out(n);
    for (int x = 0; x < n; x++) {
        in(x) = (int16_t)(x - 9);
        e0(x) = (int16_t)(2 * x);
        e1(x) = (int16_t)(100 - x);
        e2(x) = (int16_t)(x * x);
    }
    ASSERT_EQ(c(in, e0, e1, e2, (int16_t)5, out), 0);
    for (int x = 0; x < n; x++) {
        EXPECT_EQ(out(x), (int16_t)((x - 9) * 5 + 2 * x + (100 - x) + x * x)) << x;
    }
}

TEST(GeneratorApi, CallableWithTargetAndNoExtras) {
    Callable c = create_callable_from_generator(get_jit_target_from_environment(), "configure_sum",
                                                {{"n", "0"}, {"t", "float32"}});
    Buffer<float> in(6), out(6);
    for (int x = 0; x < 6; x++) {
        in(x) = 0.5f * x;
    }
    ASSERT_EQ(c(in, 3.0f, out), 0);
    for (int x = 0; x < 6; x++) {
        EXPECT_EQ(out(x), 1.5f * x);
    }
}

TEST(GeneratorApi, InputExprTypeFromParamOrConfigure) {
    Buffer<int16_t> in(4, 3);
    in.for_each_element([&](int x, int y) { in(x, y) = (int16_t)(x * 10 - y); });
    // k.type=uint8: k is a uint8 argument, its bits are 8.
    Callable c8 = create_callable_from_generator(jit_context(), "dynamic_scale", {{"k.type", "uint8"}});
    Buffer<int32_t> out(4, 3);
    ASSERT_EQ(c8(in, (uint8_t)200, out), 0);
    out.for_each_element([&](int x, int y) { EXPECT_EQ(out(x, y), (x * 10 - y) * 200 + 8); });
    // typed=true: configure() sets it to int8.
    Callable ci8 = create_callable_from_generator(jit_context(), "dynamic_scale", {{"typed", "true"}});
    ASSERT_EQ(ci8(in, (int8_t)-3, out), 0);
    out.for_each_element([&](int x, int y) { EXPECT_EQ(out(x, y), (x * 10 - y) * -3 + 8); });
}

TEST(GeneratorApi, ScalarOutputs) {
    Callable c = create_callable_from_generator(jit_context(), "reduce");
    Buffer<float> in(10);
    float total = 0;
    for (int x = 0; x < 10; x++) {
        in(x) = (float)(x % 4) - 1.25f;
        total += in(x);
    }
    const std::vector<int> scalar; // zero dimensions
    Buffer<float> t(scalar), mn(scalar), mx(scalar);
    Buffer<int32_t> n(scalar);
    ASSERT_EQ(c(in, t, n, mn, mx), 0);
    EXPECT_EQ(t(), total);
    EXPECT_EQ(n(), 10);
    EXPECT_EQ(mn(), -1.25f);
    EXPECT_EQ(mx(), 1.75f);
}

// at_level, checked against in * 3 + 1 summed over two rows.
void expect_at_level(Callable &c) {
    Buffer<int32_t> in(5, 6), out(5, 5);
    in.for_each_element([&](int x, int y) { in(x, y) = 7 * x - y * y; });
    ASSERT_EQ(c(in, out), 0);
    out.for_each_element([&](int x, int y) { EXPECT_EQ(out(x, y), in(x, y) * 3 + 1 + in(x, y + 1) * 3 + 1); });
}

TEST(GeneratorApi, LoopLevelParamFromStringsAndCode) {
    for (const char *where : {"root", "inlined"}) {
        Callable c = create_callable_from_generator(jit_context(), "at_level", {{"inner_at", where}});
        expect_at_level(c);
    }
    // From code: a level of the output, set before and after generate().
    std::unique_ptr<AtLevel> g = AtLevel::create(jit_context());
    g->set_generatorparam_value("inner_at", LoopLevel::root());
    g->build_pipeline();
    g->set_generatorparam_value("inner_at", LoopLevel(g->out, g->y));
    Callable c = g->compile_to_callable();
    expect_at_level(c);
}

TEST(GeneratorApi, LoopLevelParamStrings) {
    GeneratorParam<LoopLevel> level{"level", LoopLevel::inlined()};
    EXPECT_EQ(level.to_string(), "inlined");
    level.set_from_string("root");
    EXPECT_EQ(level.to_string(), "root");
    EXPECT_TRUE(static_cast<LoopLevel>(level).defined());
}

TEST(GeneratorApi, CreateAndRegistry) {
    Target t("x86-64-linux-sse41");
    GeneratorContext ctx(t, AutoschedulerParams("Mullapudi2016", {{"parallelism", "8"}}));
    EXPECT_EQ(ctx.target(), t);
    EXPECT_EQ(ctx.autoscheduler_params().to_string(), "autoscheduler=Mullapudi2016 autoscheduler.parallelism=8");
    EXPECT_EQ(ctx.with_target(get_host_target()).autoscheduler_params().name, "Mullapudi2016");

    std::unique_ptr<Autosched> g = ctx.create<Autosched>();
    EXPECT_EQ(g->get_target(), t);
    EXPECT_EQ(g->context().target(), t);
    EXPECT_TRUE(g->using_autoscheduler());

    Internal::AbstractGeneratorPtr r = Internal::GeneratorRegistry::create("reduce", jit_context());
    ASSERT_NE(r, nullptr);
    EXPECT_EQ(r->name(), "reduce");
    EXPECT_FALSE(r->using_autoscheduler());
    EXPECT_EQ(Internal::GeneratorRegistry::create("no_such_generator", jit_context()), nullptr);
    std::vector<std::string> names = Internal::GeneratorRegistry::enumerate();
    EXPECT_NE(std::find(names.begin(), names.end(), "configure_sum"), names.end());
}

TEST(GeneratorApi, UsingAutoscheduler) {
    Buffer<int32_t> in(8), out(8);
    for (int x = 0; x < 8; x++) {
        in(x) = x;
    }
    // Without a name: false, the generator schedules itself.
    Callable plain = create_callable_from_generator(jit_context(), "autosched");
    ASSERT_EQ(plain(in, out), 0);
    EXPECT_EQ(out(3), 3);
    // A name (GeneratorParam or context): true. A Callable is compiled
    // without applying it, as upstream.
    Callable named = create_callable_from_generator(jit_context(), "autosched",
                                                    {{"autoscheduler", "Adams2019"}, {"autoscheduler.x", "1"}});
    ASSERT_EQ(named(in, out), 0);
    EXPECT_EQ(out(3), 1003);
    GeneratorContext ctx(get_jit_target_from_environment(), AutoschedulerParams("Li2018"));
    Callable from_context = create_callable_from_generator(ctx, "autosched");
    ASSERT_EQ(from_context(in, out), 0);
    EXPECT_EQ(out(3), 1003);
}

// build_module, as upstream's: the autoscheduler's results go with the
// Module when the generator names one; none otherwise.
TEST(GeneratorApi, BuildModuleCarriesAutoschedulerResults) {
    Target t = get_jit_target_from_environment();
    {
        // One instance at a time: each names its Output's Func "out".
        GeneratorContext ctx(t, AutoschedulerParams("Li2018"));
        std::unique_ptr<Autosched> g = ctx.create<Autosched>();
        Module m = g->build_module("autosched_fn");
        EXPECT_EQ(m.name(), "autosched_fn");
        ASSERT_EQ(m.functions().size(), 1u);
        const AutoSchedulerResults *r = m.get_auto_scheduler_results();
        ASSERT_NE(r, nullptr);
        EXPECT_EQ(r->autoscheduler_params.name, "Li2018");
        EXPECT_EQ(r->target, t);
        EXPECT_FALSE(r->schedule_source.empty());
    }
    std::unique_ptr<Autosched> plain = jit_context().create<Autosched>();
    Module pm = plain->build_module();
    EXPECT_EQ(pm.get_auto_scheduler_results(), nullptr);

    // Set by hand, and kept by copies of the handle.
    AutoSchedulerResults mine;
    mine.schedule_source = "// by hand";
    pm.set_auto_scheduler_results(mine);
    Module copy = pm;
    ASSERT_NE(copy.get_auto_scheduler_results(), nullptr);
    EXPECT_EQ(copy.get_auto_scheduler_results()->schedule_source, "// by hand");
}

// ---------------------------------------------------------------- errors

class AddInGenerate : public Generator<AddInGenerate> {
public:
    Output<Buffer<int32_t>> out{"out", 1};
    void generate() {
        add_input<Buffer<int32_t>>("late", 1);
        out(x) = x;
    }
    Var x;
};

class AddTaken : public Generator<AddTaken> {
public:
    GeneratorParam<bool> output{"output", false};
    Input<Buffer<int32_t>> a{"a", 1};
    Output<Buffer<int32_t>> out{"out", 1};
    void configure() {
        if (output) {
            add_output<Buffer<int32_t>>("out", 1);
        } else {
            add_input<Buffer<int32_t>>("a", 1);
        }
    }
    void generate() { out(x) = a(x); }
    Var x;
};

class SetDeclared : public Generator<SetDeclared> {
public:
    GeneratorParam<int> what{"what", 0};
    Input<Buffer<float>[2]> in { "in", 1 };
    Input<Expr> k{"k"};
    Output<Buffer<>> out{"out", 1};
    void configure() {
        if (what == 0) {
            in.set_type(Int(32));
        } else if (what == 1) {
            in.set_dimensions(2);
        } else if (what == 2) {
            in.set_array_size(3);
        } else if (what == 3) {
            k.set_type(Int(8));
            k.set_type(Int(16));
        }
    }
    void generate() {
        if (what == 4) {
            out.set_type(Float(32));
        }
        out(x) = in[0](x) + in[1](x);
    }
    Var x;
};

class UntypedExpr : public Generator<UntypedExpr> {
public:
    Input<Expr> k{"k"};
    Output<Buffer<int32_t>> out{"out", 1};
    void generate() { out(x) = x * cast<int32_t>(k); }
    Var x;
};

class WithLevel : public Generator<WithLevel> {
public:
    GeneratorParam<LoopLevel> at{"at", LoopLevel::root()};
    GeneratorParam<int> n{"n", 1};
    Output<Buffer<int32_t>> out{"out", 1};
    void generate() { out(x) = x * n; }
    Var x;
};

} // namespace

HALIDE_REGISTER_GENERATOR(AddInGenerate, add_in_generate)
HALIDE_REGISTER_GENERATOR(AddTaken, add_taken)
HALIDE_REGISTER_GENERATOR(SetDeclared, set_declared)
HALIDE_REGISTER_GENERATOR(UntypedExpr, untyped_expr)
HALIDE_REGISTER_GENERATOR(WithLevel, with_level)

namespace {

std::string callable_error(const std::string &name, const GeneratorParamsMap &params = {}) {
    return message_of([&] { create_callable_from_generator(jit_context(), name, params); });
}

TEST(GeneratorApiErrors, AddInputOutsideConfigure) {
    EXPECT_EQ(callable_error("add_in_generate"),
              "You may not do this operation at this phase: add_input() may only be called from configure() "
              "(Generator add_in_generate).");
}

TEST(GeneratorApiErrors, AddNameTaken) {
    EXPECT_EQ(callable_error("add_taken"),
              "Cannot add input with name a. It is already taken by another input or output parameter.");
    EXPECT_EQ(callable_error("add_taken", {{"output", "true"}}),
              "Cannot add output with name out. It is already taken by another input or output parameter.");
}

TEST(GeneratorApiErrors, SetWhatTheDeclarationFixes) {
    EXPECT_EQ(callable_error("set_declared", {{"what", "0"}}),
              "set_type() may only be called on an Input or Output that has no type specified.");
    EXPECT_EQ(callable_error("set_declared", {{"what", "1"}}),
              "set_dimensions() may only be called on an Input or Output that has no dimensionality specified.");
    EXPECT_EQ(callable_error("set_declared", {{"what", "2"}}),
              "set_array_size() may only be called on an Input or Output that has no array size specified.");
    EXPECT_EQ(callable_error("set_declared", {{"what", "3"}}),
              "set_type() may only be called on an Input or Output that has no type specified.");
}

TEST(GeneratorApiErrors, SetTypeOutsideConfigure) {
    EXPECT_EQ(callable_error("set_declared", {{"what", "4"}, {"k.type", "int8"}}),
              "You may not do this operation at this phase: out.set_type() may only be called from configure() "
              "(Generator set_declared).");
}

TEST(GeneratorApiErrors, InputExprWithoutType) {
    EXPECT_EQ(callable_error("untyped_expr"),
              "Type is not defined for Input 'k'; you may need to specify 'k.type' as a GeneratorParam, or call "
              "set_type() from the configure() method.");
}

TEST(GeneratorApiErrors, LoopLevelParam) {
    EXPECT_EQ(callable_error("with_level", {{"at", "outermost"}}),
              "Unable to parse at: outermost (a LoopLevel GeneratorParam is root or inlined)");
    Internal::AbstractGeneratorPtr g = Internal::GeneratorRegistry::create("with_level", jit_context());
    EXPECT_EQ(message_of([&] { g->set_generatorparam_value("n", LoopLevel::root()); }),
              "GeneratorParam n is not a LoopLevel and cannot be set this way.");
}

TEST(GeneratorApiErrors, TargetIsTheContexts) {
    EXPECT_EQ(callable_error("with_level", {{"target", "host"}}),
              "The GeneratorParam 'target' cannot be specified via string here; use GeneratorContext instead.");
}

TEST(GeneratorApiErrors, UnknownGenerator) {
    EXPECT_EQ(callable_error("no_such_generator"),
              "There is no Generator with the name 'no_such_generator' currently available.");
}

TEST(GeneratorApiErrors, UnknownAutoschedulerForAheadOfTime) {
    Internal::AbstractGeneratorPtr g = Internal::GeneratorRegistry::create("with_level", jit_context());
    g->set_generatorparam_value("autoscheduler", "NoSuchScheduler");
    std::string m = message_of([&] {
        g->compile_to({{OutputFileType::c_header, "/dev/null"}}, "f", get_host_target());
    });
    EXPECT_EQ(m.rfind("Unknown autoscheduler name 'NoSuchScheduler'; known names are: Adams2019 Anderson2021 Li2018 "
                      "Mullapudi2016",
                      0),
              0u)
        << m;
}

} // namespace
