// Tracing through halide_trace: a custom trace handler (JITHandlers::
// custom_trace) sees every event with upstream's fields and parent ids, and
// the default handler prints upstream's lines. The expected events are
// written out in plain C++ from the pipeline's definition (and agree with
// what upstream Halide 21 reports for the same pipeline).
#include <gtest/gtest.h>

#include <mutex>
#include <string>
#include <vector>

#include "Halide.h"

using namespace Halide;

namespace {

struct Event {
    int id = 0;
    int event = 0;
    std::string func;
    int parent = 0;
    int value_index = 0;
    std::string tag;
    int code = 0, bits = 0, lanes = 0;
    std::vector<int> coords;
    std::vector<float> values;
    bool has_coords = false, has_value = false;

    bool operator==(const Event &o) const {
        return id == o.id && event == o.event && func == o.func && parent == o.parent && value_index == o.value_index &&
               tag == o.tag && code == o.code && bits == o.bits && lanes == o.lanes && coords == o.coords &&
               values == o.values && has_coords == o.has_coords && has_value == o.has_value;
    }
};

std::ostream &operator<<(std::ostream &os, const Event &e) {
    os << "{id " << e.id << ", event " << e.event << ", " << e.func << "." << e.value_index << ", parent " << e.parent
       << ", tag '" << e.tag << "', type " << e.code << "/" << e.bits << "/" << e.lanes << ", coords";
    for (int c : e.coords) {
        os << " " << c;
    }
    os << (e.has_coords ? "" : " (null)") << ", values";
    for (float v : e.values) {
        os << " " << v;
    }
    return os << (e.has_value ? "" : " (null)") << "}";
}

std::mutex recorded_mutex;
std::vector<Event> recorded;
int next_id = 1000;

int32_t record(JITUserContext *context, const halide_trace_event_t *e) {
    EXPECT_NE(context, nullptr);
    std::lock_guard<std::mutex> lock(recorded_mutex);
    Event r;
    r.id = next_id++;
    r.event = e->event;
    r.func = e->func;
    r.parent = e->parent_id;
    r.value_index = e->value_index;
    r.tag = e->trace_tag ? e->trace_tag : "(null)";
    r.code = e->type.code;
    r.bits = e->type.bits;
    r.lanes = e->type.lanes;
    r.has_coords = e->coordinates != nullptr;
    if (e->coordinates) {
        r.coords.assign(e->coordinates, e->coordinates + e->dimensions);
    }
    r.has_value = e->value != nullptr;
    if (e->value) {
        const float *v = (const float *)e->value;
        r.values.assign(v, v + e->type.lanes);
    }
    recorded.push_back(r);
    return r.id;
}

// The expected sequence, numbered as `record` numbers the events.
struct Expected {
    std::vector<Event> events;
    int add(int event, const std::string &func, int parent, std::vector<int> coords = {}, bool has_coords = false,
            const std::string &tag = "") {
        Event e;
        e.id = 1000 + (int)events.size();
        e.event = event;
        e.func = func;
        e.parent = parent;
        e.tag = tag;
        e.code = halide_type_handle; // events without a value: handle, 0 bits, 0 lanes
        e.coords = std::move(coords);
        e.has_coords = has_coords || !e.coords.empty();
        events.push_back(e);
        return e.id;
    }
    int access(int event, const std::string &func, int parent, std::vector<int> coords, std::vector<float> values) {
        Event e;
        e.id = 1000 + (int)events.size();
        e.event = event;
        e.func = func;
        e.parent = parent;
        e.code = halide_type_float;
        e.bits = 32;
        e.lanes = (int)values.size();
        e.coords = std::move(coords);
        e.has_coords = true;
        e.values = std::move(values);
        e.has_value = true;
        events.push_back(e);
        return e.id;
    }
};

void expect_events(const std::vector<Event> &expected) {
    ASSERT_EQ(recorded.size(), expected.size());
    for (size_t i = 0; i < expected.size(); i++) {
        EXPECT_EQ(recorded[i], expected[i]) << "event " << i;
    }
}

// f(x, y) = x + y (float, computed at root, every event traced), g(x, y) =
// 2 f(x, y) + 1 (stores and realizations), g realized over x in [1, 4],
// y in [3, 4].
void define(Func &f, Func &g) {
    Var x("x"), y("y");
    f(x, y) = cast<float>(x + y);
    g(x, y) = f(x, y) * 2 + 1;
    f.compute_root().trace_stores().trace_loads().trace_realizations();
    g.trace_stores().trace_realizations();
}

// With `lanes` > 1 (f and g vectorized over x by `lanes`), each row's
// loads and stores are events of whole vectors: the lanes' x coordinates,
// then their y, and the lanes' values.
std::vector<Event> reference(bool tags, int lanes = 1) {
    const std::vector<int> box = {1, 4, 3, 2}; // min, extent per dimension
    Expected ex;
    int p = ex.add(halide_trace_begin_pipeline, "g", 0);
    ex.add(halide_trace_tag, "f", p, {}, false, "func_type_and_dim: 1 2 32 1 2 1 4 3 2");
    ex.add(halide_trace_tag, "g", p, {}, false, "func_type_and_dim: 1 2 32 1 2 1 4 3 2");
    if (tags) { // outputs first, then the other realizations outermost first
        ex.add(halide_trace_tag, "g", p, {}, false, "third");
        ex.add(halide_trace_tag, "f", p, {}, false, "first");
        ex.add(halide_trace_tag, "f", p, {}, false, "second");
    }
    int rg = ex.add(halide_trace_begin_realization, "g", p, box);
    int rf = ex.add(halide_trace_begin_realization, "f", p, box);
    int pf = ex.add(halide_trace_produce, "f", rf, box);
    // The coordinates and values of the `lanes` points from (x, y) on.
    auto at = [&](int x, int y) {
        std::vector<int> c;
        for (int i = 0; i < lanes; i++) {
            c.push_back(x + i);
        }
        for (int i = 0; i < lanes; i++) {
            c.push_back(y);
        }
        return c;
    };
    auto values = [&](int x, int y, float scale, float offset) {
        std::vector<float> v;
        for (int i = 0; i < lanes; i++) {
            v.push_back(scale * (float)(x + i + y) + offset);
        }
        return v;
    };
    for (int y = 3; y <= 4; y++) {
        for (int x = 1; x <= 4; x += lanes) {
            ex.access(halide_trace_store, "f", pf, at(x, y), values(x, y, 1, 0));
        }
    }
    ex.add(halide_trace_end_produce, "f", pf, box);
    int cf = ex.add(halide_trace_consume, "f", rf, box);
    int pg = ex.add(halide_trace_produce, "g", rg, box);
    for (int y = 3; y <= 4; y++) {
        for (int x = 1; x <= 4; x += lanes) {
            ex.access(halide_trace_load, "f", cf, at(x, y), values(x, y, 1, 0));
            ex.access(halide_trace_store, "g", pg, at(x, y), values(x, y, 2, 1));
        }
    }
    ex.add(halide_trace_end_produce, "g", pg, box);
    ex.add(halide_trace_end_consume, "f", cf, box);
    ex.add(halide_trace_end_realization, "f", rf, box);
    ex.add(halide_trace_end_realization, "g", rg, box);
    ex.add(halide_trace_end_pipeline, "g", p);
    return ex.events;
}

void run(Func &g) {
    recorded.clear();
    next_id = 1000;
    g.jit_handlers().custom_trace = record;
    Buffer<float> out(4, 2);
    out.raw_buffer()->dim[0].min = 1;
    out.raw_buffer()->dim[1].min = 3;
    g.realize(out);
    for (int y = 3; y <= 4; y++) {
        for (int x = 1; x <= 4; x++) {
            EXPECT_EQ(out(x, y), 2.0f * (float)(x + y) + 1);
        }
    }
}

} // namespace

