// Source compatibility with upstream Halide: this file is written against
// upstream's C++ API (in the style of its tutorials) and is compiled twice,
// against our Halide.h/libhalide and against Debian's Halide 14. Each build
// prints one line per pipeline (its size and a hash of every element);
// compare_outputs.py requires the two outputs to be identical.
#include <cstdint>
#include <cstdio>
#include <sstream>
#include <string>

#include "Halide.h"

using namespace Halide;
using namespace Halide::ConciseCasts;

namespace {

template <typename T> void report(const std::string &name, Buffer<T> b) {
    uint64_t hash = 1469598103934665603ull;
    int w = b.width(), h = b.dimensions() > 1 ? b.height() : 1, c = b.dimensions() > 2 ? b.channels() : 1;
    for (int k = 0; k < c; k++) {
        for (int y = 0; y < h; y++) {
            for (int x = 0; x < w; x++) {
                T v = b.dimensions() > 2 ? b(x, y, k) : (b.dimensions() > 1 ? b(x, y) : b(x));
                hash = (hash ^ (uint64_t)(int64_t)v) * 1099511628211ull;
            }
        }
    }
    std::printf("%s %dx%dx%d %llu\n", name.c_str(), w, h, c, (unsigned long long)hash);
}

// Lesson 1: a gradient.
void gradient() {
    Func gradient;
    Var x, y;
    Expr e = x + y;
    gradient(x, y) = e;
    Buffer<int32_t> output = gradient.realize({800, 600});
    report("gradient", output);
}

// Lesson 2: brighten an image (3 channels) with casts and min.
void brighten() {
    Buffer<uint8_t> input(64, 48, 3);
    for (int c = 0; c < 3; c++) {
        for (int y = 0; y < 48; y++) {
            for (int x = 0; x < 64; x++) {
                input(x, y, c) = (uint8_t)((x * 5 + y * 3 + c * 70) % 256);
            }
        }
    }
    Func brighter;
    Var x, y, c;
    Expr value = input(x, y, c);
    value = Halide::cast<float>(value);
    value = value * 1.5f;
    value = Halide::min(value, 255.0f);
    value = Halide::cast<uint8_t>(value);
    brighter(x, y, c) = value;
    Buffer<uint8_t> output = brighter.realize({input.width(), input.height(), input.channels()});
    report("brighten", output);
}

// Lesson 5: the same Func under many schedules gives the same values.
void schedules() {
    Var x("x"), y("y"), x_outer, x_inner, y_outer, y_inner, tile_index, fused;
    for (int which = 0; which < 7; which++) {
        Func gradient("gradient_" + std::to_string(which));
        gradient(x, y) = x * 3 + y * 7 - (x * y) % 11;
        switch (which) {
        case 0: gradient.reorder(y, x); break;
        case 1: gradient.split(x, x_outer, x_inner, 2); break;
        case 2: gradient.fuse(x, y, fused); break;
        case 3: gradient.tile(x, y, x_outer, y_outer, x_inner, y_inner, 4, 4); break;
        case 4: gradient.vectorize(x, 4); break;
        case 5: gradient.split(x, x_outer, x_inner, 2).unroll(x_inner); break;
        default:
            gradient.tile(x, y, x_outer, y_outer, x_inner, y_inner, 8, 8)
                .fuse(x_outer, y_outer, tile_index)
                .parallel(tile_index)
                .vectorize(x_inner, 4);
            break;
        }
        Buffer<int32_t> output = gradient.realize({35, 21});
        report("schedule_" + std::to_string(which), output);
    }
}

// Lessons 7 and 8: a two-stage blur with a clamped edge, producer
// scheduled inline, at the root, at a loop, and stored at the root.
void multi_stage() {
    ImageParam input(UInt(16), 2);
    Buffer<uint16_t> in(71, 53);
    for (int y = 0; y < 53; y++) {
        for (int x = 0; x < 71; x++) {
            in(x, y) = (uint16_t)((x * 131 + y * 71) % 4096);
        }
    }
    input.set(in);
    Var x("x"), y("y"), xi("xi"), yi("yi");
    for (int which = 0; which < 4; which++) {
        Func clamped, blur_x, blur_y;
        clamped(x, y) = input(clamp(x, 0, input.dim(0).extent() - 1), clamp(y, 0, input.dim(1).extent() - 1));
        blur_x(x, y) = (clamped(x - 1, y) + clamped(x, y) * 2 + clamped(x + 1, y)) / 4;
        blur_y(x, y) = (blur_x(x, y - 1) + blur_x(x, y) * 2 + blur_x(x, y + 1)) / 4;
        switch (which) {
        case 0: break;
        case 1: blur_x.compute_root(); break;
        case 2:
            blur_y.tile(x, y, xi, yi, 16, 8).vectorize(xi, 8).parallel(y);
            blur_x.compute_at(blur_y, x).vectorize(x, 8);
            break;
        default: blur_x.store_root().compute_at(blur_y, y); break;
        }
        Buffer<uint16_t> output = blur_y.realize({71, 53});
        report("multi_stage_" + std::to_string(which), output);
    }
}

// Params, operators and the concise casts.
void params_and_operators() {
    Param<int32_t> offset;
    Param<float> gain;
    offset.set(-37);
    gain.set(2.75f);
    Var x, y;
    Func f, g, h;
    f(x, y) = (x * 13 - y * 29 + offset) / 7 + (x - y * 5 + offset) % 9;
    g(x, y) = Halide::cast<int32_t>(u8_sat(Halide::cast<float>(x * 9 - y * 4) * gain)) +
              Halide::cast<int32_t>(absd(x, y * 2)) + Halide::cast<int32_t>(abs(x - 20));
    h(x, y) = select(
        x < y,
        lerp(Halide::cast<uint8_t>(x * 7), Halide::cast<uint8_t>(255 - y * 3), Halide::cast<uint8_t>(x * y % 256)),
        mux(x % 3, {Halide::cast<uint8_t>(y), Halide::cast<uint8_t>(x), Halide::cast<uint8_t>(x + y)}));
    report("int_div_mod", Buffer<int32_t>(f.realize({40, 30})));
    report("sat_absd_abs", Buffer<int32_t>(g.realize({40, 30})));
    report("select_lerp_mux", Buffer<uint8_t>(h.realize({40, 30})));
}

} // namespace

