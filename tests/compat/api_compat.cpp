// Source compatibility with upstream Halide: this file is written against
// upstream's C++ API (in the style of its tutorials) and is compiled twice,
// against our Halide.h/libhalide and against Debian's Halide 14. Each build
// prints one line per pipeline (its size and a hash of every element);
// compare_outputs.py requires the two outputs to be identical.
#include <cstdint>
#include <cstdio>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

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

// A lowering pass in upstream's style: mutate() overridden, nodes returned
// as Exprs (`return op;`), and a visitor walking the Module's statement
// through accept() that finds `produce f` inside `produce g`.
class QuarterToOneAndAQuarter : public Internal::IRMutator {
public:
    using Internal::IRMutator::mutate;
    using Internal::IRMutator::visit;
    Expr mutate(const Expr &e) override {
        seen_expr = true;
        return Internal::IRMutator::mutate(e);
    }
    Internal::Stmt mutate(const Internal::Stmt &s) override {
        seen_stmt = true;
        return Internal::IRMutator::mutate(s);
    }
    Expr visit(const Internal::FloatImm *op) override {
        if (op->value == 0.25) {
            return Internal::FloatImm::make(op->type, 1.25);
        }
        return op;
    }
    bool seen_expr = false, seen_stmt = false;
};

class ProducerNesting : public Internal::IRVisitor {
public:
    using Internal::IRVisitor::visit;
    void visit(const Internal::ProducerConsumer *op) override {
        if (op->is_producer && op->name == "nest_f") {
            f_inside_g = f_inside_g || inside_g;
        }
        bool was = inside_g;
        if (op->is_producer && op->name == "nest_g") {
            inside_g = true;
        }
        Internal::Stmt body(op->body.get());
        body.accept(this);
        inside_g = was;
    }
    bool inside_g = false, f_inside_g = false;
};

void lowering_api() {
    Var x("x");
    Func q("quarter");
    q(x) = cast<float>(x) + 0.25f;
    Pipeline p(q);
    auto *pass = new QuarterToOneAndAQuarter;
    p.add_custom_lowering_pass(pass);
    Buffer<float> out = p.realize({8});
    std::printf("mutate_overridden %d %d\n", (int)pass->seen_expr, (int)pass->seen_stmt);
    Buffer<int32_t> as_int(8);
    for (int i = 0; i < 8; i++) {
        as_int(i) = (int32_t)(out(i) * 4);
    }
    report("custom_pass_values", as_int);

    Func f("nest_f"), g("nest_g");
    f(x) = x * 2;
    g(x) = f(x) + 1;
    f.compute_at(g, x);
    Module m = g.compile_to_module(g.infer_arguments());
    const Internal::LoweredFunc &fn = m.functions().front();
    ProducerNesting nesting;
    fn.body.accept(&nesting);
    std::printf("lowered_func %s f_inside_g %d\n", fn.name.c_str(), (int)nesting.f_inside_g);

    Internal::Stmt atomic = Internal::Atomic::make("f", "", Internal::Evaluate::make(0));
    Expr text = std::string("text");
    std::printf("mutex_name_empty %d string_expr_is_handle %d\n",
                (int)atomic.as<Internal::Atomic>()->mutex_name.empty(), (int)text.type().is_handle());
}

float compat_twice(float v) {
    return v * 2;
}
HalideExtern_1(float, compat_extern_twice, float);

