// Tests of Halide::Runtime::Buffer (runtime/include/HalideBuffer.h).
//
// Address arithmetic is checked against hand-computed offsets, ownership
// against a counting allocator, and device hooks against a fake device
// interface, so each test says exactly what the class must do.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <set>
#include <utility>
#include <vector>

#include "HalideBuffer.h"

using Halide::Runtime::AnyDims;
using Halide::Runtime::Buffer;
using Halide::Runtime::BufferDeviceOwnership;

namespace {

// ---------------------------------------------------------------------
// A counting allocator for ownership tests.
// ---------------------------------------------------------------------
int g_allocations = 0;
int g_frees = 0;

void *counting_malloc(size_t n) {
    g_allocations++;
    return std::malloc(n);
}

void counting_free(void *p) {
    g_frees++;
    std::free(p);
}

bool aligned_to(const void *p, uintptr_t alignment) {
    return reinterpret_cast<uintptr_t>(p) % alignment == 0;
}

// ---------------------------------------------------------------------
// Construction and shape
// ---------------------------------------------------------------------

TEST(HalideBuffer, OwnedAllocationsAreAlignedTo128) {
    for (int w : {1, 3, 17, 64, 129, 1000}) {
        Buffer<uint8_t> a(w);
        EXPECT_TRUE(aligned_to(a.data(), 128)) << "width " << w;
        Buffer<float> b(w, 3);
        EXPECT_TRUE(aligned_to(b.data(), 128)) << "width " << w;
        Buffer<double> c(std::vector<int>{w, 2, 2});
        EXPECT_TRUE(aligned_to(c.data(), 128)) << "width " << w;
        Buffer<> d(halide_type_t(halide_type_int, 16), w, 5);
        EXPECT_TRUE(aligned_to(d.data(), 128)) << "width " << w;
        EXPECT_TRUE(a.owns_host_memory() && b.owns_host_memory() && c.owns_host_memory() && d.owns_host_memory());
    }
    auto interleaved = Buffer<uint8_t>::make_interleaved(7, 5, 3);
    EXPECT_TRUE(aligned_to(interleaved.data(), 128));
}

TEST(HalideBuffer, SizedConstructorGivesDenseShape) {
    Buffer<uint8_t> b(640, 480, 3);
    ASSERT_EQ(b.dimensions(), 3);
    EXPECT_EQ(b.width(), 640);
    EXPECT_EQ(b.height(), 480);
    EXPECT_EQ(b.channels(), 3);
    EXPECT_EQ(b.dim(0).stride(), 1);
    EXPECT_EQ(b.dim(1).stride(), 640);
    EXPECT_EQ(b.dim(2).stride(), 640 * 480);
    for (int i = 0; i < 3; i++) {
        EXPECT_EQ(b.dim(i).min(), 0);
    }
    EXPECT_EQ(b.left(), 0);
    EXPECT_EQ(b.right(), 639);
    EXPECT_EQ(b.top(), 0);
    EXPECT_EQ(b.bottom(), 479);
    EXPECT_EQ(b.number_of_elements(), size_t(640 * 480 * 3));
    EXPECT_EQ(b.size_in_bytes(), size_t(640 * 480 * 3));
    EXPECT_EQ(b.type(), halide_type_of<uint8_t>());
    EXPECT_EQ(b.type().lanes, 1); // Halide 14 type word
    EXPECT_EQ((uint8_t *)b.begin(), b.data());
    EXPECT_EQ((uint8_t *)b.end(), b.data() + 640 * 480 * 3);
    EXPECT_FALSE(b.host_dirty());
    EXPECT_FALSE(b.device_dirty());
    EXPECT_FALSE(b.has_device_allocation());

    Buffer<float> f(std::vector<int>{4, 5});
    EXPECT_EQ(f.size_in_bytes(), sizeof(float) * 20);
    EXPECT_EQ(f.dim(1).stride(), 4);

    Buffer<> v(halide_type_of<int16_t>(), std::vector<int>{3, 2});
    EXPECT_EQ(v.type().bits, 16);
    EXPECT_EQ(v.size_in_bytes(), size_t(12));
}

// set_host_owner (ours): borrowed memory released once, by the last Buffer
// sharing it, whichever that is.
TEST(HalideBuffer, HostOwnerIsReleasedByTheLastSharer) {
    static int releases = 0;
    static void *released_context = nullptr;
    releases = 0;
    int memory[4][6] = {};
    int token = 0;
    Buffer<int> crop, slice;
    {
        Buffer<int> b(memory);
        EXPECT_FALSE(b.owns_host_memory());
        ASSERT_TRUE(b.set_host_owner(
            [](void *context) {
                releases++;
                released_context = context;
            },
            &token));
        EXPECT_TRUE(b.owns_host_memory());
        EXPECT_FALSE(b.set_host_owner([](void *) { releases += 100; }, nullptr));
        Buffer<int> copy = b;
        crop = copy.cropped(0, 1, 3);
        slice = b.sliced(1, 2);
        copy.fill(7);
    }
    EXPECT_EQ(releases, 0);
    EXPECT_EQ(crop(2, 3), 7);
    crop = Buffer<int>();
    EXPECT_EQ(releases, 0);
    EXPECT_EQ(slice(5), 7);
    slice.deallocate();
    EXPECT_EQ(releases, 1);
    EXPECT_EQ(released_context, &token);
    EXPECT_EQ(memory[3][5], 7); // the memory itself was never freed
}

TEST(HalideBuffer, HostOwnerIsRefusedWhenTheBufferOwnsItsMemory) {
    Buffer<int> b(4, 4);
    EXPECT_FALSE(b.set_host_owner([](void *) {}, nullptr));
    Buffer<int> unset;
    EXPECT_FALSE(unset.set_host_owner(nullptr, nullptr));
}

TEST(HalideBuffer, ZeroExtentAllocatesNothing) {
    Buffer<int> b(0, 5);
    EXPECT_EQ(b.data(), nullptr);
    EXPECT_FALSE(b.owns_host_memory());
    EXPECT_EQ(b.number_of_elements(), size_t(0));
    EXPECT_EQ(b.size_in_bytes(), size_t(0));
    int visits = 0;
    b.for_each_element([&](int, int) { visits++; });
    EXPECT_EQ(visits, 0);
}

// As upstream documents: a callback of fewer coordinates than dimensions
// iterates over the first dimensions only (an RGB image set per pixel); one
// of more gets 0 for the extra ones.
TEST(HalideBuffer, ForEachElementWithFewerOrMoreCoordinates) {
    Buffer<int, 3> im(4, 3, 3);
    im.fill(0);
    int visits = 0;
    im.for_each_element([&](int x, int y) {
        visits++;
        for (int c = 0; c < 3; c++) {
            im(x, y, c) = x + 10 * y + 100 * c;
        }
    });
    EXPECT_EQ(visits, 12);
    EXPECT_EQ(im(3, 2, 2), 3 + 20 + 200);
    Buffer<int> line(5);
    int sum = 0, extra = 0;
    line.for_each_element([&](int x, int y, int z) {
        sum += x;
        extra += y != 0 || z != 0;
    });
    EXPECT_EQ(sum, 0 + 1 + 2 + 3 + 4);
    EXPECT_EQ(extra, 0);
}

TEST(HalideBuffer, DefaultBufferIsEmpty) {
    Buffer<float> b;
    EXPECT_EQ(b.dimensions(), 0);
    EXPECT_EQ(b.data(), nullptr);
    EXPECT_TRUE(b.is_bounds_query());
    Buffer<float, 2> s;
    EXPECT_EQ(s.dimensions(), 2);
    EXPECT_EQ(s.dim(1).extent(), 0);
}

TEST(HalideBuffer, StorageOrderConstructor) {
    // Logical (x, y, c) with c innermost, then x, then y.
    Buffer<uint8_t> b({5, 4, 3}, {2, 0, 1});
    EXPECT_EQ(b.dim(0).extent(), 5);
    EXPECT_EQ(b.dim(1).extent(), 4);
    EXPECT_EQ(b.dim(2).extent(), 3);
    EXPECT_EQ(b.dim(2).stride(), 1);
    EXPECT_EQ(b.dim(0).stride(), 3);
    EXPECT_EQ(b.dim(1).stride(), 15);
}

TEST(HalideBuffer, BorrowedConstructors) {
    std::vector<float> storage(6 * 4);
    Buffer<float> a(storage.data(), 6, 4);
    EXPECT_EQ(a.data(), storage.data());
    EXPECT_FALSE(a.owns_host_memory());
    EXPECT_EQ(a.dim(1).stride(), 6);
    a(2, 3) = 7.5f;
    EXPECT_EQ(storage[3 * 6 + 2], 7.5f);
    EXPECT_TRUE(a.host_dirty());

    Buffer<float> b(storage.data(), std::vector<int>{4, 6});
    EXPECT_EQ(b.dim(0).extent(), 4);
    EXPECT_EQ(b.dim(1).stride(), 4);

    Buffer<> c(halide_type_of<float>(), storage.data(), 2, 3, 4);
    EXPECT_EQ(c.dimensions(), 3);
    EXPECT_EQ(c.type(), halide_type_of<float>());
    EXPECT_EQ(c.dim(2).stride(), 6);

    Buffer<> d(halide_type_of<float>(), storage.data(), std::vector<int>{24});
    EXPECT_EQ(d.dim(0).extent(), 24);

    // Arbitrary shape: a 3x2 window with mins (10, 20) and column-major strides.
    halide_dimension_t shape[2] = {{10, 3, 4}, {20, 2, 1}};
    Buffer<float> e(storage.data(), 2, shape);
    EXPECT_EQ(&e(10, 20), storage.data());
    EXPECT_EQ(&e(12, 21), storage.data() + 2 * 4 + 1);
    Buffer<float> e2(storage.data(), std::vector<halide_dimension_t>{{0, 3, 4}, {0, 2, 1}});
    EXPECT_EQ(&e2(1, 1), storage.data() + 5);
    Buffer<> e3(halide_type_of<float>(), storage.data(), 2, shape);
    EXPECT_EQ(e3.dim(0).min(), 10);

    const std::vector<int> cdata = {1, 2, 3, 4};
    Buffer<const int> f(cdata.data(), 2, 2);
    EXPECT_EQ(f(1, 1), 4);

    // A C array: dimension 0 is the last index.
    int arr[2][3] = {{0, 1, 2}, {10, 11, 12}};
    Buffer<int> g(arr);
    ASSERT_EQ(g.dimensions(), 2);
    EXPECT_EQ(g.dim(0).extent(), 3);
    EXPECT_EQ(g.dim(1).extent(), 2);
    EXPECT_EQ(g.dim(1).stride(), 3);
    EXPECT_EQ(g(2, 1), 12);
    EXPECT_EQ(&g(0, 0), &arr[0][0]);
}

TEST(HalideBuffer, WrapsHalideBufferT) {
    std::vector<uint16_t> storage(8 * 3);
    halide_dimension_t dims[2] = {{0, 8, 1}, {5, 3, 8}};
    halide_buffer_t raw = {};
    raw.host = reinterpret_cast<uint8_t *>(storage.data());
    raw.type = halide_type_of<uint16_t>();
    raw.dimensions = 2;
    raw.dim = dims;

    Buffer<uint16_t> b(raw);
    EXPECT_EQ(b.data(), storage.data());
    EXPECT_FALSE(b.owns_host_memory());
    EXPECT_EQ(b.dim(1).min(), 5);
    EXPECT_NE(b.raw_buffer()->dim, dims) << "the shape is copied, not aliased";
    b.translate(0, 3);
    EXPECT_EQ(dims[0].min, 0) << "changing the wrapper must not touch the original shape";
    EXPECT_EQ(&b(3, 5), storage.data());

    Buffer<> v(raw);
    EXPECT_EQ(v.type(), halide_type_of<uint16_t>());
    halide_buffer_t *p = v; // implicit conversion for passing to kernels
    EXPECT_EQ(p, v.raw_buffer());
    EXPECT_EQ(p->host, raw.host);
}

// ---------------------------------------------------------------------
// Element access and views: address arithmetic
// ---------------------------------------------------------------------

TEST(HalideBuffer, ElementAccessHonoursMins) {
    Buffer<int> b(10, 8);
    int *base = b.data();
    b.set_min(100, 200);
    EXPECT_EQ(b.dim(0).min(), 100);
    EXPECT_EQ(b.dim(1).min(), 200);
    EXPECT_EQ(b.data(), base) << "set_min moves coordinates, not memory";
    EXPECT_EQ(&b(100, 200), base);
    EXPECT_EQ(&b(103, 205), base + 5 * 10 + 3);
    const int pos[2] = {109, 207};
    EXPECT_EQ(&b(pos), base + 7 * 10 + 9);
    // Missing trailing coordinates are taken at their mins.
    EXPECT_EQ(&b(104), base + 4);

    const Buffer<int> &cb = b;
    b(101, 201) = 42;
    EXPECT_EQ(cb(101, 201), 42);
    EXPECT_EQ(cb(pos), b(109, 207));

    EXPECT_TRUE(b.contains(100, 200));
    EXPECT_TRUE(b.contains(109, 207));
    EXPECT_FALSE(b.contains(110, 200));
    EXPECT_FALSE(b.contains(99, 200));
    EXPECT_FALSE(b.contains(105, 208));
    EXPECT_TRUE(b.contains(std::vector<int>{105}));

    Buffer<int> scalar = Buffer<int>::make_scalar();
    EXPECT_EQ(scalar.dimensions(), 0);
    scalar() = 9;
    EXPECT_EQ(scalar(), 9);
}

TEST(HalideBuffer, CropAddressArithmetic) {
    Buffer<int> b(10, 8);
    int *base = b.data();

    Buffer<int> c = b.cropped(0, 2, 5);
    EXPECT_EQ(c.data(), base + 2);
    EXPECT_EQ(c.dim(0).min(), 2);
    EXPECT_EQ(c.dim(0).extent(), 5);
    EXPECT_EQ(c.dim(0).stride(), 1);
    EXPECT_EQ(c.dim(1).extent(), 8);
    EXPECT_EQ(&c(3, 1), &b(3, 1));

    Buffer<int> r = b.cropped(1, 3, 4);
    EXPECT_EQ(r.data(), base + 3 * 10);
    EXPECT_EQ(r.dim(1).min(), 3);
    EXPECT_EQ(&r(9, 6), base + 6 * 10 + 9);

    Buffer<int> rc = b.cropped({{4, 2}, {5, 3}});
    EXPECT_EQ(rc.data(), base + 5 * 10 + 4);
    EXPECT_EQ(rc.width(), 2);
    EXPECT_EQ(rc.height(), 3);

    // Crop of a crop, and in place.
    Buffer<int> cc = c.cropped(1, 2, 2);
    EXPECT_EQ(cc.data(), base + 2 * 10 + 2);
    b.crop(0, 1, 8);
    b.crop(1, 1, 6);
    EXPECT_EQ(b.data(), base + 11);
    EXPECT_EQ(b.left(), 1);
    EXPECT_EQ(b.top(), 1);
    b.crop({{3, 2}});
    EXPECT_EQ(b.data(), base + 13);

    // With non-zero mins and a 3-channel planar image.
    Buffer<float> p(6, 5, 3);
    float *pb = p.data();
    p.set_min(-2, -1, 0);
    Buffer<float> pc = p.cropped(2, 1, 2).cropped(0, 0, 3);
    EXPECT_EQ(pc.data(), pb + 1 * 30 + 2);
    EXPECT_EQ(&pc(1, 2, 2), pb + 2 * 30 + 3 * 6 + 3);
}

TEST(HalideBuffer, SliceAddressArithmetic) {
    Buffer<int> b(10, 8);
    int *base = b.data();

    Buffer<int> row = b.sliced(1, 4);
    ASSERT_EQ(row.dimensions(), 1);
    EXPECT_EQ(row.data(), base + 40);
    EXPECT_EQ(&row(7), base + 47);

    Buffer<int> column = b.sliced(0, 7);
    ASSERT_EQ(column.dimensions(), 1);
    EXPECT_EQ(column.dim(0).stride(), 10);
    EXPECT_EQ(column.data(), base + 7);
    EXPECT_EQ(&column(3), base + 37);

    Buffer<int> at_min = b.sliced(1);
    EXPECT_EQ(at_min.data(), base);

    // A middle dimension of a translated 3-D buffer.
    Buffer<uint8_t> c(4, 5, 6);
    uint8_t *cb = c.data();
    c.set_min(0, 10, 0);
    Buffer<uint8_t> s = c.sliced(1, 13);
    ASSERT_EQ(s.dimensions(), 2);
    EXPECT_EQ(s.dim(1).extent(), 6);
    EXPECT_EQ(s.dim(1).stride(), 20);
    EXPECT_EQ(s.data(), cb + 3 * 4);
    EXPECT_EQ(&s(2, 5), cb + 5 * 20 + 3 * 4 + 2);

    c.slice(2, 4);
    EXPECT_EQ(c.dimensions(), 2);
    EXPECT_EQ(c.data(), cb + 80);
    c.slice(0);
    EXPECT_EQ(c.dimensions(), 1);
    EXPECT_EQ(c.dim(0).min(), 10);
    EXPECT_EQ(c.dim(0).stride(), 4);
    EXPECT_EQ(c.data(), cb + 80);
}

TEST(HalideBuffer, TransposeAddressArithmetic) {
    Buffer<int> b(10, 8);
    Buffer<int> t = b.transposed(0, 1);
    EXPECT_EQ(t.dim(0).extent(), 8);
    EXPECT_EQ(t.dim(0).stride(), 10);
    EXPECT_EQ(t.dim(1).extent(), 10);
    EXPECT_EQ(t.dim(1).stride(), 1);
    for (int y = 0; y < 8; y++) {
        for (int x = 0; x < 10; x++) {
            ASSERT_EQ(&t(y, x), &b(x, y));
        }
    }

    // General permutation: old dimension i becomes dimension order[i].
    Buffer<int> c(2, 3, 4);
    Buffer<int> p = c.transposed({1, 2, 0});
    EXPECT_EQ(p.dim(1).extent(), 2);
    EXPECT_EQ(p.dim(2).extent(), 3);
    EXPECT_EQ(p.dim(0).extent(), 4);
    EXPECT_EQ(&p(3, 1, 2), &c(1, 2, 3));
    c.transpose(0, 2);
    EXPECT_EQ(c.dim(0).stride(), 6);
    EXPECT_EQ(c.dim(2).stride(), 1);
}

TEST(HalideBuffer, TranslateAddressArithmetic) {
    Buffer<int> b(10, 8);
    Buffer<int> t = b.translated(0, 5);
    EXPECT_EQ(t.data(), b.data());
    EXPECT_EQ(t.dim(0).min(), 5);
    EXPECT_EQ(&t(5 + 3, 2), &b(3, 2));
    Buffer<int> t2 = b.translated({-1, 4});
    EXPECT_EQ(&t2(-1 + 6, 4 + 7), &b(6, 7));
    b.translate(1, -3);
    EXPECT_EQ(b.top(), -3);
    EXPECT_EQ(&b(0, -3), t.data());
}

TEST(HalideBuffer, EmbedAndAddDimension) {
    Buffer<float> im(6, 4, 3);
    Buffer<float> im2 = im.embedded(1, 17);
    ASSERT_EQ(im2.dimensions(), 4);
    EXPECT_EQ(im2.dim(1).min(), 17);
    EXPECT_EQ(im2.dim(1).extent(), 1);
    for (int c = 0; c < 3; c++) {
        for (int y = 0; y < 4; y++) {
            for (int x = 0; x < 6; x++) {
                ASSERT_EQ(&im2(x, 17, y, c), &im(x, y, c));
            }
        }
    }
    Buffer<float> im3 = im2.sliced(1, 17);
    EXPECT_EQ(im3.dimensions(), 3);
    EXPECT_EQ(&im3(5, 3, 2), &im(5, 3, 2));

    Buffer<float> a(6, 4);
    a.add_dimension();
    ASSERT_EQ(a.dimensions(), 3);
    EXPECT_EQ(a.dim(2).min(), 0);
    EXPECT_EQ(a.dim(2).extent(), 1);
    EXPECT_EQ(a.dim(2).stride(), 24);
    a.add_dimension_with_stride(0);
    EXPECT_EQ(a.dim(3).stride(), 0);
    a.embed(0, -5);
    EXPECT_EQ(a.dimensions(), 5);
    EXPECT_EQ(a.dim(0).min(), -5);
    EXPECT_EQ(a.dim(1).extent(), 6);
}

TEST(HalideBuffer, ManyDimensionsUseHeapShape) {
    Buffer<uint8_t> b(std::vector<int>{2, 3, 2, 2, 2, 3});
    ASSERT_EQ(b.dimensions(), 6);
    EXPECT_EQ(b.dim(5).stride(), 2 * 3 * 2 * 2 * 2);
    b.fill(0);
    b(1, 2, 1, 1, 1, 2) = 99;
    Buffer<uint8_t> copy = b; // shares memory, copies shape
    EXPECT_EQ(copy(1, 2, 1, 1, 1, 2), 99);
    copy.translate(5, 1);
    EXPECT_EQ(b.dim(5).min(), 0);
    Buffer<uint8_t> moved = std::move(copy);
    EXPECT_EQ(moved.dim(5).min(), 1);
    EXPECT_EQ(moved(1, 2, 1, 1, 1, 3), 99);

    Buffer<int> grow(2, 2, 2, 2); // fills the in-class storage exactly
    grow.add_dimension();
    grow.add_dimension();
    EXPECT_EQ(grow.dimensions(), 6);
    EXPECT_EQ(grow.dim(5).stride(), 16);
    grow.slice(5);
    grow.slice(4);
    EXPECT_EQ(grow.dimensions(), 4);
}

TEST(HalideBuffer, NegativeStrides) {
    // A 4-element row seen backwards: host points at the highest address.
    std::vector<int> storage = {0, 1, 2, 3};
    halide_dimension_t d = {0, 4, -1};
    Buffer<int> rev(storage.data() + 3, 1, &d);
    EXPECT_EQ(rev(0), 3);
    EXPECT_EQ(rev(3), 0);
    EXPECT_EQ(rev.begin(), storage.data());
    EXPECT_EQ(rev.end(), storage.data() + 4);
    EXPECT_EQ(rev.size_in_bytes(), 4 * sizeof(int));
    Buffer<int> fwd = rev.copy();
    EXPECT_EQ(fwd(0), 3);
    EXPECT_EQ(fwd(3), 0);

    // Owned memory with a negative stride stays inside its allocation.
    Buffer<int> own(halide_type_of<int>(), nullptr, 1, &d);
    own.allocate();
    EXPECT_TRUE(aligned_to(own.begin(), 128));
    own.fill([](int x) { return x * 10; });
    EXPECT_EQ(*own.begin(), 30);
    EXPECT_EQ(own(0), 0);
}

// ---------------------------------------------------------------------
// Copies and bulk operations
// ---------------------------------------------------------------------

TEST(HalideBuffer, CopyFromCopiesOnlyTheOverlap) {
    Buffer<int> src(10);
    src.fill([](int x) { return 100 + x; });
    Buffer<int> dst(10);
    dst.fill(-1);
    dst.set_min(5); // covers [5, 14]; src covers [0, 9]
    dst.copy_from(src);
    for (int x = 5; x <= 9; x++) {
        EXPECT_EQ(dst(x), 100 + x) << x;
    }
    for (int x = 10; x <= 14; x++) {
        EXPECT_EQ(dst(x), -1) << x;
    }

    // 2-D: a translated window, different memory layouts on each side.
    Buffer<uint16_t> a(8, 6);
    a.fill([](int x, int y) { return (uint16_t)(x + 10 * y); });
    auto b = Buffer<uint16_t>::make_interleaved(5, 4, 1).sliced(2);
    b.fill(0);
    b.set_min(6, 3); // [6, 10] x [3, 6]; overlap with a is [6, 7] x [3, 5]
    b.copy_from(a);
    b.for_each_element([&](int x, int y) {
        const bool inside = x <= 7 && y <= 5;
        EXPECT_EQ(b(x, y), inside ? x + 10 * y : 0) << x << "," << y;
    });

    // Disjoint buffers: nothing changes.
    Buffer<int> far(4);
    far.fill(7);
    far.set_min(100);
    far.copy_from(src);
    EXPECT_TRUE(far.all_equal(7));

    // Buffer<void> on either side.
    Buffer<> vsrc = src;
    Buffer<int> vdst(10);
    vdst.copy_from(vsrc);
    EXPECT_EQ(vdst(9), 109);
}

TEST(HalideBuffer, CopyIsDeepAndKeepsLayout) {
    auto a = Buffer<uint8_t>::make_interleaved(5, 4, 3);
    a.fill([](int x, int y, int c) { return (uint8_t)(x + 5 * y + 20 * c); });
    a.set_min(1, 2, 0);
    Buffer<uint8_t> b = a.copy();
    EXPECT_NE(b.data(), a.data());
    EXPECT_EQ(b.dim(2).stride(), 1) << "copy keeps the interleaved order";
    EXPECT_EQ(b.dim(0).stride(), 3);
    EXPECT_EQ(b.dim(0).min(), 1);
    EXPECT_EQ(b.dim(1).min(), 2);
    b.for_each_element([&](int x, int y, int c) { EXPECT_EQ(b(x, y, c), a(x, y, c)); });
    a(1, 2, 0) = 250;
    EXPECT_NE(b(1, 2, 0), 250);

    Buffer<uint8_t> planar = a.copy_to_planar();
    EXPECT_EQ(planar.dim(0).stride(), 1);
    EXPECT_EQ(planar(3, 4, 2), a(3, 4, 2));
    Buffer<uint8_t> inter = planar.copy_to_interleaved();
    EXPECT_EQ(inter.dim(2).stride(), 1);
    EXPECT_EQ(inter(5, 5, 1), a(5, 5, 1));

    Buffer<const uint8_t> ca = a;
    Buffer<uint8_t> from_const = ca.copy();
    EXPECT_EQ(from_const(2, 3, 1), a(2, 3, 1));

    Buffer<float> shaped = Buffer<float>::make_with_shape_of(a);
    EXPECT_EQ(shaped.dim(2).stride(), 1);
    EXPECT_EQ(shaped.dim(1).min(), 2);
    EXPECT_EQ(shaped.type(), halide_type_of<float>());
}

TEST(HalideBuffer, ForEachValueOverTwoBuffers) {
    Buffer<int> a(7, 5);
    Buffer<float> b(7, 5);
    a.fill([](int x, int y) { return x + 100 * y; });
    b.fill([](int x, int y) { return 0.5f * (float)(x * y); });
    Buffer<double> out(7, 5);
    int calls = 0;
    out.for_each_value(
        [&](double &o, const int &ia, float fb) {
            o = ia + (double)fb;
            calls++;
        },
        a, b);
    EXPECT_EQ(calls, 35);
    out.for_each_element([&](int x, int y) { EXPECT_EQ(out(x, y), (x + 100 * y) + 0.5 * x * y); });

    // Different memory orders, the same coordinates.
    auto inter = Buffer<int>::make_interleaved(4, 3, 2);
    Buffer<int> planar(4, 3, 2);
    planar.fill([](int x, int y, int c) { return x + 10 * y + 100 * c; });
    inter.for_each_value([](int &dst, int src) { dst = src * 2; }, planar);
    inter.for_each_element([&](int x, int y, int c) { EXPECT_EQ(inter(x, y, c), 2 * (x + 10 * y + 100 * c)); });

    // A cropped (non-contiguous) view.
    Buffer<int> view = planar.cropped(0, 1, 2);
    int sum = 0;
    view.for_each_value([&](int v) { sum += v; });
    int expected = 0;
    for (int c = 0; c < 2; c++)
        for (int y = 0; y < 3; y++)
            for (int x = 1; x < 3; x++)
                expected += x + 10 * y + 100 * c;
    EXPECT_EQ(sum, expected);
}

TEST(HalideBuffer, ForEachElementVisitsEveryCoordinateOnce) {
    Buffer<int> b(3, 4, 2);
    b.set_min(-1, 5, 0);
    std::set<std::vector<int>> seen;
    b.for_each_element([&](int x, int y, int c) { EXPECT_TRUE(seen.insert({x, y, c}).second); });
    EXPECT_EQ(seen.size(), size_t(24));
    EXPECT_TRUE(seen.count({-1, 5, 0}));
    EXPECT_TRUE(seen.count({1, 8, 1}));

    std::vector<std::vector<int>> order;
    b.for_each_element([&](const int *pos) { order.push_back({pos[0], pos[1], pos[2]}); });
    ASSERT_EQ(order.size(), size_t(24));
    EXPECT_EQ(order[0], (std::vector<int>{-1, 5, 0}));
    EXPECT_EQ(order[1], (std::vector<int>{0, 5, 0})) << "dimension 0 varies fastest";
    EXPECT_EQ(order.back(), (std::vector<int>{1, 8, 1}));

    // fill from coordinates (ints or a position array), then all_equal.
    b.fill([](const int *pos) { return pos[0] + pos[1] + pos[2]; });
    EXPECT_EQ(b(1, 8, 1), 10);
    b.fill(4);
    EXPECT_TRUE(b.all_equal(4));
    b(0, 6, 1) = 5;
    EXPECT_FALSE(b.all_equal(4));

    // Dimension objects iterate over coordinates.
    int ys = 0;
    for (int y : b.dim(1)) {
        ys += y;
    }
    EXPECT_EQ(ys, 5 + 6 + 7 + 8);
}

// ---------------------------------------------------------------------
// Ownership and conversions
// ---------------------------------------------------------------------

TEST(HalideBuffer, ViewKeepsStorageAliveAfterOriginalIsDestroyed) {
    g_allocations = g_frees = 0;
    Buffer<int> view;
    {
        Buffer<int> original(halide_type_of<int>(), std::vector<int>{16, 16});
        original.allocate(counting_malloc, counting_free);
        EXPECT_EQ(g_allocations, 1);
        EXPECT_TRUE(aligned_to(original.data(), 128));
        original.fill([](int x, int y) { return x * y; });
        view = original.cropped(0, 4, 4).sliced(1, 9);
        EXPECT_TRUE(view.owns_host_memory());
    }
    EXPECT_EQ(g_frees, 0) << "the view still references the allocation";
    EXPECT_EQ(view(5), 45);
    EXPECT_EQ(view(7), 63);
    {
        Buffer<int> another = view; // a third reference, dropped again
    }
    EXPECT_EQ(g_frees, 0);
    view.deallocate();
    EXPECT_EQ(g_frees, 1);
    EXPECT_EQ(view.data(), nullptr);

    // Moves transfer the reference without touching the count.
    g_allocations = g_frees = 0;
    {
        Buffer<float> a(halide_type_of<float>(), std::vector<int>{8});
        a.allocate(counting_malloc, counting_free);
        Buffer<float> b = std::move(a);
        EXPECT_EQ(a.data(), nullptr);
        EXPECT_FALSE(a.owns_host_memory());
        Buffer<float> c;
        c = std::move(b);
        c = c; // self-assignment keeps the memory
        EXPECT_EQ(g_frees, 0);
        EXPECT_NE(c.data(), nullptr);
        c.reset();
        EXPECT_EQ(g_frees, 1);
    }
    EXPECT_EQ(g_allocations, 1);
    EXPECT_EQ(g_frees, 1);

    // copy() with a custom allocator, freed exactly once.
    g_allocations = g_frees = 0;
    {
        Buffer<uint8_t> src(9, 9);
        Buffer<uint8_t> dup = src.copy(counting_malloc, counting_free);
        Buffer<uint8_t> shared = dup;
    }
    EXPECT_EQ(g_allocations, 1);
    EXPECT_EQ(g_frees, 1);
}

TEST(HalideBuffer, VoidAndTypedConversions) {
    Buffer<float> typed(4, 3);
    typed.fill(1.25f);

    Buffer<> erased = typed;
    EXPECT_EQ(erased.type(), halide_type_of<float>());
    EXPECT_EQ(erased.data(), typed.data());
    EXPECT_EQ(erased.dimensions(), 2);

    Buffer<float> back = erased;
    EXPECT_EQ(back.data(), typed.data());
    EXPECT_EQ(back(3, 2), 1.25f);

    EXPECT_TRUE(Buffer<float>::can_convert_from(erased));
    EXPECT_FALSE(Buffer<int>::can_convert_from(erased));
    EXPECT_FALSE((Buffer<float, 3>::can_convert_from(erased)));
    EXPECT_TRUE((Buffer<float, 2>::can_convert_from(erased)));

    Buffer<float> &viewed = erased.as<float>();
    EXPECT_EQ(&viewed(1, 1), &typed(1, 1));
    viewed(0, 0) = 3.0f;
    EXPECT_EQ(typed(0, 0), 3.0f);

    const Buffer<> &cerased = erased;
    const Buffer<float> &cviewed = cerased.as<float>();
    EXPECT_EQ(cviewed(0, 0), 3.0f);

    Buffer<const float> ro = typed;
    EXPECT_EQ(ro(0, 0), 3.0f);
    Buffer<const void> rov = ro;
    EXPECT_EQ(rov.type(), halide_type_of<float>());
    const Buffer<const float> &as_const = typed.as_const();
    EXPECT_EQ(as_const.data(), typed.data());

    Buffer<float, 2> fixed = typed;
    EXPECT_EQ(fixed.dimensions(), 2);
    Buffer<float, 1> row = fixed.sliced(1, 2);
    EXPECT_EQ(row.dimensions(), 1);
    EXPECT_EQ(&row(3), &typed(3, 2));
    Buffer<float, 3> up = fixed.embedded(2);
    EXPECT_EQ(&up(1, 1, 0), &typed(1, 1));

    Buffer<uint8_t> moved_into = Buffer<>(halide_type_of<uint8_t>(), 5).as<uint8_t>();
    EXPECT_EQ(moved_into.width(), 5);
    Buffer<> temp(halide_type_of<int>(), 3);
    Buffer<int> from_rvalue = std::move(temp).as<int>();
    EXPECT_EQ(from_rvalue.width(), 3);
    EXPECT_EQ(temp.data(), nullptr);
}

TEST(HalideBuffer, MakeInterleavedAndScalar) {
    auto im = Buffer<uint8_t>::make_interleaved(5, 4, 3);
    ASSERT_EQ(im.dimensions(), 3);
    EXPECT_EQ(im.width(), 5);
    EXPECT_EQ(im.height(), 4);
    EXPECT_EQ(im.channels(), 3);
    EXPECT_EQ(im.dim(0).stride(), 3);
    EXPECT_EQ(im.dim(1).stride(), 15);
    EXPECT_EQ(im.dim(2).stride(), 1);
    EXPECT_EQ(&im(2, 1, 2), im.data() + 1 * 15 + 2 * 3 + 2);

    auto v = Buffer<>::make_interleaved(halide_type_of<float>(), 2, 2, 4);
    EXPECT_EQ(v.type(), halide_type_of<float>());
    EXPECT_EQ(v.dim(0).stride(), 4);

    std::vector<uint8_t> storage(6 * 2 * 3);
    auto wrapped = Buffer<uint8_t>::make_interleaved(storage.data(), 6, 2, 3);
    EXPECT_EQ(wrapped.data(), storage.data());
    EXPECT_EQ(&wrapped(1, 1, 1), storage.data() + 18 + 3 + 1);

    auto s = Buffer<double>::make_scalar();
    EXPECT_EQ(s.dimensions(), 0);
    EXPECT_EQ(s.number_of_elements(), size_t(1));
    s() = 2.5;
    EXPECT_EQ(s(), 2.5);
    double x = 7;
    auto ws = Buffer<double>::make_scalar(&x);
    EXPECT_EQ(ws(), 7.0);
    auto vs = Buffer<>::make_scalar(halide_type_of<int8_t>());
    EXPECT_EQ(vs.dimensions(), 0);
    EXPECT_EQ(vs.type(), halide_type_of<int8_t>());
}

// ---------------------------------------------------------------------
// Dirty bits and the device interface
// ---------------------------------------------------------------------

struct FakeDevice {
    int copy_to_host = 0, device_free = 0, device_sync = 0, device_crop = 0, release_crop = 0;
};
FakeDevice g_fake;

int fake_copy_to_host(void *, halide_buffer_t *buf) {
    g_fake.copy_to_host++;
    buf->set_device_dirty(false);
    return 0;
}
int fake_device_free(void *, halide_buffer_t *buf) {
    g_fake.device_free++;
    buf->device = 0;
    buf->device_interface = nullptr;
    return 0;
}
int fake_device_sync(void *, halide_buffer_t *) {
    g_fake.device_sync++;
    return 0;
}
int fake_device_crop(void *, const halide_buffer_t *src, halide_buffer_t *dst) {
    g_fake.device_crop++;
    dst->device = src->device + 1000;
    dst->device_interface = src->device_interface;
    return 0;
}
int fake_release_crop(void *, halide_buffer_t *buf) {
    g_fake.release_crop++;
    buf->device = 0;
    buf->device_interface = nullptr;
    return 0;
}

halide_device_interface_t make_fake_interface() {
    halide_device_interface_t i = {};
    i.copy_to_host = fake_copy_to_host;
    i.device_free = fake_device_free;
    i.device_sync = fake_device_sync;
    i.device_crop = fake_device_crop;
    i.device_release_crop = fake_release_crop;
    return i;
}

TEST(HalideBuffer, HostOnlyDeviceCallsAreNoOps) {
    Buffer<int> b(4, 4);
    EXPECT_FALSE(b.host_dirty());
    b.set_host_dirty();
    EXPECT_TRUE(b.host_dirty());
    EXPECT_TRUE(b.raw_buffer()->flags & halide_buffer_flag_host_dirty);
    b.set_host_dirty(false);
    EXPECT_FALSE(b.host_dirty());
    EXPECT_EQ(b.copy_to_host(), 0);
    EXPECT_EQ(b.device_sync(), 0);
    EXPECT_EQ(b.device_free(), 0);
    EXPECT_EQ(b.copy_to_device(nullptr), halide_error_code_no_device_interface);
    EXPECT_NE(b.data(), nullptr) << "device calls leave host memory alone";

    // device_dirty without any device interface cannot be satisfied.
    b.set_device_dirty();
    EXPECT_TRUE(b.device_dirty());
    EXPECT_EQ(b.copy_to_host(), halide_error_code_no_device_interface);
    b.set_device_dirty(false);
}

TEST(HalideBuffer, DeviceCallsGoThroughTheInterface) {
    g_fake = FakeDevice();
    const halide_device_interface_t iface = make_fake_interface();
    std::vector<float> storage(16);
    halide_dimension_t dims[2] = {{0, 4, 1}, {0, 4, 4}};
    halide_buffer_t raw = {};
    raw.host = reinterpret_cast<uint8_t *>(storage.data());
    raw.type = halide_type_of<float>();
    raw.dimensions = 2;
    raw.dim = dims;
    raw.device = 77;
    raw.device_interface = &iface;
    raw.set_device_dirty();

    {
        Buffer<float> b(raw, BufferDeviceOwnership::Allocated);
        EXPECT_TRUE(b.has_device_allocation());
        EXPECT_EQ(b.device_ownership(), BufferDeviceOwnership::Allocated);
        EXPECT_EQ(b.copy_to_host(), 0);
        EXPECT_EQ(g_fake.copy_to_host, 1);
        EXPECT_FALSE(b.device_dirty());
        EXPECT_EQ(b.copy_to_host(), 0);
        EXPECT_EQ(g_fake.copy_to_host, 1) << "not dirty: nothing to copy";
        EXPECT_EQ(b.device_sync(), 0);
        EXPECT_EQ(g_fake.device_sync, 1);

        {
            // A crop gets its own device view, released when it goes away;
            // the parent's device allocation outlives it.
            Buffer<float> c = b.cropped(0, 1, 2);
            EXPECT_EQ(g_fake.device_crop, 1);
            EXPECT_EQ(c.raw_buffer()->device, uint64_t(1077));
            EXPECT_EQ(c.device_ownership(), BufferDeviceOwnership::Cropped);
            Buffer<float> shared = b;
        }
        EXPECT_EQ(g_fake.release_crop, 1);
        EXPECT_EQ(g_fake.device_free, 0);
    }
    EXPECT_EQ(g_fake.device_free, 1) << "last reference frees an Allocated device buffer";

    g_fake = FakeDevice();
    {
        Buffer<float> unmanaged(raw); // default: Unmanaged
        EXPECT_EQ(unmanaged.device_ownership(), BufferDeviceOwnership::Unmanaged);
    }
    EXPECT_EQ(g_fake.device_free, 0) << "unmanaged device memory is never freed";

    g_fake = FakeDevice();
    {
        Buffer<float> b(raw, BufferDeviceOwnership::Allocated);
        EXPECT_EQ(b.device_free(), 0);
        EXPECT_EQ(g_fake.device_free, 1);
        EXPECT_FALSE(b.has_device_allocation());
    }
    EXPECT_EQ(g_fake.device_free, 1);
}

// ---------------------------------------------------------------------
// Upstream tutorial style: lesson 10 calls an AOT pipeline like this.
// `brighter` stands in for the generated kernel: it takes halide_buffer_t
// pointers and reports errors with the standard codes.
// ---------------------------------------------------------------------

extern "C" int brighter(halide_buffer_t *input, uint8_t offset, halide_buffer_t *output) {
    if (!input || !output) {
        return halide_error_code_buffer_argument_is_null;
    }
    if (input->type != halide_type_of<uint8_t>() || output->type != halide_type_of<uint8_t>()) {
        return halide_error_code_bad_type;
    }
    if (input->dimensions != 2 || output->dimensions != 2) {
        return halide_error_code_bad_dimensions;
    }
    for (int y = output->dim[1].min; y < output->dim[1].min + output->dim[1].extent; y++) {
        for (int x = output->dim[0].min; x < output->dim[0].min + output->dim[0].extent; x++) {
            const int pos[2] = {x, y};
            *output->address_of(pos) = (uint8_t)(*input->address_of(pos) + offset);
        }
    }
    return 0;
}

TEST(HalideBuffer, TutorialStyleSnippetCompilesUnchanged) {
    // ---- as written against upstream's HalideBuffer.h ----
    Halide::Runtime::Buffer<uint8_t> input(640, 480), output(640, 480);

    for (int y = 0; y < input.height(); y++) {
        for (int x = 0; x < input.width(); x++) {
            input(x, y) = x ^ (y + 1);
        }
    }

    int offset = 5;
    int error = brighter(input, offset, output);

    if (error) {
        printf("Halide returned an error: %d\n", error);
    }

    for (int y = 0; y < 480; y++) {
        for (int x = 0; x < 640; x++) {
            uint8_t input_val = input(x, y);
            uint8_t output_val = output(x, y);
            uint8_t correct_val = input_val + offset;
            ASSERT_EQ(output_val, correct_val) << x << "," << y;
        }
    }
    // ---- end of the snippet ----
    EXPECT_EQ(error, 0);

    // More idioms from upstream apps and tests.
    Halide::Runtime::Buffer<float> planar(64, 48, 3);
    planar.for_each_element([&](int x, int y, int c) { planar(x, y, c) = (float)(x + y + c); });
    Halide::Runtime::Buffer<float> roi = planar.cropped(0, 8, 16).cropped(1, 8, 16);
    int count = 0;
    for (int c : roi.dim(2)) {
        for (int y : roi.dim(1)) {
            for (int x : roi.dim(0)) {
                EXPECT_EQ(roi(x, y, c), (float)(x + y + c));
                count++;
            }
        }
    }
    EXPECT_EQ(count, 16 * 16 * 3);
    Halide::Runtime::Buffer<float> red = planar.sliced(2, 0);
    EXPECT_EQ(red.dimensions(), 2);
    Halide::Runtime::Buffer<> generic = planar;
    EXPECT_EQ(generic.type().code, halide_type_float);
    EXPECT_EQ(generic.type().bits, 32);
    planar.copy_to_host();
    planar.device_sync();
    EXPECT_EQ(brighter(Halide::Runtime::Buffer<uint8_t>(4, 4), 1, output.cropped(0, 0, 4).cropped(1, 0, 4)), 0);
    EXPECT_EQ(brighter(input, 1, Halide::Runtime::Buffer<uint8_t>(4, 4, 1)), halide_error_code_bad_dimensions);
}

} // namespace
