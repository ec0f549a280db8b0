// Where a Func's storage lives: store_in(MemoryType). Results against plain
// C++, the kind of allocation in the LLVM IR, upstream 21's errors.
#include <gtest/gtest.h>

#include <string>

#include "Halide.h"
#include "Halide/IREquality.h"
#include "Halide/IRPrinter.h"
#include "error_message.h"
#include "ir/Substitute.h"
#include "ir_text.h"
#include "lower/Function.h"
#include "lower/Passes.h"

using namespace Halide;
using namespace Halide::Internal;

namespace {

// g(x, y) = f(x, y) + f(x + 1, y) with f(x, y) = x * 3 + y, f computed per
// point of g (a constant-size allocation of 2) or per row (the size depends
// on the output's width).
struct TwoStage {
    Var x{"x"}, y{"y"};
    Func f{"f"}, g{"g"};
    explicit TwoStage(bool per_row) {
        f(x, y) = x * 3 + y;
        g(x, y) = f(x, y) + f(x + 1, y);
        f.compute_at(g, per_row ? y : x);
    }
    static int expected(int x, int y) { return (x * 3 + y) + ((x + 1) * 3 + y); }
};

void expect_correct(Func g, int w, int h) {
    Buffer<int> out = g.realize({w, h});
    for (int y = 0; y < h; y++) {
        for (int x = 0; x < w; x++) {
            ASSERT_EQ(out(x, y), TwoStage::expected(x, y)) << "at " << x << ", " << y;
        }
    }
}

bool calls_malloc(Func g) {
    return g.llvm_ir().find("call ptr @halide_malloc") != std::string::npos;
}

} // namespace

TEST(StoreIn, EveryCpuKindComputesTheSameValues) {
    for (MemoryType t : {MemoryType::Auto, MemoryType::Heap, MemoryType::Stack, MemoryType::Register,
                         MemoryType::GPUShared, MemoryType::GPUTexture, MemoryType::LockedCache, MemoryType::VTCM}) {
        for (bool per_row : {false, true}) {
            if (t == MemoryType::Register && per_row) {
                continue; // not a constant size: refused (below)
            }
            TwoStage p(per_row);
            p.f.store_in(t);
            SCOPED_TRACE(std::to_string((int)t) + (per_row ? " per row" : " per point"));
            expect_correct(p.g, 37, 5);
        }
    }
}

TEST(StoreIn, TheLoweredStatementNamesTheMemory) {
    TwoStage p(false);
    p.f.store_in(MemoryType::Stack);
    EXPECT_NE(p.g.lowered_stmt().find("allocate f[int32 * 2 * 1] in Stack {"), std::string::npos) << p.g.lowered_stmt();
    Var x("x");
    Func f("h"), g("k");
    f(x) = x;
    g(x) = f(x) + f(x + 1);
    f.compute_at(g, x);
    EXPECT_NE(g.lowered_stmt().find("allocate h[int32 * 2] {"), std::string::npos) << g.lowered_stmt();
}

TEST(StoreIn, StackIsNotMallocedAndHeapIs) {
    for (bool per_row : {false, true}) {
        TwoStage stack(per_row), heap(per_row), reg(false);
        stack.f.store_in(MemoryType::Stack);
        heap.f.store_in(MemoryType::Heap);
        reg.f.store_in(MemoryType::Register);
        EXPECT_FALSE(calls_malloc(stack.g)) << stack.g.llvm_ir();
        EXPECT_TRUE(calls_malloc(heap.g)) << heap.g.llvm_ir();
        EXPECT_FALSE(calls_malloc(reg.g));
    }
}

// A stack block of run-time size in a loop is released at the end of each
// iteration: 4000 rows of 4000 ints would be 64 MB of stack otherwise.
TEST(StoreIn, StackOfRuntimeSizeInALoopIsReleased) {
    TwoStage p(true);
    p.f.store_in(MemoryType::Stack);
    expect_correct(p.g, 4000, 4000);
}

TEST(StoreIn, StackInAParallelLoop) {
    TwoStage p(true);
    p.f.store_in(MemoryType::Stack);
    p.g.parallel(p.y);
    expect_correct(p.g, 300, 64);
}

TEST(StoreIn, RegisterNeedsAConstantSize) {
    TwoStage p(true);
    p.f.store_in(MemoryType::Register);
    std::string msg;
    try {
        p.g.realize({10, 2});
    } catch (const CompileError &e) {
        msg = e.what();
    }
    // Upstream 21's words.
    EXPECT_NE(msg.find("Allocation f has a dynamic size. Only fixed-size allocations can be stored in registers. "
                       "Try storing on the heap or stack instead."),
              std::string::npos)
        << msg;
}