// Front-end signatures: definitions return their Stage, a Tuple from a
// call, crops, a Buffer as an argument, JIT externs.
void frontend_signatures() {
    Var x("x");
    Func f("stage_f");
    (f(x) = x * 3).vectorize(x, 4);
    (f(x) += 1).unroll(x, 2);
    report("definition_stages", Buffer<int32_t>(f.realize({16})));

    Func pair("pair"), copy("pair_copy");
    pair(x) = Tuple(x, x * 7);
    Tuple t = pair(x);
    copy(x) = t;
    Realization r = copy.realize({9});
    report("tuple_from_call", Buffer<int32_t>(r[1]));

    Buffer<int32_t> b(12, 6);
    b.for_each_element([&](int xx, int yy) { b(xx, yy) = xx * 13 + yy; });
    b.crop(1, 2, 3);
    b.crop(0, 3, 4);
    std::printf("crops %d %d %d %d %d\n", b.min(0), b.extent(0), b(4, 3), b.min(1), b.extent(1));

    Buffer<uint8_t> in(16);
    Func reads("reads_buffer");
    reads(x) = in(x) + 1;
    std::string path = "/tmp/api_compat_" + std::to_string((long)getpid()) + ".s";
    reads.compile_to_assembly(path, {in}, "reads_buffer", get_jit_target_from_environment());
    FILE *asm_file = std::fopen(path.c_str(), "r");
    std::printf("assembly_written %d\n", (int)(asm_file != nullptr));
    if (asm_file) {
        std::fclose(asm_file);
        std::remove(path.c_str());
    }

    Func e("extern_user");
    e(x) = compat_extern_twice(cast<float>(x));
    Pipeline p(e);
    p.set_jit_externs({{"compat_extern_twice", JITExtern(compat_twice)}});
    Buffer<float> twice = p.realize({8});
    Buffer<int32_t> twice_int(8);
    for (int i = 0; i < 8; i++) {
        twice_int(i) = (int32_t)twice(i);
    }
    report("jit_externs", twice_int);
}

// A boundary condition over a Region built from Range(min, extent).
void boundary_region() {
    Buffer<int32_t> in(8, 6);
    for (int y = 0; y < 6; y++) {
        for (int x = 0; x < 8; x++) {
            in(x, y) = x * 10 + y;
        }
    }
    Region r;
    r.push_back(Range(1, 5));
    r.push_back(Range(Expr(0), Expr(6)));
    Func clamped = BoundaryConditions::repeat_edge(in, r);
    Var x("x"), y("y");
    Func out("out");
    out(x, y) = clamped(x - 2, y + 1);
    report("boundary_region", Buffer<int32_t>(out.realize({12, 6})));
}

// Target queries a runtime-sharing build system makes.
void target_queries() {
    Target a("x86-64-linux-avx-avx2-sse41-debug"), b("x86-64-linux-sse41-debug-cuda-cuda_capability_50");
    Target shared("x86-64-linux");
    bool ok = a.get_runtime_compatible_target(b, shared);
    std::printf("runtime_compatible %d %s cuda>=%d exceptions %d\n", (int)ok, shared.to_string().c_str(),
                shared.get_cuda_capability_lower_bound(), (int)exceptions_enabled());
    Target c("x86-64-linux-sse41");
    ok = a.get_runtime_compatible_target(c, shared);
    std::printf("runtime_compatible %d %s\n", (int)ok, shared.to_string().c_str());
}

// A Generator used directly, as upstream's tests do: created with a
// context, a GeneratorParam set, apply() to a Buffer and a number, and the
// Output used as a Func; its Input<Buffer> has its Buffer's shape.
class ApplyBlend : public Generator<ApplyBlend> {
public:
    GeneratorParam<int> bias{"bias", 0};
    Input<Buffer<uint8_t>> input{"input", 2};
    Input<float> weight{"weight"};
    Output<Buffer<int32_t>> output{"output", 2};
    void generate() {
        output(x, y) = cast<int32_t>(input(x, y) * weight) + bias + input.width() * 1000 + input.height();
    }

private:
    Var x, y;
};