// Type's interface: accessors are methods, bounds are Exprs.
void types() {
    Type t = Int(16);
    Type u = UInt(8);
    std::printf("types %d %d %d %d %d %d %d\n", t.bits(), (int)t.code(), t.lanes(), t.bytes(), t.with_bits(32).bits(),
                t.with_lanes(8).lanes(), t.with_lanes(8).element_of().lanes());
    std::printf("type predicates %d%d%d%d%d%d%d%d %d\n", t.is_int(), t.is_uint(), t.is_float(), t.is_bool(),
                t.is_vector(), t.is_scalar(), t.is_handle(), Bool().is_bool(),
                (int)(t.with_code(Type::UInt) == UInt(16)));
    std::printf("type ranges %d%d%d%d%d%d%d%d\n", t.can_represent(u), u.can_represent(t),
                t.can_represent((int64_t)40000), u.can_represent((uint64_t)255), Float(32).can_represent(0.5),
                t.is_max((int64_t)32767), t.is_min((int64_t)-32768), u.is_max((uint64_t)255));
    std::printf("type_of %d%d\n", (int)(type_of<uint8_t>() == u), (int)(type_of<float>() == Float(32)));
    Func f;
    Var x;
    f(x) = cast<int32_t>(t.max()) - cast<int32_t>(t.min()) + cast<int32_t>(u.max()) + x;
    Buffer<int32_t> out = f.realize({4});
    report("type_bounds", out);
}

// One value of a Tuple updated alone (f(x)[i] = ..., +=, *=), and an Expr
// printed with operator<< (Halide.h alone declares it, as upstream's).
void tuple_elements() {
    Var x("x");
    Func f("f");
    f(x) = Tuple(x, x * 2);
    f(x)[0] = f(x)[0] + 10;
    f(x)[1] += 5;
    f(x)[1] *= f(x)[0];
    RDom r(0, 4);
    f(r * 3)[0] = cast<int>(f(r * 3)[1]) - 1;
    Realization out = f.realize({16});
    report("tuple_element_0", Buffer<int32_t>(out[0]));
    report("tuple_element_1", Buffer<int32_t>(out[1]));
    std::ostringstream text;
    text << (x + 1);
    std::printf("expr_printed %d\n", (int)(text.str().find('x') != std::string::npos));
}

// Directives that shape regions and storage or only annotate: the values
// stay those of the plain schedule.
void region_directives() {
    Var x("x"), y("y");
    Func g("g"), h("h"), k("k"), out("out");
    g(x, y) = x * 3 + y;
    h(x, y) = g(x, y) + g(x + 2, y);
    k(x, y) = h(x, y);
    out(x, y) = k(x, y) * 2 + h(x + 1, y);
    g.compute_root().align_storage(x, 16).align_extent(x, 4);
    h.compute_root().bound_extent(x, 40);
    k.compute_root().copy_to_host();
    out.prefetch(g, y, y, 1, PrefetchBoundStrategy::NonFaulting);
    Tuple values = out.values();
    std::printf("values %d\n", (int)values.size());
    report("region_directives", Buffer<int32_t>(out.realize({31, 5})));
}

int main() {
    gradient();
    brighten();
    schedules();
    multi_stage();
    params_and_operators();
    types();
    tuple_elements();
    region_directives();
    return 0;
}
