// Code generation and JIT tests: lowered statements built by hand from IR
// nodes, compiled with JITModule and run on real halide_buffer_t buffers.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "Halide/Error.h"
#include "Halide/IR.h"
#include "Halide/LoweredFunc.h"
#include "HalideBuffer.h"
#include "HalideRuntime.h"
#include "ir_build.h"
#include "jit/JIT.h"

using namespace Halide;
using namespace Halide::Internal;

namespace {

Expr add(Expr a, Expr b) {
    return Add::make(std::move(a), std::move(b));
}
Expr sub(Expr a, Expr b) {
    return Sub::make(std::move(a), std::move(b));
}
Expr mul(Expr a, Expr b) {
    return Mul::make(std::move(a), std::move(b));
}
Expr intrinsic(Type t, const std::string &name, std::vector<Expr> args) {
    return Call::make(t, name, std::move(args), Call::Intrinsic);
}

// Wraps `body` in the LetStmts lowering would make for buffer `name`:
// name.host, and name.min.d / name.extent.d / name.stride.d per dimension.
Stmt bind_buffer(const std::string &name, int dims, Stmt body) {
    Expr buf = var(name + ".buffer", Handle());
    for (int d = dims - 1; d >= 0; d--) {
        std::string s = std::to_string(d);
        body = LetStmt::make(name + ".stride." + s, intrinsic(Int(32), "buffer_get_stride", {buf, i32(d)}), body);
        body = LetStmt::make(name + ".extent." + s, intrinsic(Int(32), "buffer_get_extent", {buf, i32(d)}), body);
        body = LetStmt::make(name + ".min." + s, intrinsic(Int(32), "buffer_get_min", {buf, i32(d)}), body);
    }
    return LetStmt::make(name + ".host", intrinsic(Handle(), "buffer_get_host", {buf}), body);
}

LoweredArgument buffer_arg(const std::string &name, Type t, int dims, bool output) {
    LoweredArgument a;
    a.name = name;
    a.kind = output ? LoweredArgument::OutputBuffer : LoweredArgument::InputBuffer;
    a.type = t;
    a.dimensions = dims;
    return a;
}

LoweredArgument scalar_arg(const std::string &name, Type t) {
    LoweredArgument a;
    a.name = name;
    a.kind = LoweredArgument::Scalar;
    a.type = t;
    return a;
}

// Flat index of (x, y) in buffer `name`, relative to its host pointer.
Expr index_2d(const std::string &name, Expr x, Expr y) {
    return add(mul(sub(std::move(x), var(name + ".min.0")), var(name + ".stride.0")),
               mul(sub(std::move(y), var(name + ".min.1")), var(name + ".stride.1")));
}

// for y, for x: out(x, y) = x + 10 * y + offset, over out's own region.
Stmt fill_2d(ForType outer) {
    Expr value = add(add(var("x"), mul(i32(10), var("y"))), var("offset"));
    Stmt store = Store::make("out", value, index_2d("out", var("x"), var("y")));
    Stmt inner = For::make("x", var("out.min.0"), var("out.extent.0"), ForType::Serial, store);
    Stmt loops = For::make("y", var("out.min.1"), var("out.extent.1"), outer, inner);
    return bind_buffer("out", 2, loops);
}

TEST(CodeGen, Fill2DHonoursMinAndStride) {
    LoweredFunc f;
    f.name = "fill2d";
    f.args = {scalar_arg("offset", Int(32)), buffer_arg("out", Int(32), 2, true)};
    f.body = fill_2d(ForType::Serial);
    JITModule m = JITModule::compile(f);

    // A 5x4 region at (3, -2), rows 9 elements apart (padding in between).
    std::vector<int32_t> storage(9 * 4, -1);
    halide_dimension_t dims[2] = {{3, 5, 1, 0}, {-2, 4, 9, 0}};
    Runtime::Buffer<int32_t> out(storage.data(), 2, dims);
    int32_t offset = 1000;
    void *args[] = {&offset, out.raw_buffer()};
    ASSERT_EQ(m.argv_function()(args), 0);
    for (int y = -2; y < 2; y++) {
        for (int x = 3; x < 8; x++) {
            EXPECT_EQ(out(x, y), x + 10 * y + 1000) << x << "," << y;
        }
        for (int pad = 5; pad < 9; pad++) {
            EXPECT_EQ(storage[(y + 2) * 9 + pad], -1) << "padding was written";
        }
    }

    // The same code on a transposed layout (dimension 1 innermost).
    std::vector<int32_t> storage2(5 * 4, -1);
    halide_dimension_t dims2[2] = {{0, 5, 4, 0}, {0, 4, 1, 0}};
    Runtime::Buffer<int32_t> out2(storage2.data(), 2, dims2);
    offset = 0;
    void *args2[] = {&offset, out2.raw_buffer()};
    ASSERT_EQ(m.argv_function()(args2), 0);
    for (int y = 0; y < 4; y++) {
        for (int x = 0; x < 5; x++) {
            EXPECT_EQ(storage2[x * 4 + y], x + 10 * y);
        }
    }
}

template <typename T> T ref_div(T a, T b) {
    using U = std::make_unsigned_t<T>;
    if (b == 0) {
        return 0;
    }
    if constexpr (std::is_signed_v<T>) {
        if (b == -1) {
            return (T)(U)(U(0) - (U)a);
        }
        T q = (T)(a / b);
        T r = (T)(a % b);
        if (r < 0) {
            q = (T)(b > 0 ? q - 1 : q + 1);
        }
        return q;
    } else {
        return (T)(a / b);
    }
}

template <typename T> T ref_mod(T a, T b) {
    using U = std::make_unsigned_t<T>;
    if (b == 0) {
        return 0;
    }
    if constexpr (std::is_signed_v<T>) {
        if (b == -1) {
            return 0;
        }
        T r = (T)(a % b);
        if (r < 0) {
            r = (T)(b > 0 ? (U)r + (U)b : (U)r - (U)b);
        }
        return r;
    } else {
        return (T)(a % b);
    }
}

// q[i] = a[i] / b[i] and r[i] = a[i] % b[i] for every pair of interesting
// values of T; with lanes > 1, `lanes` elements at a time (vector code: a
// divisor that is not a constant goes through floating point).
template <typename T> void check_div_mod(int lanes = 1) {
    Type t = type_of<T>();
    Expr index = lanes == 1 ? var("i") : Ramp::make(Mul::make(var("i"), i32(lanes)), i32(1), lanes);
    Expr ia = Load::make(t.with_lanes(lanes), "a", index);
    Expr ib = Load::make(t.with_lanes(lanes), "b", index);
    Stmt body = Block::make(Store::make("q", Div::make(ia, ib), index), Store::make("r", Mod::make(ia, ib), index));
    body = For::make("i", i32(0), Div::make(var("a.extent.0"), i32(lanes)), ForType::Serial, body);
    for (const char *n : {"r", "q", "b", "a"}) {
        body = bind_buffer(n, 1, body);
    }
    LoweredFunc f;
    f.name = "divmod_" + type_to_string(t) + "x" + std::to_string(lanes);
    f.args = {buffer_arg("a", t, 1, false), buffer_arg("b", t, 1, false), buffer_arg("q", t, 1, true),
              buffer_arg("r", t, 1, true)};
    f.body = body;
    JITModule m = JITModule::compile(f);

    const T lo = std::numeric_limits<T>::min(), hi = std::numeric_limits<T>::max();
    std::vector<T> values = {0, 1, 2, 3, 7, 10, hi, (T)(hi - 1), lo, (T)(lo + 1)};
    if constexpr (std::is_signed_v<T>) {
        for (T v : {-1, -2, -3, -7, -10}) {
            values.push_back(v);
        }
    }
    // Large quotients and divisors near each other (where a rounded
    // floating-point quotient would be off by one if it were not exact).
    for (uint64_t v : {(uint64_t)hi / 3, (uint64_t)hi / 3 + 1, (uint64_t)hi / 2 + 1, (uint64_t)hi - 12345}) {
        values.push_back((T)v);
        if constexpr (std::is_signed_v<T>) {
            values.push_back((T) - (T)v);
        }
    }
    int n = (int)(values.size() * values.size());
    n = (n + lanes - 1) / lanes * lanes;
    Runtime::Buffer<T> a(n), b(n), q(n), r(n);
    a.fill(1);
    b.fill(1);
    int k = 0;
    for (T x : values) {
        for (T y : values) {
            a(k) = x;
            b(k) = y;
            k++;
        }
    }
    void *args[] = {a.raw_buffer(), b.raw_buffer(), q.raw_buffer(), r.raw_buffer()};
    ASSERT_EQ(m.argv_function()(args), 0);
    for (int i = 0; i < n; i++) {
        EXPECT_EQ((int64_t)q(i), (int64_t)ref_div<T>(a(i), b(i)))
            << type_to_string(t) << ": " << (int64_t)a(i) << " / " << (int64_t)b(i);
        EXPECT_EQ((int64_t)r(i), (int64_t)ref_mod<T>(a(i), b(i)))
            << type_to_string(t) << ": " << (int64_t)a(i) << " % " << (int64_t)b(i);
    }
}

TEST(CodeGen, DivModInt8) {
    check_div_mod<int8_t>();
}
TEST(CodeGen, DivModInt32) {
    check_div_mod<int32_t>();
}
TEST(CodeGen, DivModInt64) {
    check_div_mod<int64_t>();
}
TEST(CodeGen, DivModUInt16) {
    check_div_mod<uint16_t>();
}
TEST(CodeGen, DivModVectorsByVariables) {
    check_div_mod<int32_t>(16);
    check_div_mod<uint32_t>(8);
    check_div_mod<int16_t>(16);
    check_div_mod<uint16_t>(8);
    check_div_mod<int8_t>(32);
    check_div_mod<uint8_t>(16);
}

TEST(CodeGen, DivModOfARampByAVariable) {
    // q[i * 16 + k] = (base + i * 16 * s + k * s) / m and r the same with %, for
    // bases either side of 0 and divisors larger than the ramp's span (one
    // scalar division and a compare), equal to it, smaller, 0 and negative
    // (the general vector division).
    for (int s : {1, 3}) {
        const int lanes = 16;
        Expr base = add(var("base"), mul(var("i"), i32(lanes * s)));
        Expr ramp = Ramp::make(base, i32(s), lanes);
        Expr m = Broadcast::make(var("m"), lanes);
        Expr at = Ramp::make(mul(var("i"), i32(lanes)), i32(1), lanes);
        Stmt body = Block::make(Store::make("q", Div::make(ramp, m), at), Store::make("r", Mod::make(ramp, m), at));
        body = For::make("i", i32(0), Div::make(var("q.extent.0"), i32(lanes)), ForType::Serial, body);
        body = bind_buffer("q", 1, bind_buffer("r", 1, body));
        LoweredFunc f;
        f.name = "ramp_divmod_" + std::to_string(s);
        f.args = {buffer_arg("q", Int(32), 1, true), buffer_arg("r", Int(32), 1, true), scalar_arg("base", Int(32)),
                  scalar_arg("m", Int(32))};
        f.body = body;
        JITModule jit = JITModule::compile(f);
        const int n = lanes * 8;
        for (int32_t mv : {2, 7, 15 * s, 15 * s + 1, 16 * s, 100, 1000, 0, -1, -5, -40}) {
            for (int32_t b : {-300, -17, -1, 0, 5, 999}) {
                Runtime::Buffer<int32_t> q(n), r(n);
                void *args[] = {q.raw_buffer(), r.raw_buffer(), &b, &mv};
                ASSERT_EQ(jit.argv_function()(args), 0);
                for (int k = 0; k < n; k++) {
                    int64_t a = b + (int64_t)k * s;
                    int64_t eq = 0, er = 0; // Euclidean; 0 for a zero divisor
                    if (mv != 0) {
                        er = ((a % mv) + std::abs(mv)) % std::abs(mv);
                        eq = (a - er) / mv;
                    }
                    ASSERT_EQ(q(k), eq) << "s " << s << " m " << mv << " base " << b << " lane " << k;
                    ASSERT_EQ(r(k), er) << "s " << s << " m " << mv << " base " << b << " lane " << k;
                }
            }
        }
        // Divisors larger than the span have their path, with one scalar
        // division of the base (the general one divides vectors of doubles).
        EXPECT_NE(jit.llvm_ir().find("srem i32 "), std::string::npos);
    }
}

TEST(CodeGen, FloatMath) {
    // out[i] = sqrtf(in[i]) + (in[i] mod -3.0f) + (in[i] / 4.0f)
    Expr x = Load::make(Float(32), "in", var("i"));
    Expr s = Call::make(Float(32), "sqrtf", {x}, Call::Extern);
    Expr m3 = Mod::make(x, FloatImm::make(Float(32), -3.0));
    Expr d4 = Div::make(x, FloatImm::make(Float(32), 4.0));
    Stmt body = Store::make("out", Add::make(Add::make(s, m3), d4), var("i"));
    body = For::make("i", i32(0), var("in.extent.0"), ForType::Vectorized, body);
    body = bind_buffer("in", 1, bind_buffer("out", 1, body));
    LoweredFunc f;
    f.name = "floatmath";
    f.args = {buffer_arg("in", Float(32), 1, false), buffer_arg("out", Float(32), 1, true)};
    f.body = body;
    JITModule m = JITModule::compile(f);

    const int n = 37;
    Runtime::Buffer<float> in(n), out(n);
    for (int i = 0; i < n; i++) {
        in(i) = 0.75f * (float)i;
    }
    void *args[] = {in.raw_buffer(), out.raw_buffer()};
    ASSERT_EQ(m.argv_function()(args), 0);
    for (int i = 0; i < n; i++) {
        float v = in(i);
        float expect = std::sqrt(v) + (v - -3.0f * std::floor(v / -3.0f)) + v / 4.0f;
        EXPECT_NEAR(out(i), expect, 1e-4f) << i;
    }
}

TEST(CodeGen, CastsMinMaxSelect) {
    // out[i] = select(i < 2, int32(uint8(in8[i])), max(min(int32(in8[i]), 50), -50)) + int32(float(i) * 1.5f)
    Expr e = Load::make(Int(8), "in8", var("i"));
    Expr as_u8 = Cast::make(Int(32), Cast::make(UInt(8), e));
    Expr clamped = Max::make(Min::make(Cast::make(Int(32), e), i32(50)), i32(-50));
    Expr sel = Select::make(LT::make(var("i"), i32(2)), as_u8, clamped);
    Expr fl = Cast::make(Int(32), Mul::make(Cast::make(Float(32), var("i")), FloatImm::make(Float(32), 1.5)));
    Stmt body = Store::make("out", add(sel, fl), var("i"));
    // wide[i] = uint32(in8[i]) (sign extension, then reinterpretation as unsigned)
    body = Block::make(body, Store::make("wide", Cast::make(UInt(32), e), var("i")));
    body = For::make("i", i32(0), var("out.extent.0"), ForType::Unrolled, body);
    body = bind_buffer("in8", 1, bind_buffer("out", 1, bind_buffer("wide", 1, body)));
    LoweredFunc f;
    f.name = "casts";
    f.args = {buffer_arg("in8", Int(8), 1, false), buffer_arg("out", Int(32), 1, true),
              buffer_arg("wide", UInt(32), 1, true)};
    f.body = body;
    JITModule m = JITModule::compile(f);

    std::vector<int8_t> vals = {-1, -128, 127, -100, 100, 20, -20, 0};
    int n = (int)vals.size();
    Runtime::Buffer<int8_t> in8(n);
    Runtime::Buffer<int32_t> out(n);
    Runtime::Buffer<uint32_t> wide(n);
    for (int i = 0; i < n; i++) {
        in8(i) = vals[i];
    }
    void *args[] = {in8.raw_buffer(), out.raw_buffer(), wide.raw_buffer()};
    ASSERT_EQ(m.argv_function()(args), 0);
    for (int i = 0; i < n; i++) {
        int32_t s = i < 2 ? (int32_t)(uint8_t)vals[i] : std::max(std::min((int32_t)vals[i], 50), -50);
        EXPECT_EQ(out(i), s + (int32_t)((float)i * 1.5f)) << i;
        EXPECT_EQ(wide(i), (uint32_t)(int32_t)vals[i]) << i;
    }
}

TEST(CodeGen, BitwiseShiftAbsReinterpret) {
    // For int8 a, b: shl, shr, and/xor/not, abs (as uint8), reinterpret(uint8, a).
    Expr a = Load::make(Int(8), "a", var("i"));
    Expr b = Load::make(Int(8), "b", var("i"));
    auto store = [&](const std::string &out, Expr v) { return Store::make(out, std::move(v), var("i")); };
    Stmt body = Block::make({
        store("shl", intrinsic(Int(8), "shift_left", {a, b})),
        store("shr", intrinsic(Int(8), "shift_right", {a, b})),
        store("bits", intrinsic(Int(8), "bitwise_xor",
                                {intrinsic(Int(8), "bitwise_and", {a, b}), intrinsic(Int(8), "bitwise_not", {b})})),
        store("mag", intrinsic(UInt(8), "abs", {a})),
        store("raw", intrinsic(UInt(8), "reinterpret", {a})),
    });
    body = For::make("i", i32(0), var("a.extent.0"), ForType::Serial, body);
    std::vector<LoweredArgument> args = {buffer_arg("a", Int(8), 1, false), buffer_arg("b", Int(8), 1, false)};
    for (const char *n : {"shl", "shr", "bits", "mag", "raw"}) {
        bool is_unsigned = std::string(n) == "mag" || std::string(n) == "raw";
        args.push_back(buffer_arg(n, is_unsigned ? UInt(8) : Int(8), 1, true));
    }
    for (const LoweredArgument &arg : args) {
        body = bind_buffer(arg.name, 1, body);
    }
    LoweredFunc f;
    f.name = "bitwise";
    f.args = args;
    f.body = body;
    JITModule m = JITModule::compile(f);

    std::vector<int8_t> as = {0, 1, -1, 5, -128, 127, -37}, bs = {0, 1, 3, 7, 8, 100, -1, -128};
    int n = (int)(as.size() * bs.size());
    Runtime::Buffer<int8_t> ba(n), bb(n), shl(n), shr(n), bits(n);
    Runtime::Buffer<uint8_t> mag(n), raw(n);
    int k = 0;
    for (int8_t x : as) {
        for (int8_t y : bs) {
            ba(k) = x;
            bb(k) = y;
            k++;
        }
    }
    void *argv[] = {ba.raw_buffer(),   bb.raw_buffer(),  shl.raw_buffer(), shr.raw_buffer(),
                    bits.raw_buffer(), mag.raw_buffer(), raw.raw_buffer()};
    ASSERT_EQ(m.argv_function()(argv), 0);
    for (int i = 0; i < n; i++) {
        int8_t x = ba(i), y = bb(i);
        // A negative amount shifts the other way; by 8 or more gives 0 or the sign.
        unsigned amount = y < 0 ? (unsigned)-(int)y : (unsigned)y;
        int8_t left = amount >= 8 ? 0 : (int8_t)(uint8_t)((unsigned)(uint8_t)x << amount);
        int8_t right = amount >= 8 ? (int8_t)(x < 0 ? -1 : 0) : (int8_t)(x >> amount);
        int8_t e_shl = y < 0 ? right : left;
        int8_t e_shr = y < 0 ? left : right;
        EXPECT_EQ(shl(i), e_shl) << (int)x << " << " << (int)y;
        EXPECT_EQ(shr(i), e_shr) << (int)x << " >> " << (int)y;
        EXPECT_EQ(bits(i), (int8_t)((x & y) ^ ~y));
        EXPECT_EQ(mag(i), (uint8_t)(x < 0 ? -(int)x : x));
        EXPECT_EQ(raw(i), (uint8_t)x);
    }
}

std::atomic<int> par_for_calls{0};
int counting_do_par_for(void *uc, halide_task_t task, int min, int size, uint8_t *closure) {
    par_for_calls++;
    return halide_default_do_par_for(uc, task, min, size, closure);
}

TEST(CodeGen, ParallelForUsesDoParFor) {
    LoweredFunc f;
    f.name = "fill_parallel";
    f.args = {scalar_arg("offset", Int(32)), buffer_arg("out", Int(32), 2, true)};
    f.body = fill_2d(ForType::Parallel);
    JITModule m = JITModule::compile(f);
    EXPECT_NE(m.llvm_ir().find("halide_do_par_for"), std::string::npos);

    Runtime::Buffer<int32_t> out(13, 64);
    int32_t offset = -7;
    void *args[] = {&offset, out.raw_buffer()};
    par_for_calls = 0;
    halide_do_par_for_t old = halide_set_custom_do_par_for(counting_do_par_for);
    int rc = m.argv_function()(args);
    halide_set_custom_do_par_for(old);
    ASSERT_EQ(rc, 0);
    EXPECT_EQ(par_for_calls.load(), 1);
    for (int y = 0; y < 64; y++) {
        for (int x = 0; x < 13; x++) {
            ASSERT_EQ(out(x, y), x + 10 * y - 7) << x << "," << y;
        }
    }
}

// A task that fails: its code comes back from the pipeline.
TEST(CodeGen, ParallelTaskErrorPropagates) {
    Expr uc = var("__user_context", Handle());
    Expr fail = Call::make(Int(32), "halide_error_bad_dimensions", {uc, StringImm::make("task"), var("y"), i32(0)},
                           Call::Extern);
    Stmt body = AssertStmt::make(LT::make(var("y"), i32(5)), fail);
    body = For::make("y", i32(0), i32(8), ForType::Parallel, body);
    LoweredFunc f;
    f.name = "failing_tasks";
    f.body = body;
    JITModule m = JITModule::compile(f);
    halide_error_handler_t old = halide_set_error_handler([](void *, const char *) {});
    int rc = m.argv_function()(nullptr);
    halide_set_error_handler(old);
    EXPECT_EQ(rc, halide_error_code_bad_dimensions);
}

std::atomic<int> malloc_calls{0}, free_calls{0};

TEST(CodeGen, AllocateStoreLoadRoundTrip) {
    // allocate tmp[n]; tmp[i] = i * i; out[i] = tmp[n - 1 - i] + 1
    Expr n = var("out.extent.0");
    Stmt produce = For::make("i", i32(0), n, ForType::Serial, Store::make("tmp", mul(var("i"), var("i")), var("i")));
    Expr back = Load::make(Int(32), "tmp", sub(sub(n, i32(1)), var("i")));
    Stmt consume = For::make("i", i32(0), n, ForType::Serial, Store::make("out", add(back, i32(1)), var("i")));
    Stmt body = Allocate::make("tmp", Int(32), {n}, Block::make(produce, consume));
    LoweredFunc f;
    f.name = "roundtrip";
    f.args = {buffer_arg("out", Int(32), 1, true)};
    f.body = bind_buffer("out", 1, body);
    JITModule m = JITModule::compile(f);

    const int size = 100;
    Runtime::Buffer<int32_t> out(size);
    void *args[] = {out.raw_buffer()};
    malloc_calls = 0;
    free_calls = 0;
    halide_malloc_t old_malloc = halide_set_custom_malloc([](void *uc, size_t bytes) {
        malloc_calls++;
        EXPECT_EQ(bytes, (size_t)(size * 4));
        return halide_default_malloc(uc, bytes);
    });
    halide_free_t old_free = halide_set_custom_free([](void *uc, void *p) {
        free_calls++;
        halide_default_free(uc, p);
    });
    int rc = m.argv_function()(args);
    halide_set_custom_malloc(old_malloc);
    halide_set_custom_free(old_free);
    ASSERT_EQ(rc, 0);
    EXPECT_EQ(malloc_calls.load(), 1);
    EXPECT_EQ(free_calls.load(), 1);
    for (int i = 0; i < size; i++) {
        EXPECT_EQ(out(i), (size - 1 - i) * (size - 1 - i) + 1) << i;
    }
}

// An Auto allocation of constant size up to 16 KB (upstream's limit) is on
// the stack: no halide_malloc; one byte more and it is on the heap. Values
// checked both ways.
TEST(CodeGen, SmallConstantAllocationIsOnTheStack) {
    for (int count : {4096, 4097}) {
        Stmt produce =
            For::make("i", i32(0), i32(count), ForType::Serial, Store::make("tmp", mul(var("i"), i32(3)), var("i")));
        Expr back = Load::make(Int(32), "tmp", sub(i32(count - 1), var("i")));
        Stmt consume = For::make("i", i32(0), var("out.extent.0"), ForType::Serial, Store::make("out", back, var("i")));
        LoweredFunc f;
        f.name = "stack_or_heap";
        f.args = {buffer_arg("out", Int(32), 1, true)};
        f.body = bind_buffer("out", 1, Allocate::make("tmp", Int(32), {i32(count)}, Block::make(produce, consume)));
        JITModule m = JITModule::compile(f);
        Runtime::Buffer<int32_t> out(64);
        void *args[] = {out.raw_buffer()};
        malloc_calls = 0;
        halide_malloc_t old_malloc = halide_set_custom_malloc([](void *uc, size_t bytes) {
            malloc_calls++;
            return halide_default_malloc(uc, bytes);
        });
        int rc = m.argv_function()(args);
        halide_set_custom_malloc(old_malloc);
        ASSERT_EQ(rc, 0);
        EXPECT_EQ(malloc_calls.load(), count * 4 <= 16384 ? 0 : 1) << count << " int32s";
        for (int i = 0; i < 64; i++) {
            EXPECT_EQ(out(i), (count - 1 - i) * 3) << i;
        }
    }
}

TEST(CodeGen, AllocationFailureReturnsOutOfMemory) {
    Stmt body = Allocate::make("tmp", Int(32), {var("out.extent.0")}, Store::make("tmp", i32(1), i32(0)));
    LoweredFunc f;
    f.name = "oom";
    f.args = {buffer_arg("out", Int(32), 1, true)};
    f.body = bind_buffer("out", 1, body);
    JITModule m = JITModule::compile(f);
    Runtime::Buffer<int32_t> out(4);
    void *args[] = {out.raw_buffer()};
    halide_malloc_t old_malloc = halide_set_custom_malloc([](void *, size_t) -> void * { return nullptr; });
    halide_error_handler_t old_handler = halide_set_error_handler([](void *, const char *) {});
    int rc = m.argv_function()(args);
    halide_set_custom_malloc(old_malloc);
    halide_set_error_handler(old_handler);
    EXPECT_EQ(rc, halide_error_code_out_of_memory);
}

std::string captured_error;

TEST(CodeGen, FailingAssertReturnsHelperCode) {
    // assert(dimensions(out) == 3, halide_error_bad_dimensions(uc, "out", dims, 3)); out[0] = 42
    Expr buf = var("out.buffer", Handle());
    Expr dims = intrinsic(Int(32), "buffer_get_dimensions", {buf});
    Expr msg = Call::make(Int(32), "halide_error_bad_dimensions",
                          {var("__user_context", Handle()), StringImm::make("out"), dims, i32(3)}, Call::Extern);
    Stmt body = Block::make(AssertStmt::make(EQ::make(dims, i32(3)), msg), Store::make("out", i32(42), i32(0)));
    LoweredFunc f;
    f.name = "asserts";
    f.args = {buffer_arg("out", Int(32), 1, true)};
    f.body = bind_buffer("out", 1, body);
    JITModule m = JITModule::compile(f);

    Runtime::Buffer<int32_t> out(4);
    out.fill(0);
    void *args[] = {out.raw_buffer()};
    captured_error.clear();
    halide_error_handler_t old = halide_set_error_handler([](void *, const char *msg) { captured_error = msg; });
    int rc = m.argv_function()(args);
    halide_set_error_handler(old);
    EXPECT_EQ(rc, halide_error_code_bad_dimensions);
    EXPECT_NE(captured_error.find("out"), std::string::npos) << captured_error;
    EXPECT_EQ(out(0), 0) << "the store after the failed assert ran";
}

TEST(CodeGen, BufferIntrinsics) {
    // info[0..4] = dimensions, type word, flags (low 32 bits), is_bounds_query(in), is_bounds_query(info)
    Expr in = var("in.buffer", Handle());
    Stmt body = Block::make({
        Store::make("info", intrinsic(Int(32), "buffer_get_dimensions", {in}), i32(0)),
        Store::make("info", Cast::make(Int(32), intrinsic(UInt(32), "buffer_get_type", {in})), i32(1)),
        Store::make("info", Cast::make(Int(32), intrinsic(UInt(64), "buffer_get_flags", {in})), i32(2)),
        Store::make("info", Cast::make(Int(32), intrinsic(Bool(), "buffer_is_bounds_query", {in})), i32(3)),
        Store::make("info",
                    Cast::make(Int(32), intrinsic(Bool(), "buffer_is_bounds_query", {var("info.buffer", Handle())})),
                    i32(4)),
    });
    LoweredFunc f;
    f.name = "intrinsics";
    f.args = {buffer_arg("in", UInt(16), 3, false), buffer_arg("info", Int(32), 1, true)};
    f.body = bind_buffer("info", 1, body);
    JITModule m = JITModule::compile(f);

    halide_dimension_t dims[3] = {{0, 2, 1, 0}, {0, 3, 2, 0}, {0, 4, 6, 0}};
    halide_buffer_t query = {};
    query.type = halide_type_of<uint16_t>();
    query.dimensions = 3;
    query.dim = dims;
    query.flags = 1;
    Runtime::Buffer<int32_t> info(5);
    void *args[] = {&query, info.raw_buffer()};
    ASSERT_EQ(m.argv_function()(args), 0);
    uint32_t word;
    static_assert(sizeof(word) == sizeof(halide_type_t), "type word");
    std::memcpy(&word, &query.type, 4);
    EXPECT_EQ(info(0), 3);
    EXPECT_EQ((uint32_t)info(1), word);
    EXPECT_EQ(info(2), 1);
    EXPECT_EQ(info(3), 1);
    EXPECT_EQ(info(4), 0);
}

TEST(CodeGen, IRAndAssembly) {
    LoweredFunc f;
    f.name = "text_dump";
    f.args = {scalar_arg("offset", Int(32)), buffer_arg("out", Int(32), 2, true)};
    f.body = fill_2d(ForType::Parallel);
    JITModule m = JITModule::compile(f);
    std::string ir = m.llvm_ir();
    EXPECT_NE(ir.find("define"), std::string::npos);
    EXPECT_NE(ir.find("text_dump_argv"), std::string::npos);
    std::string assembly = m.assembly();
    EXPECT_FALSE(assembly.empty());
    EXPECT_NE(assembly.find("text_dump_argv"), std::string::npos);
    EXPECT_EQ(m.assembly(), assembly);
}

// LLVM's loop vectorizer widens a loop only where the statement asks for it
// (a Vectorized loop left serial): a serial loop keeps its scalar shape, as
// its schedule says (and as upstream Halide's JIT leaves it).
TEST(CodeGen, LLVMWidensOnlyLoopsMarkedVectorized) {
    for (ForType t : {ForType::Serial, ForType::Vectorized}) {
        // for i in [0, in.extent.0): out[i] = in[i] * 3 + 1
        Expr v = add(mul(Load::make(Int(32), "in", var("i")), i32(3)), i32(1));
        Stmt body = For::make("i", i32(0), var("in.extent.0"), t, Store::make("out", v, var("i")));
        LoweredFunc f;
        f.name = t == ForType::Serial ? "scalar_loop" : "widened_loop";
        f.args = {buffer_arg("in", Int(32), 1, false), buffer_arg("out", Int(32), 1, true)};
        f.body = bind_buffer("in", 1, bind_buffer("out", 1, body));
        JITModule m = JITModule::compile(f);
        const int n = 1003;
        Runtime::Buffer<int32_t> src(n), dst(n);
        for (int k = 0; k < n; k++) {
            src(k) = k * 7 - 500;
        }
        void *args[] = {src.raw_buffer(), dst.raw_buffer()};
        ASSERT_EQ(m.argv_function()(args), 0);
        for (int k = 0; k < n; k++) {
            ASSERT_EQ(dst(k), src(k) * 3 + 1) << k;
        }
        bool vectors = m.llvm_ir().find(" x i32>") != std::string::npos;
        EXPECT_EQ(vectors, t == ForType::Vectorized) << m.llvm_ir();
    }
}

// The loops of an assembly listing with no loop (label) inside them: the
// lines from a label to the backward branch to it.
std::vector<std::string> innermost_loops(const std::string &assembly) {
    std::vector<std::string> lines;
    size_t at = 0;
    while (at < assembly.size()) {
        size_t end = assembly.find('\n', at);
        end = end == std::string::npos ? assembly.size() : end;
        lines.push_back(assembly.substr(at, end - at));
        at = end + 1;
    }
    std::vector<std::string> loops;
    for (size_t j = 0; j < lines.size(); j++) {
        size_t target = lines[j].find("\tj");
        size_t dot = lines[j].find(".LBB");
        if (target == std::string::npos || dot == std::string::npos) {
            continue;
        }
        std::string label = lines[j].substr(dot) + ":";
        for (size_t i = j; i-- > 0;) {
            if (lines[i].rfind(".LBB", 0) != 0) {
                continue;
            }
            if (lines[i].rfind(label, 0) == 0) {
                std::string body;
                for (size_t k = i; k <= j; k++) {
                    body += lines[k] + "\n";
                }
                loops.push_back(body);
            }
            break; // another label first: not a loop without labels inside
        }
    }
    return loops;
}

TEST(CodeGen, VectorLoopAddressesAre64BitWithoutSignExtensions) {
    // for y, for x in [0, n): out[ramp(b + x * 16 - out.min.0 + row, 1,
    // 16)] = in[... b - 1 ...] + in[... b + 1 ...] with b inside
    // likely_if_innermost (a ShiftInwards split's steady state, as in the
    // line-buffered blur). The loop counter steps with nsw and the
    // addresses are 64-bit sums term by term, so LLVM widens the counter
    // and steps pointers: no sign extension (movslq/cltq) per vector in the
    // innermost loop. Before, the 32-bit index was sign-extended per vector.
    // Values against the formula.
    const int lanes = 16;
    auto ramp_at = [&](const std::string &buf, int dx) {
        Expr x = intrinsic(Int(32), "likely_if_innermost", {add(var("out.min.0"), mul(var("x"), i32(lanes)))});
        Expr index = add(sub(add(x, i32(dx)), var(buf + ".min.0")),
                         mul(sub(var("y"), var(buf + ".min.1")), var(buf + ".stride.1")));
        return Ramp::make(index, i32(1), lanes);
    };
    Expr sum =
        add(Load::make(Int(32, lanes), "in", ramp_at("in", -1)), Load::make(Int(32, lanes), "in", ramp_at("in", 1)));
    Stmt store = Store::make("out", sum, ramp_at("out", 0));
    Stmt inner = For::make("x", i32(0), Div::make(var("out.extent.0"), i32(lanes)), ForType::Serial, store);
    Stmt loops = For::make("y", var("out.min.1"), var("out.extent.1"), ForType::Serial, inner);
    LoweredFunc f;
    f.name = "blur_row";
    f.args = {buffer_arg("in", Int(32), 2, false), buffer_arg("out", Int(32), 2, true)};
    f.body = bind_buffer("in", 2, bind_buffer("out", 2, loops));
    JITModule m = JITModule::compile(f);

    std::vector<std::string> loops_found = innermost_loops(m.assembly());
    int vector_loops = 0;
    for (const std::string &loop : loops_found) {
        if (loop.find("mm") == std::string::npos) {
            continue;
        }
        vector_loops++;
        EXPECT_EQ(loop.find("movslq"), std::string::npos) << loop;
        EXPECT_EQ(loop.find("cltq"), std::string::npos) << loop;
    }
    EXPECT_GE(vector_loops, 1) << m.assembly();

    const int w = 80, h = 3;
    Runtime::Buffer<int32_t> in(w + 2, h), out(w, h);
    in.set_min(-1, 5);
    out.set_min(0, 5);
    in.for_each_element([&](int x, int y) { in(x, y) = x * 7 + y * 1000; });
    out.fill(-1);
    void *args[] = {in.raw_buffer(), out.raw_buffer()};
    ASSERT_EQ(m.argv_function()(args), 0);
    for (int y = 5; y < 5 + h; y++) {
        for (int x = 0; x < w; x++) {
            EXPECT_EQ(out(x, y), in(x - 1, y) + in(x + 1, y)) << x << ", " << y;
        }
    }
}

TEST(CodeGen, ProvideIsAnInternalError) {
    LoweredFunc f;
    f.name = "bad";
    f.body = Provide::make("g", {i32(1)}, {i32(0)});
    EXPECT_THROW(JITModule::compile(f), InternalError);
}

} // namespace
