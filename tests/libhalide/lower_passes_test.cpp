// Lowering passes one at a time: a statement before, the statement after.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "Halide.h"
#include "Halide/IRPrinter.h"
#include "Halide/Simplify.h"
#include "ir_text.h"
#include "lower/Function.h"
#include "lower/Lower.h"
#include "lower/Passes.h"

using namespace Halide;
using namespace Halide::Internal;

namespace {

// A pipeline with one input buffer and one scalar whose IR names ("q$1",
// "img$1") are not the names they were given ("q", "img").
struct RenamedInputs {
    ParamPtr param = std::make_shared<ParamContents>();
    InputBufferPtr buffer = std::make_shared<InputBufferContents>();
    LoweredPipeline p;

    RenamedInputs() {
        param->name = "q$1";
        param->user_name = "q";
        param->type = Int(32);
        buffer->name = "img$1";
        buffer->user_name = "img";
        buffer->type = UInt(8);
        buffer->dimensions = 1;
        p.func.args.push_back({"img$1", LoweredArgument::InputBuffer, UInt(8), 1});
        p.func.args.push_back({"q$1", LoweredArgument::Scalar, Int(32), 0});
        ArgumentSource b, s;
        b.buffer = buffer;
        s.param = param;
        p.sources = {b, s};
    }
};

Stmt body_reading(const std::string &also) {
    Expr read = Call::make(UInt(8), "img$1", {Variable::make(Int(32), "img$1.min.0")}, Call::Image);
    Expr sum = Add::make(Cast::make(Int(32), read), Variable::make(Int(32), "q$1"));
    Stmt store = Provide::make("out", {sum}, {Variable::make(Int(32), also)});
    return LetStmt::make(also, IntImm::make(Int(32), 0), store);
}

} // namespace

TEST(ArgumentNames, InputsTakeTheirGivenNames) {
    RenamedInputs in;
    Stmt before = body_reading("x");
    EXPECT_EQ(printed(before), "let x = 0\nout(x) = (int32(img$1(img$1.min.0)) + q$1)\n");
    Stmt after = use_given_argument_names(before, in.p);
    EXPECT_EQ(printed(after), "let x = 0\nout(x) = (int32(img(img.min.0)) + q)\n");
    EXPECT_EQ(in.p.func.args[0].name, "img");
    EXPECT_EQ(in.p.func.args[1].name, "q");
}

TEST(ArgumentNames, AGivenNameAlreadyInUseIsNotTaken) {
    RenamedInputs in;
    Stmt before = body_reading("q"); // a let named "q": the scalar keeps "q$1"
    Stmt after = use_given_argument_names(before, in.p);
    EXPECT_EQ(printed(after), "let q = 0\nout(q) = (int32(img(img.min.0)) + q$1)\n");
    EXPECT_EQ(in.p.func.args[0].name, "img");
    EXPECT_EQ(in.p.func.args[1].name, "q$1");
}

// End to end: Params and ImageParams keep the names they were given (as
// upstream's do), also when another live one has the same name.
TEST(ArgumentNames, ParamsWithTheSameNameInDifferentPipelines) {
    Param<int32_t> first("gain"), second("gain");
    ImageParam in_a(Int(32), 1, "frame"), in_b(Int(32), 1, "frame");
    EXPECT_EQ(first.name(), "gain");
    EXPECT_EQ(second.name(), "gain");
    EXPECT_EQ(in_b.name(), "frame");
    Var x("x");
    Func f("uses_second");
    f(x) = in_b(x) * second;
    std::vector<Argument> args = f.infer_arguments();
    ASSERT_EQ(args.size(), 2u);
    EXPECT_EQ(args[0].name, "frame");
    EXPECT_EQ(args[1].name, "gain");

    Buffer<int32_t> data(4);
    for (int i = 0; i < 4; i++) {
        data(i) = i + 1;
    }
    in_b.set(data);
    second.set(10);
    first.set(1000);
    Buffer<int32_t> out = f.realize({4});
    for (int i = 0; i < 4; i++) {
        EXPECT_EQ(out(i), (i + 1) * 10);
    }

    // Both in one pipeline: two arguments can't share a name, so the second keeps its unique one.
    Func g("uses_both");
    g(x) = first + second + x;
    std::vector<Argument> both = g.infer_arguments();
    ASSERT_EQ(both.size(), 2u);
    EXPECT_NE(both[0].name, both[1].name);
    Buffer<int32_t> sums = g.realize({3});
    for (int i = 0; i < 3; i++) {
        EXPECT_EQ(sums(i), 1010 + i);
    }
}