void generator_apply() {
    Buffer<uint8_t> in(7, 5);
    for (int y = 0; y < 5; y++) {
        for (int x = 0; x < 7; x++) {
            in(x, y) = (uint8_t)(x * 9 + y * 4);
        }
    }
    auto gen = ApplyBlend::create(GeneratorContext(get_host_target()));
    gen->bias.set(3);
    gen->apply(in, 0.75f);
    Func twice;
    Var x, y;
    twice(x, y) = Func(gen->output)(x, y) * 2;
    report("generator_apply", Buffer<int32_t>(twice.realize({7, 5})));
}

// Stage::get_schedule: a stage's splits and loops (innermost first), with
// an RVar's own name (upstream's unique one) printed as "R".
void schedule_view() {
    Var x("x"), y("y"), xo("xo"), xi("xi"), yo("yo"), yi("yi"), t("t"), z("z");
    Func g("g"), f("f");
    g(x, y) = x + y;
    g.compute_root().tile(x, y, xo, yo, xi, yi, 8, 4).fuse(xo, yo, t).rename(yi, z).parallel(t).vectorize(xi);
    RDom r(0, 10, 0, 3, "r");
    f(x) = 0;
    f(x) += g(r.x, r.y) + x;
    RVar ro("ro"), ri("ri");
    f.update(0).split(r.x, ro, ri, 2).reorder(x, ri, ro, r.y).parallel(x);
    auto plain = [&](std::string n) {
        for (const std::string &v : {r.x.name(), r.y.name()}) {
            for (size_t at = n.find(v); at != std::string::npos; at = n.find(v)) {
                n.replace(at, v.size(), v == r.x.name() ? "RX" : "RY");
            }
        }
        return n;
    };
    for (const Stage &stage : {Stage(g), f.update(0)}) {
        const Internal::StageSchedule &s = stage.get_schedule();
        for (const Internal::Split &sp : s.splits()) {
            std::printf("split %d %s %s %s\n", (int)sp.split_type, plain(sp.old_var).c_str(), plain(sp.outer).c_str(),
                        plain(sp.inner).c_str());
        }
        for (const Internal::Dim &d : s.dims()) {
            std::printf("dim %s %d rvar=%d pure=%d\n", plain(d.var).c_str(), (int)d.for_type, (int)d.is_rvar(),
                        (int)d.is_pure());
        }
        std::printf("rvars %d race %d\n", (int)s.rvars().size(), (int)s.allow_race_conditions());
    }
    report("schedule_view", Buffer<int32_t>(f.realize({6})));
}

// Internal::Interval's set operations and Internal::ThreadPool, which
// upstream's own tests use through Halide.h.
void internal_helpers() {
    using Internal::Interval;
    auto show = [](const char *what, const Interval &i) {
        std::ostringstream text;
        text << what << " [" << i.min << ", " << i.max << "] empty=" << i.is_empty() << " bounded=" << i.is_bounded();
        std::printf("%s\n", text.str().c_str());
    };
    Expr x = Internal::Variable::make(Int(32), "x");
    show("union", Interval::make_union(Interval(3, 4), Interval(9, 10)));
    show("intersection", Interval::make_intersection(Interval(3, 9), Interval(4, 10)));
    show("half_open", Interval::make_intersection(Interval(x, Interval::pos_inf()), Interval(Interval::neg_inf(), x)));
    Interval none = Interval::make_intersection(Interval::nothing(), Interval::everything());
    std::printf("nothing empty=%d markers=%d\n", (int)none.is_empty(),
                (int)(none.min.same_as(Interval::pos_inf()) && none.max.same_as(Interval::neg_inf())));
    Internal::ThreadPool<int> pool(2);
    std::vector<std::future<int>> parts;
    for (int i = 1; i <= 8; i++) {
        parts.push_back(pool.async([](int v) { return v * v; }, i));
    }
    int total = 0;
    for (auto &p : parts) {
        total += p.get();
    }
    std::printf("thread_pool %d\n", total);
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
    lowering_api();
    frontend_signatures();
    boundary_region();
    target_queries();
    generator_apply();
    schedule_view();
    internal_helpers();
    return 0;
}