TEST(StoreIn, AMXTileIsRefused) {
    TwoStage p(false);
    p.f.store_in(MemoryType::AMXTile);
    std::string msg = message_of([&] { p.g.realize({10, 2}); });
    EXPECT_NE(msg.find("AMXTile"), std::string::npos) << msg;
}

TEST(StoreIn, ATupleStoresEachValueInTheMemory) {
    Var x("x");
    Func f("f"), g("g");
    f(x) = Tuple(x, x * 2);
    g(x) = f(x)[0] + f(x + 1)[1];
    f.compute_at(g, x).store_in(MemoryType::Stack);
    std::string stmt = g.lowered_stmt();
    EXPECT_NE(stmt.find("allocate f.0[int32 * 2] in Stack"), std::string::npos) << stmt;
    EXPECT_NE(stmt.find("allocate f.1[int32 * 2] in Stack"), std::string::npos) << stmt;
    Buffer<int> out = g.realize({20});
    for (int i = 0; i < 20; i++) {
        EXPECT_EQ(out(i), i + (i + 1) * 2);
    }
}

// CheckMemoryTypes: a statement goes through unchanged, or is refused.
TEST(CheckMemoryTypes, ConstantRegisterPassesADynamicOneIsRefused) {
    Stmt body = Store::make("r", IntImm::make(Int(32), 1), IntImm::make(Int(32), 0));
    Stmt ok = Allocate::make("r", Int(32), MemoryType::Register, {IntImm::make(Int(32), 4)}, body);
    EXPECT_EQ(printed(ok), "allocate r[int32 * 4] in Register {\n  r[0] = 1\n}\n");
    EXPECT_TRUE(check_memory_types(ok).same_as(ok));
    Stmt dynamic = Allocate::make("r", Int(32), MemoryType::Register, {Variable::make(Int(32), "n")}, body);
    std::string msg = message_of([&] { check_memory_types(dynamic); });
    EXPECT_NE(msg.find("Allocation r has a dynamic size"), std::string::npos) << msg;
    Stmt stack = Allocate::make("r", Int(32), MemoryType::Stack, {Variable::make(Int(32), "n")}, body);
    EXPECT_TRUE(check_memory_types(stack).same_as(stack));
}

TEST(CheckMemoryTypes, MutatorsKeepTheMemoryType) {
    Stmt body = Store::make("r", IntImm::make(Int(32), 1), Variable::make(Int(32), "i"));
    Stmt s = Allocate::make("r", Int(32), MemoryType::Stack, {IntImm::make(Int(32), 4)}, body);
    Stmt t = substitute({{"i", IntImm::make(Int(32), 2)}}, s);
    ASSERT_FALSE(t.same_as(s));
    ASSERT_TRUE(t.as<Allocate>());
    EXPECT_EQ(t.as<Allocate>()->memory_type, MemoryType::Stack);
    EXPECT_FALSE(equal(s, Allocate::make("r", Int(32), MemoryType::Heap, {IntImm::make(Int(32), 4)}, body)));
}

// bound_storage and hoist_storage: g(x, y) = f(x, y) + f(x + k, y), f per row.
namespace {

struct Shifted {
    Var x{"x"}, y{"y"};
    Param<int> k{"k"};
    Func f{"f"}, g{"g"};
    Shifted() {
        f(x, y) = x * 2 + y;
        g(x, y) = f(x, y) + f(x + k, y);
        f.compute_at(g, y);
    }
    void expect_correct(int shift, int w, int h) {
        k.set(shift);
        Buffer<int> out = g.realize({w, h});
        for (int j = 0; j < h; j++) {
            for (int i = 0; i < w; i++) {
                ASSERT_EQ(out(i, j), (i * 2 + j) + ((i + shift) * 2 + j)) << "at " << i << ", " << j;
            }
        }
    }
};

// Where `what` starts in the lowered statement (npos: nowhere).
size_t at(Func g, const std::string &what) {
    return g.lowered_stmt().find(what);
}

} // namespace

TEST(BoundStorage, AConstantSizeThatFits) {
    Shifted p;
    p.f.bound_storage(p.x, 16);
    EXPECT_NE(at(p.g, "allocate f[int32 * 16 * 1] {"), std::string::npos) << p.g.lowered_stmt();
    p.expect_correct(1, 10, 4);
    p.expect_correct(-5, 11, 3);
}

TEST(BoundStorage, TooSmallIsARuntimeErrorWithUpstreamsWords) {
    Shifted p;
    p.f.bound_storage(p.x, 16);
    p.k.set(10);
    std::string msg;
    try {
        p.g.realize({10, 4});
    } catch (const RuntimeError &e) {
        msg = e.what();
    }
    EXPECT_NE(msg.find("The explicit allocation bound (16) of dimension x of f is too small to store the required "
                       "region (20)."),
              std::string::npos)
        << msg;
}