namespace {

// A chain of n compute_root Funcs, each split and vectorized: every region
// depends on the next one's (shifted inwards, widened to a split factor).
Func split_chain(ImageParam &input, int n) {
    Var x("x"), xo("xo"), xi("xi");
    Func f("chain_in");
    f(x) = input(x);
    for (int i = 0; i < n; i++) {
        Func g("chain" + std::to_string(i));
        g(x) = f(x) + 1;
        g.compute_root().split(x, xo, xi, 32).vectorize(xi, 8);
        f = g;
    }
    return f;
}

size_t lowered_size(int n) {
    ImageParam input(Int(32), 1, "input");
    Func out = split_chain(input, n);
    std::string path = ::testing::TempDir() + "chain" + std::to_string(n) + ".stmt";
    out.compile_to_lowered_stmt(path, {input});
    std::ifstream file(path, std::ios::binary | std::ios::ate);
    return (size_t)file.tellg();
}

} // namespace

// Each producer's region is written in its consumer's region variables, not
// in their values: substituted, the regions of a chain nest and the lowered
// statement doubles (or worse) with every Func.
TEST(ScheduleFunctions, RegionsOfAChainGrowLinearly) {
    size_t six = lowered_size(6), twelve = lowered_size(12), eighteen = lowered_size(18);
    EXPECT_LT(twelve - six, 2 * (eighteen - twelve) + 1);
    EXPECT_LT(eighteen - twelve, 2 * (twelve - six) + 1);
    EXPECT_LT(eighteen, 4 * six);
}

TEST(ScheduleFunctions, ChainOfSplitFuncsComputesEachStep) {
    ImageParam input(Int(32), 1, "input");
    Func out = split_chain(input, 18);
    // Each producer is at least one split factor wider than its consumer's
    // tail needs (shifted inwards): the input reaches left of the output.
    Buffer<int32_t> data(400);
    data->set_min(-64);
    for (int i = -64; i < 336; i++) {
        data(i) = 7 * i - 1000;
    }
    input.set(data);
    for (int width : {32, 45, 100, 257}) { // an output is at least one split wide
        Buffer<int32_t> got = out.realize({width});
        for (int i = 0; i < width; i++) {
            ASSERT_EQ(got(i), 7 * i - 1000 + 18) << "width " << width << " at " << i;
        }
    }
}

// Pipeline::add_requirement: each (condition, message parts) is an assertion
// before the body, reporting "false" (as upstream) and the parts' values.
TEST(AddRequirements, ConditionsBecomeAssertionsBeforeTheBody) {
    Expr p = Variable::make(Int(32), "p"), q = Variable::make(Float(32), "q");
    Stmt before = Provide::make("out", {p}, {IntImm::make(Int(32), 0)});
    EXPECT_EQ(printed(add_requirements(before, {})), "out(0) = p\n");
    Stmt after = add_requirements(before, {{GT::make(p, IntImm::make(Int(32), 5)), {StringImm::make("too small:"), p}},
                                           {LT::make(q, FloatImm::make(Float(32), 1.0)), {}}});
    EXPECT_EQ(printed(after),
              "assert((p > 5), halide_error_requirement_failed(__user_context, \"false\", stringify(\"too small:\", "
              "p)))\n"
              "assert((q < 1.0f), halide_error_requirement_failed(__user_context, \"false\", \"\"))\n"
              "out(0) = p\n");
}

