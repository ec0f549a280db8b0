// Type.h's handle types and overflow queries: type_of<T *>() records the C++
// pointee type (so handles of different pointees are different Types),
// Handle(lanes, handle_type), type_to_c_type, and can_overflow /
// can_overflow_int. The expected strings and answers are upstream Halide
// 21's, observed (this file also builds against upstream's Halide.h).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "Halide.h"

using namespace Halide;

namespace handle_types_test {
namespace inner {
struct Widget;
} // namespace inner
} // namespace handle_types_test
HALIDE_DECLARE_EXTERN_STRUCT_TYPE(handle_types_test::inner::Widget);
struct UndeclaredThing;

namespace {

std::string c_name(Type t, bool space = false, bool cpp = true) {
    return type_to_c_type(t, space, cpp);
}

TEST(HandleTypes, CanOverflow) {
    // Wrapping is defined for unsigned integers and signed ones of at most 16 bits.
    EXPECT_TRUE(Int(8).can_overflow());
    EXPECT_TRUE(Int(16).can_overflow_int());
    EXPECT_FALSE(Int(32).can_overflow());
    EXPECT_FALSE(Int(64).can_overflow_int());
    EXPECT_TRUE(UInt(32).can_overflow());
    EXPECT_FALSE(UInt(32).can_overflow_int());
    EXPECT_TRUE(Bool().can_overflow());
    EXPECT_FALSE(Float(32).can_overflow());
    EXPECT_FALSE(Float(16).can_overflow_int());
    EXPECT_TRUE(Int(16, 8).can_overflow());
}

TEST(HandleTypes, NumberTypesInC) {
    EXPECT_EQ(c_name(Int(32)), "int32_t");
    EXPECT_EQ(c_name(Int(32), true), "int32_t ");
    EXPECT_EQ(c_name(UInt(8)), "uint8_t");
    EXPECT_EQ(c_name(Bool()), "bool");
    EXPECT_EQ(c_name(Float(32)), "float");
    EXPECT_EQ(c_name(Float(64)), "double");
    EXPECT_EQ(c_name(Float(16)), "float16_t");
    EXPECT_EQ(c_name(BFloat(16)), "bfloat16_t");
    EXPECT_EQ(c_name(Int(32, 4)), "int32x4_t");
    EXPECT_EQ(c_name(UInt(16, 2), true), "uint16x2_t ");
    EXPECT_EQ(c_name(Float(32, 4)), "float4");
    EXPECT_EQ(c_name(Float(64, 2)), "double2");
    EXPECT_EQ(c_name(Float(16, 8)), "float16_t8");
    EXPECT_EQ(c_name(Bool(4)), "uint8x4_t");
    EXPECT_EQ(c_name(BFloat(16, 2)), "bfloat16_t");
    EXPECT_EQ(c_name(Int(24)), "int24_t");
}

TEST(HandleTypes, HandlesInC) {
    EXPECT_EQ(c_name(Handle()), "void *");
    EXPECT_EQ(c_name(Handle(), true), "void *");
    EXPECT_EQ(c_name(type_of<void *>()), "void *");
    EXPECT_EQ(c_name(type_of<int *>()), "int32_t *");
    EXPECT_EQ(c_name(type_of<const char *>()), "char const *");
    EXPECT_EQ(c_name(type_of<const halide_buffer_t *>()), "struct halide_buffer_t const *");
    EXPECT_EQ(c_name(type_of<UndeclaredThing *>()), "void *");
    EXPECT_EQ(c_name(type_of<float *const *>()), "void const *");
    EXPECT_EQ(c_name(type_of<int (*)(int)>()), "void");
    // Namespaces are C++ only.
    EXPECT_EQ(c_name(type_of<handle_types_test::inner::Widget *>()), "struct ::handle_types_test::inner::Widget *");
    EXPECT_EQ(c_name(type_of<handle_types_test::inner::Widget *>(), false, false), "void *");
    EXPECT_EQ(c_name(type_of<Halide::float16_t *>()), "::Halide::float16_t *");
    EXPECT_EQ(c_name(type_of<Halide::float16_t *>(), true, false), "void *");
}

TEST(HandleTypes, HandleTypeRecordsThePointee) {
    const halide_handle_cplusplus_type *w = type_of<handle_types_test::inner::Widget *>().handle_type;
    ASSERT_NE(w, nullptr);
    EXPECT_EQ(w->inner_name.name, "Widget");
    EXPECT_EQ(w->inner_name.cpp_type_type, halide_cplusplus_type_name::Struct);
    EXPECT_EQ(w->namespaces, (std::vector<std::string>{"handle_types_test", "inner"}));
    ASSERT_EQ(w->cpp_type_modifiers.size(), 1u);
    EXPECT_EQ(w->cpp_type_modifiers[0], halide_handle_cplusplus_type::Pointer);
    EXPECT_EQ(w->reference_type, halide_handle_cplusplus_type::NotReference);
    const halide_handle_cplusplus_type *c = type_of<const char *>().handle_type;
    ASSERT_NE(c, nullptr);
    EXPECT_EQ(c->cpp_type_modifiers[0], halide_handle_cplusplus_type::Pointer | halide_handle_cplusplus_type::Const);
    EXPECT_EQ(type_of<int>().handle_type, nullptr);

    Type t = Handle(2, w);
    EXPECT_EQ(t.lanes(), 2);
    EXPECT_EQ(t.bits(), 64);
    EXPECT_TRUE(t.is_handle());
    EXPECT_EQ(t.handle_type, w);
    EXPECT_EQ(t.with_lanes(4).handle_type, w);
    EXPECT_EQ(t.with_bits(32).handle_type, nullptr);
    EXPECT_EQ(t.element_of(), Handle(1, w));

    std::vector<std::string> ns;
    EXPECT_EQ(Internal::extract_namespaces("a::b::c", ns), "c");
    EXPECT_EQ(ns, (std::vector<std::string>{"a", "b"}));
}

TEST(HandleTypes, EqualityComparesThePointee) {
    EXPECT_NE(type_of<int *>(), Handle());
    EXPECT_EQ(type_of<void *>(), Handle());
    EXPECT_EQ(type_of<int *>(), type_of<int *>());
    EXPECT_NE(type_of<int *>(), type_of<const int *>());
    EXPECT_FALSE(type_of<int *>().same_handle_type(Handle()));
    // An unknown pointee is void, as no handle type is.
    EXPECT_TRUE(Handle().same_handle_type(type_of<UndeclaredThing *>()));
    // The runtime's type has no pointee.
    EXPECT_TRUE(type_of<int *>() == halide_type_t(halide_type_handle, 64));
    // Types that are not handles ignore it.
    EXPECT_EQ(Int(32), type_of<int32_t>());
}

TEST(HandleTypes, TypedHandleParamIsAnArgument) {
    // A Param<T *>'s Expr has the pointee's handle type; a pipeline using
    // it compiles and runs.
    Param<int *> p("ptr_param");
    EXPECT_EQ(Expr(p).type(), type_of<int *>());
    EXPECT_NE(Expr(p).type(), Handle());
    Func f("reads_nothing_from_ptr");
    Var x("x");
    f(x) = select(reinterpret(UInt(64), Expr(p)) == 0, x, -x);
    p.set(nullptr);
    Buffer<int> out = f.realize({3});
    EXPECT_EQ(out(2), 2);
}

} // namespace
