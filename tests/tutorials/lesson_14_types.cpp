// Lesson 14: types. Every Expr has a Type (a code, a bit width and a lane
// count). Mixed-type arithmetic follows fixed rules: floats beat integers,
// the wider float wins, a C++ integer or float literal takes the other
// operand's type where it can, unsigned and signed integers of one width
// meet at signed, and a narrower integer is widened to the wider one.
// Explicit casts, and their wrapping and widening behaviour, complete it.
#include <cmath>
#include <cstdint>

#include "Halide.h"
#include "tutorial_check.h"

using namespace Halide;

namespace {

void expect_type(const char *what, const Expr &e, Type t) {
    if (e.type() != t) {
        tutorial::fail("%s has type code %d bits %d, expected code %d bits %d", what, (int)e.type().code(),
                       e.type().bits(), (int)t.code(), t.bits());
    }
}

} // namespace

int main() {
    // The types and their properties.
    {
        Type valid[] = {UInt(8), UInt(16), UInt(32),  UInt(64),  Int(8), Int(16),
                        Int(32), Int(64),  Float(32), Float(64), Bool()};
        tutorial::check(valid[0].is_uint() && valid[0].bits() == 8 && valid[0].lanes() == 1, "UInt(8)");
        tutorial::check(valid[4].is_int() && valid[8].is_float() && valid[10].is_bool(), "type classes");
        tutorial::check(UInt(8).max().defined() && Int(8).min().defined(), "Type::max() and min() are Exprs");
        tutorial::check(type_of<float>() == Float(32) && type_of<int8_t>() == Int(8) && type_of<uint16_t>() == UInt(16),
                        "type_of");
        tutorial::check(UInt(8).with_bits(16) == UInt(16) && Int(32).with_code(halide_type_float) == Float(32),
                        "with_bits / with_code");
        tutorial::check(Int(32).with_lanes(4).lanes() == 4, "with_lanes");
    }

    Var x("x");
    Expr u8 = cast<uint8_t>(x), u16 = cast<uint16_t>(x), u32 = cast<uint32_t>(x);
    Expr i8 = cast<int8_t>(x), i16 = cast<int16_t>(x), i32 = cast<int32_t>(x);
    Expr f32 = cast<float>(x), f64 = cast<double>(x);

    // Rule 1: anything with a float becomes that float; the wider float wins.
    expect_type("u8 + f32", u8 + f32, Float(32));
    expect_type("i32 + f64", i32 + f64, Float(64));
    expect_type("f32 + f64", f32 + f64, Float(64));
    // Rule 2: a C++ float literal makes an integer Expr a Float(32); a
    // C++ int literal takes the Expr's type.
    expect_type("u8 * 2.0f", u8 * 2.0f, Float(32));
    expect_type("f64 * 2.0f", f64 * 2.0f, Float(64));
    expect_type("u8 + 3", u8 + 3, UInt(8));
    expect_type("i16 * 5", i16 * 5, Int(16));
    // Rule 3: integers of one width, one signed: the result is signed.
    expect_type("u8 + i8", u8 + i8, Int(8));
    expect_type("u32 + i32", u32 + i32, Int(32));
    // Rule 4: different widths: the wider one, and signed if either is.
    expect_type("u8 + u16", u8 + u16, UInt(16));
    expect_type("u8 + i32", u8 + i32, Int(32));
    expect_type("i8 + u32", i8 + u32, Int(32));
    // Comparisons are Bool; a Var is an Int(32).
    expect_type("u8 < 3", u8 < 3, Bool());
    expect_type("x", Expr(x), Int(32));

    // Casting and overflow, computed and checked against C++.
    {
        Func f("f");
        // uint8 arithmetic wraps: 200 + 100 = 44.
        f(x) = Tuple(cast<uint8_t>(x) + cast<uint8_t>(100),
                     // Widening before the add keeps the true sum.
                     cast<uint16_t>(cast<uint8_t>(x)) + 100,
                     // Narrowing a signed value keeps the low bits.
                     cast<int8_t>(x * 3),
                     // uint8 to int32 zero-extends, int8 sign-extends.
                     cast<int32_t>(cast<int8_t>(x)) + cast<int32_t>(cast<uint8_t>(x)),
                     // Float to int truncates toward zero.
                     cast<int>(cast<float>(x) / 3.0f - 40.0f));
        Realization r = f.realize({256});
        Buffer<uint8_t> a = r[0];
        Buffer<uint16_t> b = r[1];
        Buffer<int8_t> c = r[2];
        Buffer<int32_t> d = r[3], e = r[4];
        for (int i = 0; i < 256; i++) {
            uint8_t want_a = (uint8_t)(i + 100);
            uint16_t want_b = (uint16_t)((uint8_t)i + 100);
            int8_t want_c = (int8_t)(uint8_t)(i * 3);
            int32_t want_d = (int32_t)(int8_t)(uint8_t)i + (int32_t)(uint8_t)i;
            // As upstream, x / 3.0f is compiled as x times the reciprocal, and
            // the subtraction may be fused with it (an FMA target).
            const float third = 1.0f / 3.0f;
            const float product = (float)i * third;
            int32_t want_e = (int32_t)(product - 40.0f);
            int32_t fused_e = (int32_t)std::fma((float)i, third, -40.0f);
            if (a(i) != want_a || b(i) != want_b || c(i) != want_c || d(i) != want_d ||
                (e(i) != want_e && e(i) != fused_e)) {
                tutorial::fail("x = %d: %d %d %d %d %d instead of %d %d %d %d %d", i, a(i), b(i), c(i), d(i), e(i),
                               want_a, want_b, want_c, want_d, want_e);
            }
        }
    }

    // Averaging two uint8 images correctly: widen, add, halve, narrow.
    {
        Buffer<uint8_t> p(64), q(64);
        for (int i = 0; i < 64; i++)
            p(i) = (uint8_t)(i * 7 + 100), q(i) = (uint8_t)(250 - i * 3);
        Func avg("avg"), wrong("wrong");
        avg(x) = cast<uint8_t>((cast<uint16_t>(p(x)) + q(x)) / 2);
        wrong(x) = (p(x) + q(x)) / 2; // wraps in 8 bits
        Buffer<uint8_t> good = avg.realize({64}), bad = wrong.realize({64});
        for (int i = 0; i < 64; i++) {
            if (good(i) != (p(i) + q(i)) / 2)
                tutorial::fail("avg(%d) = %d", i, good(i));
            if (bad(i) != (uint8_t)(p(i) + q(i)) / 2)
                tutorial::fail("wrong(%d) = %d", i, bad(i));
        }
    }

    return tutorial::finish("lesson_14_types");
}