TEST(BoundStorage, AnInnerDimensionsBoundIsItsStride) {
    Var x("x"), y("y");
    Func f("f"), g("g");
    f(x, y) = x + y * 100;
    g(x, y) = f(x, y) + f(x + 1, y + 1);
    f.compute_root().bound_storage(x, 64);
    Buffer<int> out = g.realize({20, 7});
    for (int j = 0; j < 7; j++) {
        for (int i = 0; i < 20; i++) {
            ASSERT_EQ(out(i, j), (i + j * 100) + (i + 1 + (j + 1) * 100));
        }
    }
    EXPECT_NE(at(g, "allocate f[int32 * 64 * f.extent.1] {"), std::string::npos) << g.lowered_stmt();
}

TEST(HoistStorage, RootAllocatesOnceOutsideTheLoopForTheLargestRow) {
    Var x("x"), y("y");
    Func f("f"), g("g");
    f(x, y) = x * 2 + y;
    // Row y reads f over [0, w + y): the rows grow, the block fits the last.
    g(x, y) = f(x, y) + f(x + y, y);
    f.compute_at(g, y).hoist_storage_root();
    std::string stmt = g.lowered_stmt();
    size_t alloc = stmt.find("allocate f["), loop = stmt.find("for (g.s0.y");
    ASSERT_NE(alloc, std::string::npos) << stmt;
    ASSERT_NE(loop, std::string::npos) << stmt;
    EXPECT_LT(alloc, loop) << stmt;
    Buffer<int> out = g.realize({30, 9});
    for (int j = 0; j < 9; j++) {
        for (int i = 0; i < 30; i++) {
            ASSERT_EQ(out(i, j), (i * 2 + j) + ((i + j) * 2 + j)) << i << ", " << j;
        }
    }
}

TEST(HoistStorage, ToALoopOfAConsumer) {
    Var x("x"), y("y");
    Func f("f"), g("g");
    f(x, y) = x * 3 - y;
    g(x, y) = f(x, y) + f(x + 1, y);
    f.compute_at(g, x).hoist_storage(g, y);
    std::string stmt = g.lowered_stmt();
    size_t ly = stmt.find("for (g.s0.y"), alloc = stmt.find("allocate f["), lx = stmt.find("for (g.s0.x");
    ASSERT_TRUE(ly != std::string::npos && alloc != std::string::npos && lx != std::string::npos) << stmt;
    EXPECT_LT(ly, alloc) << stmt;
    EXPECT_LT(alloc, lx) << stmt;
    Buffer<int> out = g.realize({13, 5});
    for (int j = 0; j < 5; j++) {
        for (int i = 0; i < 13; i++) {
            ASSERT_EQ(out(i, j), (i * 3 - j) + ((i + 1) * 3 - j));
        }
    }
}

TEST(HoistStorage, WithBoundStorageAndAStackBlock) {
    Shifted p;
    p.f.bound_storage(p.x, 16).hoist_storage_root().store_in(MemoryType::Stack);
    EXPECT_NE(at(p.g, "allocate f[int32 * 16 * 1] in Stack {"), std::string::npos) << p.g.lowered_stmt();
    p.expect_correct(3, 12, 6);
}

TEST(HoistStorage, NotOutOfAParallelLoop) {
    Shifted p;
    p.g.parallel(p.y);
    p.f.hoist_storage_root();
    std::string msg = message_of([&] { p.g.realize({10, 4}); });
    EXPECT_NE(msg.find("storage is hoisted outside the parallel loop over g.s0.y but computed within it. This is a "
                       "potential race condition."),
              std::string::npos)
        << msg;
}

// The pass alone: the allocation in a loop moves around it, sized for the
// loop's last iteration (y + 2 over y in [0, 10): 11).
TEST(HoistStoragePass, BeforeAndAfter) {
    auto f = std::make_shared<FunctionContents>();
    f->name = "f";
    f->args = {"x"};
    f->values = {IntImm::make(Int(32), 0)};
    f->hoist = ComputeLevel::Root;
    Environment env{{"f", f}};
    Expr y = Variable::make(Int(32), "y");
    Stmt store = Store::make("f", y, IntImm::make(Int(32), 0));
    Stmt inner = LetStmt::make("e", y + 2, Allocate::make("f", Int(32), {Variable::make(Int(32), "e")}, store));
    Stmt before = For::make("y", IntImm::make(Int(32), 0), IntImm::make(Int(32), 10), ForType::Serial, inner);
    EXPECT_EQ(printed(before),
              "for (y, 0, 10) {\n  let e = (y + 2)\n  allocate f[int32 * e] {\n    f[0] = y\n  }\n}\n");
    Stmt after = hoist_storage(before, env);
    EXPECT_EQ(printed(after),
              "allocate f[int32 * 11] {\n  for (y, 0, 10) {\n    let e = (y + 2)\n    f[0] = y\n  }\n}\n");
}
