// Front-end API with upstream's signatures: a definition returns its Stage,
// a Tuple converts from a call of a Tuple-valued Func, Buffer::crop and
// cropped, Buffers as compile_to arguments ({buffer}), compile_to_assembly
// without a function name, Pipeline::set_jit_externs (of C functions, Funcs
// and Pipelines), and LoweredFunc as a public type (Module::functions(), made
// from Arguments).
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

#include "Halide.h"

using namespace Halide;

namespace {

TEST(FrontendSignatures, DefinitionsReturnTheirStage) {
    Func f("fs_stage");
    Var x("x");
    Stage pure = (f(x) = x * 3);
    pure.vectorize(x, 4);
    Stage update = (f(x) += 1);
    update.unroll(x, 2);
    Stage times = (f(x) *= 2);
    EXPECT_EQ(f.num_update_definitions(), 2);
    (void)times;
    Buffer<int> out = f.realize({16});
    for (int i = 0; i < 16; i++) {
        EXPECT_EQ(out(i), (i * 3 + 1) * 2);
    }
    // The stages returned are the Func's: the pure one is vectorized.
    EXPECT_NE(f.lowered_stmt().find("ramp("), std::string::npos);
}

TEST(FrontendSignatures, ATupleFromACallOfATupleFunc) {
    Func g("fs_tuple_g"), h("fs_tuple_h");
    Var x("x");
    g(x) = Tuple(x, x * 2.5f);
    Tuple t = g(x);
    ASSERT_EQ(t.size(), 2u);
    h(x) = g(x); // all of g's values
    Realization r = h.realize({6});
    ASSERT_EQ(r.size(), 2u);
    Buffer<int> a = r[0];
    Buffer<float> b = r[1];
    for (int i = 0; i < 6; i++) {
        EXPECT_EQ(a(i), i);
        EXPECT_EQ(b(i), i * 2.5f);
    }
}

TEST(FrontendSignatures, BufferCrops) {
    Buffer<int> b(10, 8);
    b.for_each_element([&](int x, int y) { b(x, y) = x + 100 * y; });
    Buffer<int> c = b.cropped(0, 2, 5);
    EXPECT_EQ(c.min(0), 2);
    EXPECT_EQ(c.extent(0), 5);
    EXPECT_EQ(c(3, 4), 403);
    Buffer<int> r = b.cropped({{1, 3}, {2, 4}});
    EXPECT_EQ(r.min(1), 2);
    EXPECT_EQ(r.extent(1), 4);
    EXPECT_EQ(r(2, 5), 502);
    b.crop(1, 3, 2);
    EXPECT_EQ(b.min(1), 3);
    EXPECT_EQ(b.extent(1), 2);
    b.crop({{4, 2}});
    EXPECT_EQ(b.min(0), 4);
    EXPECT_EQ(b(5, 4), 405);

    // A cropped Buffer read by a pipeline: only its region is there.
    Func f("fs_crop");
    Var x("x");
    f(x) = c(x, 1) + 1;
    Buffer<int> out(5);
    out.set_min(2);
    f.realize(out);
    for (int i = 2; i < 7; i++) {
        EXPECT_EQ(out(i), i + 101);
    }
}

std::string temp_path(const std::string &leaf) {
    return testing::TempDir() + "/frontend_signatures_" + std::to_string(getpid()) + "_" + leaf;
}

TEST(FrontendSignatures, ABufferIsAnInputArgument) {
    Buffer<uint8_t> in(std::vector<int>{16}, "fs_arg_in");
    Func f("fs_arg_f");
    Var x("x");
    f(x) = in(x) + 1;
    std::string s = temp_path("f.s");
    f.compile_to_assembly(s, {in}, "fs_arg_fn", get_host_target());
    std::ifstream file(s);
    std::stringstream text;
    text << file.rdbuf();
    EXPECT_NE(text.str().find("fs_arg_fn"), std::string::npos);
    std::remove(s.c_str());

    // The Buffer is a parameter of the entry point, not a constant in it.
    Module m = f.compile_to_module({in}, "fs_arg_fn2", get_host_target());
    const Internal::LoweredFunc &fn = m.functions().front();
    EXPECT_EQ(fn.name, "fs_arg_fn2");
    ASSERT_EQ(fn.args.size(), 2u);
    EXPECT_EQ(fn.args[0].name, "fs_arg_in");
    EXPECT_TRUE(fn.args[0].is_buffer());
    EXPECT_EQ(fn.linkage, LinkageType::ExternalPlusMetadata);
    EXPECT_TRUE(fn.embedded.empty());
}

TEST(FrontendSignatures, CompileToAssemblyNamedAfterTheFunc) {
    Func f("fs_named");
    Var x("x");
    f(x) = x;
    std::string s = temp_path("named.s");
    f.compile_to_assembly(s, {}, get_host_target());
    std::ifstream file(s);
    std::stringstream text;
    text << file.rdbuf();
    EXPECT_NE(text.str().find("fs_named_argv"), std::string::npos);
    std::remove(s.c_str());
}

// Upstream's second LoweredFunc constructor: from the public Arguments, each
// keeping its name, kind, type, dimensions and estimates.
TEST(FrontendSignatures, LoweredFuncFromArguments) {
    ArgumentEstimates est;
    est.scalar_estimate = Expr(3);
    std::vector<Argument> args = {Argument("k", Argument::InputScalar, Int(32), 0, est),
                                  Argument("in", Argument::InputBuffer, UInt(8), 2),
                                  Argument("out", Argument::OutputBuffer, Float(32), 3)};
    Internal::LoweredFunc fn("fs_from_args", args, Internal::Evaluate::make(0), LinkageType::External);
    EXPECT_EQ(fn.name, "fs_from_args");
    EXPECT_EQ(fn.linkage, LinkageType::External);
    EXPECT_EQ(fn.name_mangling, NameMangling::Default);
    ASSERT_EQ(fn.args.size(), 3u);
    EXPECT_EQ(fn.args[0].name, "k");
    EXPECT_EQ(fn.args[0].kind, Internal::LoweredArgument::Scalar);
    EXPECT_EQ(fn.args[0].type, Int(32));
    ASSERT_TRUE(fn.args[0].scalar_estimate.defined());
    EXPECT_TRUE(Internal::equal(fn.args[0].scalar_estimate, Expr(3)));
    EXPECT_EQ(fn.args[1].kind, Internal::LoweredArgument::InputBuffer);
    EXPECT_EQ(fn.args[1].type, UInt(8));
    EXPECT_EQ(fn.args[1].dimensions, 2);
    EXPECT_EQ(fn.args[2].name, "out");
    EXPECT_EQ(fn.args[2].kind, Internal::LoweredArgument::OutputBuffer);
    EXPECT_EQ(fn.args[2].dimensions, 3);
    EXPECT_TRUE(fn.args[2].is_buffer());
}

// StmtOutputFormat is unscoped, as upstream's: Halide::Text and Halide::HTML.
TEST(FrontendSignatures, StmtOutputFormatUnscoped) {
    static_assert(Halide::Text == StmtOutputFormat::Text, "Text");
    static_assert(Halide::HTML == StmtOutputFormat::HTML, "HTML");
    Func f("fs_text_format");
    Var x("x");
    f(x) = x * 2;
    std::string path = temp_path("text_format.stmt");
    f.compile_to_lowered_stmt(path, {}, Text, get_host_target());
    std::ifstream file(path);
    std::stringstream text;
    text << file.rdbuf();
    EXPECT_NE(text.str().find("fs_text_format"), std::string::npos);
    EXPECT_EQ(text.str().find("<html"), std::string::npos);
    std::remove(path.c_str());
}

float fs_triple_plus_one(float v) {
    return v * 3 + 1;
}

HalideExtern_1(float, fs_jit_extern_fn, float);

TEST(FrontendSignatures, JitExternsBindNamesToFunctions) {
    Func f("fs_jit_extern");
    Var x("x");
    f(x) = fs_jit_extern_fn(cast<float>(x));
    Pipeline p(f);
    p.set_jit_externs({{"fs_jit_extern_fn", JITExtern(fs_triple_plus_one)}});
    ASSERT_EQ(p.get_jit_externs().size(), 1u);
    EXPECT_EQ(p.get_jit_externs().at("fs_jit_extern_fn").extern_c_function().address(),
              reinterpret_cast<void *>(&fs_triple_plus_one));
    EXPECT_EQ(p.get_jit_externs().at("fs_jit_extern_fn").extern_c_function().signature().arg_types().size(), 1u);
    Buffer<float> out = p.realize({8});
    for (int i = 0; i < 8; i++) {
        EXPECT_EQ(out(i), i * 3.0f + 1);
    }
}

// As upstream: a JITExtern made from a Func or Pipeline binds that pipeline's
// entry point (__user_context, inputs, outputs), bounds queries included.
TEST(FrontendSignatures, JitExternsBindFuncsAndPipelines) {
    Var x("x"), y("y");
    Func monitor("fs_monitor");
    monitor(x, y) = cast<float>(x) * 10 + y;
    Func f("fs_extern_of_func");
    f.define_extern("fs_extern_func", {user_context_value()}, Float(32), 2);
    Pipeline p(f);
    p.set_jit_externs({{"fs_extern_func", JITExtern(monitor)}});
    EXPECT_TRUE(p.get_jit_externs().at("fs_extern_func").pipeline().defined());
    Buffer<float> out = p.realize({7, 5});
    for (int j = 0; j < 5; j++) {
        for (int i = 0; i < 7; i++) {
            ASSERT_EQ(out(i, j), i * 10.0f + j) << i << ", " << j;
        }
    }

    // An input: the extern stage asks the inner pipeline what it reads of
    // its producer (a bounds query), then runs it.
    ImageParam in(Int(32), 1, "fs_inner_in");
    Func doubled("fs_doubled");
    doubled(x) = in(x + 2) * 2;
    Func producer("fs_producer"), g("fs_extern_of_pipeline"), h("fs_after_extern");
    producer(x) = x * x;
    producer.compute_root();
    g.define_extern("fs_extern_pipeline", {user_context_value(), producer}, Int(32), 1);
    g.compute_root();
    h(x) = g(x) + 1;
    Pipeline q(h);
    q.set_jit_externs({{"fs_extern_pipeline", JITExtern(Pipeline(doubled))}});
    Buffer<int> r = q.realize({9});
    for (int i = 0; i < 9; i++) {
        ASSERT_EQ(r(i), (i + 2) * (i + 2) * 2 + 1) << i;
    }
}

} // namespace
