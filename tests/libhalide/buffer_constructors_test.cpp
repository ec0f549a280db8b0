// Halide::Buffer's constructors and static makers that upstream 21 offers:
// sizes with a name last, over caller memory (pointer and sizes, pointer
// and shape, halide_buffer_t, C arrays), storage orders, scalars and
// buffers shaped as another. Expected values are worked out by hand.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "Halide.h"

using namespace Halide;

TEST(BufferConstructors, SizesWithANameLast) {
    Buffer<float> a(5, "one_d");
    EXPECT_EQ(a.name(), "one_d");
    EXPECT_EQ(a.dimensions(), 1);
    EXPECT_EQ(a.width(), 5);
    Buffer<uint8_t> b(4, 3, std::string("two_d"));
    EXPECT_EQ(b.name(), "two_d");
    EXPECT_EQ(b.height(), 3);
    Buffer<int, 3> c(2, 3, 4, "three_d");
    EXPECT_EQ(c.name(), "three_d");
    EXPECT_EQ(c.channels(), 4);
    Buffer<float> unnamed(6, 2);
    EXPECT_FALSE(unnamed.name().empty());
    Buffer<> t(Float(32), 4, 2, "typed");
    EXPECT_EQ(t.name(), "typed");
    EXPECT_EQ(t.type(), Float(32));
    EXPECT_EQ(t.dimensions(), 2);
    Buffer<> t1(UInt(16), 7);
    EXPECT_EQ(t1.width(), 7);
    EXPECT_EQ(t1.type(), UInt(16));
}

TEST(BufferConstructors, OverCallerMemoryWithoutACopy) {
    float data[6] = {1, 2, 3, 4, 5, 6};
    Buffer<float> a(data, 3, 2, "borrowed");
    EXPECT_EQ(a.name(), "borrowed");
    EXPECT_EQ(a.width(), 3);
    EXPECT_EQ(a.height(), 2);
    EXPECT_EQ(a(2, 1), 6.0f);
    data[4] = 50;
    EXPECT_EQ(a(1, 1), 50.0f);
    a(0, 0) = -1;
    EXPECT_EQ(data[0], -1.0f);
    Buffer<float> b(data, std::vector<int>{2, 3}, "by_vector");
    EXPECT_EQ(b.name(), "by_vector");
    EXPECT_EQ(b(1, 2), 6.0f);
    halide_dimension_t shape[2] = {{0, 2, 3, 0}, {0, 3, 1, 0}}; // transposed view
    Buffer<float> c(data, 2, shape, "by_shape");
    EXPECT_EQ(c(1, 0), 4.0f);
    EXPECT_EQ(c(0, 2), 3.0f);
    Buffer<> d(Float(32), (void *)data, 3, 2, "void_data");
    EXPECT_EQ(d.as<float>()(2, 1), 6.0f);
    Buffer<> e(Float(32), (void *)data, std::vector<int>{6}, "void_vector");
    EXPECT_EQ(e.as<float>()(5), 6.0f);
    Buffer<> f(Float(32), (void *)data, 2, shape, "void_shape");
    EXPECT_EQ(f.as<float>()(1, 2), 6.0f);
    Buffer<float> g(*a.raw_buffer(), "from_raw");
    EXPECT_EQ(g.name(), "from_raw");
    EXPECT_EQ(g.data(), a.data());
}

TEST(BufferConstructors, ACArrayLastIndexInnermost) {
    int vals[2][3] = {{1, 2, 3}, {4, 5, 6}};
    Buffer<int> a(vals, "array");
    EXPECT_EQ(a.name(), "array");
    EXPECT_EQ(a.width(), 3);
    EXPECT_EQ(a.height(), 2);
    EXPECT_EQ(a(2, 1), 6);
    vals[1][2] = 9; // not copied, as upstream's
    EXPECT_EQ(a(2, 1), 9);
}

TEST(BufferConstructors, StorageOrder) {
    Buffer<float> a(std::vector<int>{4, 3}, std::vector<int>{1, 0}, "ordered");
    EXPECT_EQ(a.name(), "ordered");
    EXPECT_EQ(a.dim(0).stride(), 3);
    EXPECT_EQ(a.dim(1).stride(), 1);
    Buffer<> b(UInt(8), std::vector<int>{4, 3, 2}, std::vector<int>{2, 0, 1});
    EXPECT_EQ(b.dim(2).stride(), 1);
    EXPECT_EQ(b.dim(0).stride(), 2);
    EXPECT_EQ(b.dim(1).stride(), 8);
}

TEST(BufferConstructors, StaticMakers) {
    Buffer<float> s = Buffer<float>::make_scalar("scalar");
    EXPECT_EQ(s.name(), "scalar");
    EXPECT_EQ(s.dimensions(), 0);
    Buffer<> t = Buffer<>::make_scalar(Int(16), "typed_scalar");
    EXPECT_EQ(t.type(), Int(16));
    EXPECT_EQ(t.dimensions(), 0);
    int v = 41;
    Buffer<int> u = Buffer<int>::make_scalar(&v, "over_v");
    u() = 42;
    EXPECT_EQ(v, 42);
    uint8_t px[2 * 2 * 3] = {};
    Buffer<uint8_t> i = Buffer<uint8_t>::make_interleaved(px, 2, 2, 3, "interleaved");
    EXPECT_EQ(i.name(), "interleaved");
    EXPECT_EQ(i.dim(2).stride(), 1);
    i(1, 1, 2) = 7;
    EXPECT_EQ(px[(1 * 2 + 1) * 3 + 2], 7);
    Buffer<float> src(5, 3);
    src.set_min(2, -1);
    Buffer<int> w = Buffer<int>::make_with_shape_of(src, nullptr, nullptr, "shaped");
    EXPECT_EQ(w.name(), "shaped");
    EXPECT_EQ(w.dim(0).min(), 2);
    EXPECT_EQ(w.dim(1).min(), -1);
    EXPECT_EQ(w.height(), 3);
    Buffer<int> r = Buffer<int>::make_with_shape_of(*src.get());
    EXPECT_EQ(r.width(), 5);
}

TEST(BufferConstructors, ABorrowedBufferIsAPipelineInput) {
    float data[4] = {1, 2, 3, 4};
    Buffer<float> in(data, 4, "in_data");
    Func f;
    Var x;
    f(x) = in(x)*2.0f;
    Buffer<float> out = f.realize({4});
    for (int i = 0; i < 4; i++) {
        EXPECT_EQ(out(i), data[i] * 2.0f);
    }
}