TEST(Trace, CustomHandlerSeesEveryEventWithItsParent) {
    Func f("f"), g("g");
    define(f, g);
    run(g);
    expect_events(reference(false));
}

TEST(Trace, VectorizedAccessesAreVectorEvents) {
    Func f("f"), g("g");
    define(f, g);
    Var x("x");
    f.vectorize(x, 4);
    g.vectorize(x, 4);
    run(g);
    expect_events(reference(false, 4));
}

TEST(Trace, TraceTagsFollowTheTypeTags) {
    Func f("f"), g("g");
    define(f, g);
    f.add_trace_tag("first").add_trace_tag("second");
    g.add_trace_tag("third");
    run(g);
    expect_events(reference(true));
}

TEST(Trace, LoadsAndStoresWithoutRealizationsHaveParentZero) {
    Var x("x");
    Func h("h");
    h(x) = Tuple(cast<float>(x) * 0.5f, cast<float>(x) + 10);
    h.trace_stores();
    recorded.clear();
    next_id = 1000;
    h.jit_handlers().custom_trace = record;
    h.realize({3});
    Expected ex;
    int p = ex.add(halide_trace_begin_pipeline, "h", 0);
    ex.add(halide_trace_tag, "h", p, {}, false, "func_type_and_dim: 2 2 32 1 2 32 1 1 0 3");
    for (int i = 0; i < 3; i++) {
        ex.access(halide_trace_store, "h", 0, {i}, {(float)i * 0.5f});
        ex.events.back().value_index = 0;
        ex.access(halide_trace_store, "h", 0, {i}, {(float)i + 10});
        ex.events.back().value_index = 1;
    }
    ex.add(halide_trace_end_pipeline, "h", p);
    expect_events(ex.events);
}

