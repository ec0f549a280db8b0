// Halide::Buffer<T> converted to Buffer<> and back is one buffer, as
// upstream's: shape changes, crops and infer_input_bounds' answers made
// through one view show in every other. Expected values are worked out by
// hand from the definitions.
#include <gtest/gtest.h>

#include <cstdint>

#include "Halide.h"

using namespace Halide;

TEST(BufferSharing, ConversionsShareOneBuffer) {
    Buffer<float> a(8, 6);
    Buffer<> v = a;
    EXPECT_EQ(v.raw_buffer(), a.raw_buffer());
    EXPECT_EQ(v.name(), a.name());
    v.crop(0, 2, 4);
    EXPECT_EQ(a.dim(0).min(), 2);
    EXPECT_EQ(a.dim(0).extent(), 4);
    Buffer<float, 2> back = v;
    EXPECT_EQ(back.raw_buffer(), a.raw_buffer());
    back.translate(1, 5);
    EXPECT_EQ(a.dim(1).min(), 5);
    EXPECT_EQ(v.dim(1).min(), 5);
    a(3, 7) = 2.5f;
    EXPECT_EQ(back(3, 7), 2.5f);
    EXPECT_EQ(v.as<float>()(3, 7), 2.5f);
}

TEST(BufferSharing, MoreDimensionsThanTheInClassShapeOfAView) {
    // Buffer<float, 2> keeps room for two dimensions in the object; the
    // shared buffer's shape moves as a view of another rank changes it.
    Buffer<float> a(std::vector<int>{2, 3, 4, 5, 6});
    Buffer<> v = a;
    v.crop(4, 1, 2);
    EXPECT_EQ(a.dim(4).min(), 1);
    EXPECT_EQ(a.dim(4).extent(), 2);
    v.get()->slice(4, 1); // in place: every view has four dimensions now
    EXPECT_EQ(a.dimensions(), 4);
    a.get()->add_dimension();
    a.get()->add_dimension();
    EXPECT_EQ(v.dimensions(), 6);
    EXPECT_EQ(v.dim(3).extent(), 5);
    EXPECT_EQ(v.dim(5).extent(), 1);
    a(1, 2, 3, 4, 0, 0) = 7.0f;
    EXPECT_EQ(v.as<float>()(1, 2, 3, 4, 0, 0), 7.0f);
}

TEST(BufferSharing, ATypedOutputQueryGetsInferInputBoundsAnswer) {
    ImageParam in(Int(16), 1, "sharing_in");
    Var x;
    Func f("sharing_f");
    f(x) = in(x) + in(x + 3);
    f.output_buffer().dim(0).set_bounds(0, 8);
    Buffer<int16_t> query(Runtime::Buffer<int16_t>(nullptr, 5)); // no memory: a bounds query
    f.infer_input_bounds(query);
    // The output is constrained to [0, 8), so the input is read over [0, 11).
    EXPECT_EQ(query.dim(0).min(), 0);
    EXPECT_EQ(query.dim(0).extent(), 8);
    Buffer<int16_t> b = in.get();
    EXPECT_EQ(b.dim(0).min(), 0);
    EXPECT_EQ(b.dim(0).extent(), 11);
}

TEST(BufferSharing, ABoundTypedBufferIsTheParamsBuffer) {
    ImageParam in(Float(32), 2, "bound_in");
    Buffer<float> b(4, 4);
    in.set(b);
    Buffer<> got = in.get();
    EXPECT_EQ(got.raw_buffer(), b.raw_buffer());
}

TEST(BufferSharing, InPlaceReshapesAsUpstreamsForwardedMembers) {
    // slice, embed, add_dimension and transpose in place change the shape
    // every copy of the handle sees, and a Func reads the new shape.
    Buffer<int> b(6, 4, 3);
    b.for_each_element([&](int x, int y, int c) { b(x, y, c) = x + 10 * y + 100 * c; });
    Buffer<int> same = b;
    b.slice(2, 1);
    ASSERT_EQ(same.dimensions(), 2);
    EXPECT_EQ(same(5, 3), 135);
    b.add_dimension();
    EXPECT_EQ(b.dimensions(), 3);
    EXPECT_EQ(b.dim(2).extent(), 1);
    b.slice(2);
    b.embed(0, 7); // a new innermost dimension at 7: b(7, x, y)
    ASSERT_EQ(b.dimensions(), 3);
    EXPECT_EQ(b(7, 2, 3), 132);
    b.slice(0, 7);
    b.transpose(0, 1);
    EXPECT_EQ(b(3, 5), 135); // b(y, x)

    Var x("x"), y("y");
    Func f("reshaped_reader");
    f(x, y) = b(x, y) * 2;
    Buffer<int> out = f.realize({4, 6});
    for (int j = 0; j < 6; j++) {
        for (int i = 0; i < 4; i++) {
            ASSERT_EQ(out(i, j), 2 * (j + 10 * i + 100)) << i << ", " << j;
        }
    }
}

TEST(BufferSharing, AllocateDeallocateAndTheElementRange) {
    Buffer<uint8_t> b(16, 4);
    b.fill(3);
    EXPECT_EQ(b.end() - b.begin(), 64);
    EXPECT_EQ(*b.begin(), 3);
    b.deallocate();
    EXPECT_EQ(b.data(), nullptr);
    b.allocate();
    ASSERT_NE(b.data(), nullptr);
    EXPECT_EQ(b.end() - b.begin(), 64);
    b.device_deallocate(); // no device memory: nothing to do
    EXPECT_FALSE(b.has_device_allocation());
}