// target_arch_is() and the other target queries: constants of the compile
// target (the expected values are facts about those targets: AVX2 registers
// hold 8 floats or 32 bytes, NEON 4 floats).
TEST(LowerTargetQueries, QueriesBecomeTheTargetsAnswers) {
    Stmt before =
        Provide::make("out", {Variable::make(Int(32), "x")},
                      {target_bits(), target_natural_vector_size<float>(), target_natural_vector_size(UInt(8)),
                       select(target_arch_is(Target::X86), 1, 2), select(target_os_is(Target::Windows), 1, 2),
                       select(target_has_feature(Target::AVX2), 1, 2)});
    EXPECT_EQ(printed(before), "out(target_bits(), target_natural_vector_size(0.0f), "
                               "target_natural_vector_size((uint8)0), select(target_arch_is(1), 1, 2), "
                               "select(target_os_is(2), 1, 2), select(target_has_feature(7), 1, 2)) = x\n");
    EXPECT_EQ(printed(simplify(lower_target_queries(before, Target("x86-64-linux-avx-avx2-sse41")))),
              "out(64, 8, 32, 1, 2, 1) = x\n");
    EXPECT_EQ(printed(simplify(lower_target_queries(before, Target("arm-32-windows")))),
              "out(32, 4, 16, 2, 1, 2) = x\n");
    // Anything else is left as it is.
    Stmt other = Provide::make("out", {Variable::make(Int(32), "x")}, {likely(Variable::make(Int(32), "y"))});
    EXPECT_EQ(printed(lower_target_queries(other, Target("arm-32-windows"))), printed(other));
}

// Pipeline::print_loop_nest: loops named as upstream names them, produce and
// consume blocks, loops of extent 1 left out. The texts are upstream 21's
// print_loop_nest of the same pipelines.
TEST(PrintLoopNest, AsUpstreamPrintsIt) {
    const char *expected[] = {"produce lnf:\n"
                              "  produce lng:\n"
                              "    for x in [0, 16]:\n"
                              "      lng(...) = ...\n"
                              "  consume lng:\n"
                              "    for x.xo.t in [0, 3]:\n"
                              "      for x.xi in [0, 3]:\n"
                              "        lnf(...) = ...\n",
                              "produce lnf:\n"
                              "  parallel y in [0, 1]:\n"
                              "    produce lng:\n"
                              "      for x in [0, 16]:\n"
                              "        lng(...) = ...\n"
                              "    consume lng:\n"
                              "      for x.xo.t in [0, 3]:\n"
                              "        for x.xi in [0, 3]:\n"
                              "          lnf(...) = ...\n"};
    for (int ny : {1, 2}) {
        Var x("x"), y("y"), xo("xo"), xi("xi");
        Func g("lng"), f("lnf");
        g(x, y) = x + y;
        f(x, y) = g(x, y) + g(x + 1, y);
        g.compute_at(f, y);
        f.split(x, xo, xi, 4).rename(xo, Var("t")).parallel(y);
        f.bound(x, 0, 16).bound(y, 0, ny);
        EXPECT_EQ(Pipeline(f).loop_nest(), expected[ny - 1]) << "y extent " << ny;
    }
}

TEST(ScatterGather, OneStorePerValueAfterEveryLoad) {
    // f(scatter(3, 5)) = f(gather(5, 3)) + 1: both loads, then both stores.
    Expr sg_store = Call::make(Int(32), "scatter_gather", {Expr(3), Expr(5)}, Call::Intrinsic);
    Expr sg_load = Call::make(Int(32), "scatter_gather", {Expr(5), Expr(3)}, Call::Intrinsic);
    Expr load = Call::make(Int(32), "f", {sg_load}, Call::Halide);
    Stmt before = Provide::make("f", {Add::make(load, Expr(1)), Expr(7)}, {sg_store});
    EXPECT_EQ(printed(before), "f(scatter_gather(3, 5)) = {(f(scatter_gather(5, 3)) + 1), 7}\n");
    Stmt after = lower_scatter_gather(before);
    EXPECT_EQ(printed(after), "let f.gathered.0.0 = (f(5) + 1)\n"
                              "let f.gathered.1.0 = (f(3) + 1)\n"
                              "f(3) = {f.gathered.0.0, 7}\n"
                              "f(5) = {f.gathered.1.0, 7}\n");
    // A Provide without them is left alone.
    Stmt plain = Provide::make("g", {Expr(1)}, {Expr(0)});
    EXPECT_TRUE(lower_scatter_gather(plain).same_as(plain));
}