TEST(Trace, ParallelStoresAllReachTheHandler) {
    Var x("x"), y("y");
    Func h("ph");
    h(x, y) = cast<float>(x * 10 + y);
    h.trace_stores().parallel(y);
    recorded.clear();
    next_id = 1000;
    h.jit_handlers().custom_trace = record;
    h.realize({5, 6});
    ASSERT_EQ(recorded.size(), 2u + 1u + 30u);
    std::vector<int> seen(30, 0);
    for (const Event &e : recorded) {
        if (e.event == halide_trace_store) {
            ASSERT_EQ(e.coords.size(), 2u);
            EXPECT_EQ(e.values.at(0), (float)(e.coords[0] * 10 + e.coords[1]));
            seen.at(e.coords[1] * 5 + e.coords[0])++;
        }
    }
    for (int s : seen) {
        EXPECT_EQ(s, 1);
    }
}

TEST(Trace, OtherJITHandlersAreRefused) {
    Var x("x");
    Func h("refused");
    h(x) = x;
    h.jit_handlers().custom_load_library = [](const char *) -> void * { return nullptr; };
    try {
        h.realize({2});
        FAIL() << "expected a CompileError";
    } catch (const CompileError &e) {
        EXPECT_NE(std::string(e.what()).find(
                      "custom_get_symbol/custom_load_library/custom_get_library_symbol is not supported"),
                  std::string::npos)
            << e.what();
    }
}

namespace {
std::string printed;
void capture_print(void *, const char *line) {
    printed += line;
}
} // namespace

TEST(Trace, DefaultHandlerPrintsUpstreamLines) {
    Var x("x"), y("y");
    Func f("f"), g("g");
    f(x, y) = cast<float>(x + y) / 4;
    g(x, y) = cast<uint8_t>(f(x, y) * 8);
    f.compute_root().trace_stores().trace_loads().trace_realizations();
    g.trace_stores();
    printed.clear();
    halide_print_t old = halide_set_custom_print(capture_print);
    g.realize({2, 1});
    halide_set_custom_print(old);
    // Written out from upstream's format (Halide 21 prints these lines).
    EXPECT_EQ(printed, "Begin pipeline g.0()\n"
                       "Tag f.0() tag = \"func_type_and_dim: 1 2 32 1 2 0 2 0 1\"\n"
                       "Tag g.0() tag = \"func_type_and_dim: 1 1 8 1 2 0 2 0 1\"\n"
                       "Begin realization f.0(0, 2, 0, 1)\n"
                       "Produce f.0(0, 2, 0, 1)\n"
                       "Store f.0(0, 0) = 0.000000\n"
                       "Store f.0(1, 0) = 0.250000\n"
                       "End produce f.0(0, 2, 0, 1)\n"
                       "Consume f.0(0, 2, 0, 1)\n"
                       "Load f.0(0, 0) = 0.000000\n"
                       "Store g.0(0, 0) = 0\n"
                       "Load f.0(1, 0) = 0.250000\n"
                       "Store g.0(1, 0) = 2\n"
                       "End consume f.0(0, 2, 0, 1)\n"
                       "End realization f.0(0, 2, 0, 1)\n"
                       "End pipeline g.0()\n");
}

// ImageParam::trace_loads: each load of the buffer is an event named after
// the ImageParam, parented to the pipeline, after a "func_type_and_dim" tag
// of the region read and the add_trace_tag tags (as upstream Halide 21
// reports them: traced images' tags before the Funcs', their own tags
// after the Funcs').
TEST(Trace, ImageParamLoadsAndTags) {
    ImageParam im(Float(32), 2, "im_traced");
    ImageParam quiet(Float(32), 1, "im_quiet");
    Func a("a_traced"), out("out_traced");
    Var x("x");
    a(x) = im(x, 1) + quiet(x);
    out(x) = a(x) * 2;
    a.compute_root().trace_realizations().add_trace_tag("a tag");
    im.trace_loads();
    im.add_trace_tag("hello").add_trace_tag("world");
    quiet.add_trace_tag("never shown"); // not traced: no tag
    Buffer<float> b(3, 3), q(3);
    for (int i = 0; i < 3; i++) {
        q(i) = 0;
        for (int j = 0; j < 3; j++) {
            b(i, j) = (float)(10 * j + i);
        }
    }
    im.set(b);
    quiet.set(q);

    recorded.clear();
    next_id = 1000;
    out.jit_handlers().custom_trace = record;
    Buffer<float> result = out.realize({3});
    for (int i = 0; i < 3; i++) {
        EXPECT_EQ(result(i), 2.0f * (10 + i));
    }

    Expected ex;
    const std::vector<int> box = {0, 3};
    int p = ex.add(halide_trace_begin_pipeline, "out_traced", 0);
    ex.add(halide_trace_tag, "im_traced", p, {}, false, "func_type_and_dim: 1 2 32 1 2 0 3 1 1");
    ex.add(halide_trace_tag, "a_traced", p, {}, false, "func_type_and_dim: 1 2 32 1 1 0 3");
    ex.add(halide_trace_tag, "a_traced", p, {}, false, "a tag");
    ex.add(halide_trace_tag, "im_traced", p, {}, false, "hello");
    ex.add(halide_trace_tag, "im_traced", p, {}, false, "world");
    int ra = ex.add(halide_trace_begin_realization, "a_traced", p, box);
    int pa = ex.add(halide_trace_produce, "a_traced", ra, box);
    ex.access(halide_trace_load, "im_traced", p, {0, 1}, {10});
    ex.access(halide_trace_load, "im_traced", p, {1, 1}, {11});
    ex.access(halide_trace_load, "im_traced", p, {2, 1}, {12});
    ex.add(halide_trace_end_produce, "a_traced", pa, box);
    int ca = ex.add(halide_trace_consume, "a_traced", ra, box);
    ex.add(halide_trace_end_consume, "a_traced", ca, box);
    ex.add(halide_trace_end_realization, "a_traced", ra, box);
    ex.add(halide_trace_end_pipeline, "out_traced", p);
    expect_events(ex.events);
}