TEST(RemoveUndef, SelectOfUndefGuardsTheStore) {
    Expr x = Variable::make(Int(32), "x");
    Expr u = undef(Int(32));
    // out(x) = {select(x < 20, x * 2, undef), undef}: value 0 stored where x < 20, value 1 never.
    Stmt before = Provide::make("out", {select(x < 20, x * 2, u), u}, {x});
    EXPECT_EQ(printed(before), "out(x) = {select((x < 20), (x * 2), undef()), undef()}\n");
    EXPECT_EQ(printed(remove_undef(before)), "if ((x < 20)) {\n  out(x) = {(x * 2), undef()}\n}\n");
    // A coordinate undef where x >= 2; an expression of undef is undef as a whole.
    Stmt at = Provide::make("out", {x + 1, x + u}, {clamp(select(x < 2, 13, u), 0, 100)});
    EXPECT_EQ(printed(remove_undef(at)), "if ((x < 2)) {\n  out(max(min(13, 100), 0)) = {(x + 1), undef()}\n}\n");
    // Nothing to do without undef inside a value.
    Stmt plain = Provide::make("out", {x + 1, u}, {x});
    EXPECT_EQ(printed(remove_undef(plain)), printed(plain));
}

// extern_input_queries: an extern stage given an input buffer is asked,
// before everything, what it reads of it over every region of it computed
// (here the two regions the loop's iterations compute); the marker reads
// the input over the answers.
TEST(ExternInputQueries, AskedFirstOverEveryRegionComputed) {
    auto ext = std::make_shared<FunctionContents>();
    ext->name = "ext";
    ext->args = {"x"};
    Expr image = Call::make(UInt(8), "img", {IntImm::make(Int(32), 0)}, Call::Image);
    ext->values = {Call::make(UInt(8), "extern_stage", {image, IntImm::make(Int(32), 3)}, Call::Intrinsic)};
    auto def = std::make_shared<ExternDefinition>();
    def->name = "fn";
    def->arg_kinds = {ExternFuncArgument::ImageParamArg, ExternFuncArgument::ExprArg};
    ext->extern_def = def;
    ext->extern_symbol = "fn";
    Environment env = {{"ext", ext}};
    // for (i, 0, 2) { ext(promise_clamped(?, 10 * i, 10 * i + 9)) = 0 }
    Expr i = Variable::make(Int(32), "i");
    Expr unknown = Call::make(Int(32), "extern_stage_unknown", {}, Call::Intrinsic);
    Expr coord = Call::make(Int(32), "promise_clamped", {unknown, Mul::make(i, 10), Add::make(Mul::make(i, 10), 9)},
                            Call::Intrinsic);
    Stmt before = For::make("i", IntImm::make(Int(32), 0), IntImm::make(Int(32), 2), ForType::Serial,
                            Provide::make("ext", {make_zero(UInt(8))}, {coord}));
    std::string after = printed(simplify(extern_input_queries(before, env)));
    EXPECT_EQ(after,
              "let ext.extern.root.q0.0 = buffer_make(img.host, 0, 1, 8, 1, 1, img.min.0, img.extent.0, "
              "img.stride.0)\n"
              "let ext.extern.root.query = fn(ext.extern.root.q0.0, 3, buffer_make(0, 0, 1, 8, 1, 1, 0, 20, 0))\n"
              "let ext.extern.root.q0.min.0 = buffer_get_min(ext.extern.root.q0.0, 0)\n"
              "let ext.extern.root.q0.extent.0 = buffer_get_extent(ext.extern.root.q0.0, 0)\n"
              "let ext.extern.root.q0.max.0 = ((ext.extern.root.q0.min.0 + ext.extern.root.q0.extent.0) + -1)\n"
              "assert((ext.extern.root.query == 0), halide_error_extern_stage_failed(__user_context, \"fn\", "
              "ext.extern.root.query))\n"
              "for (i, 0, 2) {\n"
              "  ext(promise_clamped(extern_stage_unknown(), (i * 10), ((i * 10) + 9))) = (uint8)0\n"
              "}\n")
        << after;
    // Without an extern stage reading a buffer: unchanged.
    EXPECT_TRUE(extern_input_queries(before, {}).same_as(before));
}
