// See Passes.h: Func::trace_loads/trace_stores/trace_realizations (and the
// trace_* target features) as calls of the runtime's halide_trace, one per
// event, with upstream's event tree: the id an event returns is the parent
// of the events nested in it.
//   pipeline.trace_id = begin_pipeline(parent 0)
//     tag f (parent pipeline)                 "func_type_and_dim: ...", then
//                                             the Func's add_trace_tag texts
//     f.trace_id = begin_realization f(min, extent, ...) (parent pipeline)
//       f.trace_id = produce f(...)  { store f ... ; end_produce f }
//       f.trace_id = consume f(...)  { load f ... ; end_consume f }
//       end_realization f
//     end_pipeline
// The name f.trace_id is rebound by produce and consume, so a store's or
// load's parent is the innermost of them. Loads and stores of a Func whose
// realizations are not traced have parent 0. Events are "trace_event"
// intrinsics (their id), loads and stores "trace_value" (their value); see
// the argument layout below. In a vectorized loop a load or store is one
// event of the whole vector (VectorizeLoops.cpp widens trace_value), with
// the coordinates of every lane, as upstream reports it.
#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "Halide/IRMutator.h"
#include "Halide/IROperator.h"
#include "Halide/IRVisitor.h"
#include "Halide/Simplify.h"
#include "HalideRuntime.h"
#include "analysis/Interval.h"
#include "lower/Passes.h"

namespace Halide {
namespace Internal {
namespace {

// The intrinsics' arguments:
//   trace_event(func, event, parent_id, value_index, n, tag_part x n, coordinate...)  -> Int(32) id
//   trace_value(value, func, event, parent_id, value_index, 0, coordinate...)          -> value
// Tag parts (strings and integers) are concatenated at run time.
Expr trace_event(const std::string &func, halide_trace_event_code_t event, Expr parent, const std::vector<Expr> &coords,
                 const std::vector<Expr> &tag = {}) {
    std::vector<Expr> args = {StringImm::make(func), int32_const((int)event), std::move(parent), int32_const(0),
                              int32_const((int)tag.size())};
    args.insert(args.end(), tag.begin(), tag.end());
    args.insert(args.end(), coords.begin(), coords.end());
    return Call::make(Int(32), "trace_event", args, Call::Intrinsic);
}

Stmt trace_stmt(const std::string &func, halide_trace_event_code_t event, Expr parent, const std::vector<Expr> &coords,
                const std::vector<Expr> &tag = {}) {
    return Evaluate::make(trace_event(func, event, std::move(parent), coords, tag));
}

Expr trace_id(const std::string &func) {
    return Variable::make(Int(32), func + ".trace_id");
}

std::vector<Expr> ranges(const std::vector<Range> &bounds) {
    std::vector<Expr> coords;
    for (const Range &r : bounds) {
        coords.push_back(r.min);
        coords.push_back(r.extent);
    }
    return coords;
}

bool contains_provide_to(const Stmt &s, const std::string &name) {
    struct Finder : IRVisitor {
        const std::string &name;
        bool found = false;
        explicit Finder(const std::string &n) : name(n) {}
        using IRVisitor::visit;
        void visit(const Provide *op) override {
            found = found || op->name == name;
            IRVisitor::visit(op);
        }
    } finder(name);
    finder.include(s);
    return finder.found;
}

// Whether s only computes f: its stages' loops (named f.s<k>.<var>) or
// Provides, under lets, asserts and specialization branches.
bool is_production(const Stmt &s, const std::string &f) {
    if (const LetStmt *let = s.as<LetStmt>()) {
        return is_production(let->body, f);
    }
    if (const For *loop = s.as<For>()) {
        return loop->name.compare(0, f.size() + 2, f + ".s") == 0;
    }
    if (const Provide *p = s.as<Provide>()) {
        return p->name == f;
    }
    if (const IfThenElse *i = s.as<IfThenElse>()) {
        return is_production(i->then_case, f) && (!i->else_case.defined() || is_production(i->else_case, f));
    }
    if (const Block *b = s.as<Block>()) {
        return is_production(b->first, f) && is_production(b->rest, f);
    }
    return false;
}

// Whether s loads from an input buffer whose loads are traced.
bool reads_traced_image(const Stmt &s) {
    struct Finder : IRVisitor {
        bool found = false;
        using IRVisitor::visit;
        void visit(const Call *op) override {
            if (op->call_type == Call::Image && !found) {
                InputBufferPtr b = find_input_buffer(op->name);
                found = b && b->trace_loads;
            }
            IRVisitor::visit(op);
        }
    } finder;
    finder.include(s);
    return finder.found;
}

void flatten(const Stmt &s, std::vector<Stmt> &out) {
    if (const Block *b = s.as<Block>()) {
        flatten(b->first, out);
        flatten(b->rest, out);
    } else if (s.defined()) {
        out.push_back(s);
    }
}

class AddTraceEvents : public IRMutator {
public:
    AddTraceEvents(const Environment &env, const TraceOptions &options) : env_(env), options_(options) {}

    bool traces_loads(const FunctionContents &f) const { return f.trace_loads || options_.loads; }
    bool traces_stores(const FunctionContents &f) const { return f.trace_stores || options_.stores; }
    bool traces_realizations(const FunctionContents &f) const { return f.trace_realizations || options_.realizations; }
    // An input buffer's loads (ImageParam::trace_loads), parented to the pipeline.
    bool traces_image_loads(const std::string &name) const {
        if (options_.loads) {
            return true;
        }
        InputBufferPtr b = find_input_buffer(name);
        return b && b->trace_loads;
    }

    // Where f's production (and, after it, consumption) starts in s: wraps
    // the run of its production in a produce event (f.trace_id rebound to
    // its id) and, with `consume`, what follows it in the same list in a
    // consume event. Returns s unchanged if not found.
    Stmt mark_production(const Stmt &s, const std::string &f, const std::vector<Expr> &coords, bool consume,
                         bool *found) {
        if (const LetStmt *let = s.as<LetStmt>()) {
            lets_in_scope_.insert(let->name);
            Stmt body = mark_production(let->body, f, coords, consume, found);
            lets_in_scope_.erase(lets_in_scope_.find(let->name));
            return *found ? LetStmt::make(let->name, let->value, body) : s;
        }
        std::vector<Stmt> list;
        flatten(s, list);
        size_t first = list.size(), last = list.size();
        for (size_t i = 0; i < list.size(); i++) {
            if (is_production(list[i], f)) {
                if (first == list.size()) {
                    first = i;
                }
                last = i;
            } else if (first != list.size()) {
                break;
            }
        }
        if (first == list.size()) {
            // Deeper: the one statement holding f's Provides.
            for (Stmt &e : list) {
                if (contains_provide_to(e, f)) {
                    e = mark_inside(e, f, coords, consume, found);
                    break;
                }
            }
            return *found ? Block::make(list) : s;
        }
        *found = true;
        const std::string id = f + ".trace_id";
        // Computed at a loop inside its storage: the events give the region
        // computed there (f.c.*, which sliding window narrows to the new
        // part), as upstream's, not the storage.
        std::vector<Expr> computed;
        for (size_t d = 0; d < coords.size() / 2; d++) {
            std::string min = f + ".c.min." + std::to_string(d), extent = f + ".c.extent." + std::to_string(d);
            if (!lets_in_scope_.count(min) || !lets_in_scope_.count(extent)) {
                computed.clear();
                break;
            }
            computed.push_back(Variable::make(Int(32), min));
            computed.push_back(Variable::make(Int(32), extent));
        }
        const std::vector<Expr> &coords_here = computed.empty() ? coords : computed;
        std::vector<Stmt> out(list.begin(), list.begin() + first);
        std::vector<Stmt> produced(list.begin() + first, list.begin() + last + 1);
        produced.push_back(trace_stmt(f, halide_trace_end_produce, trace_id(f), coords_here));
        out.push_back(
            LetStmt::make(id, trace_event(f, halide_trace_produce, trace_id(f), coords_here), Block::make(produced)));
        std::vector<Stmt> rest(list.begin() + last + 1, list.end());
        if (consume) {
            rest.push_back(trace_stmt(f, halide_trace_end_consume, trace_id(f), coords_here));
            out.push_back(
                LetStmt::make(id, trace_event(f, halide_trace_consume, trace_id(f), coords_here), Block::make(rest)));
        } else {
            out.insert(out.end(), rest.begin(), rest.end());
        }
        return Block::make(out);
    }

    Stmt mark_inside(const Stmt &s, const std::string &f, const std::vector<Expr> &coords, bool consume, bool *found) {
        if (const For *loop = s.as<For>()) {
            Stmt body = mark_production(loop->body, f, coords, consume, found);
            return *found ? For::make(loop->name, loop->min, loop->extent, loop->for_type, body) : s;
        }
        if (const Realize *r = s.as<Realize>()) {
            Stmt body = mark_production(r->body, f, coords, consume, found);
            return *found ? Realize::make(r->name, r->types, r->bounds, body) : s;
        }
        if (const IfThenElse *i = s.as<IfThenElse>()) {
            bool a = false, b = false;
            Stmt then_case = mark_production(i->then_case, f, coords, consume, &a);
            Stmt else_case = i->else_case.defined() ? mark_production(i->else_case, f, coords, consume, &b) : Stmt();
            *found = a || b;
            return *found ? IfThenElse::make(i->condition, then_case, else_case) : s;
        }
        return mark_production(s, f, coords, consume, found);
    }

    // Funcs whose realization events are there (so f.trace_id is bound
    // around their loads and stores).
    std::set<std::string> realizations;
    // Funcs with any event: they get tags.
    std::set<std::string> touched;
    // Funcs with traced realizations, outermost first: the order of their
    // add_trace_tag tags (after all the func_type_and_dim ones).
    std::vector<std::string> tag_order;
    // Input buffers whose loads are traced, in the order first met.
    std::vector<std::string> images;

    using IRMutator::visit;
    Stmt visit(const Realize *op) override {
        auto it = env_.find(op->name);
        bool traced = it != env_.end() && traces_realizations(*it->second);
        if (traced) {
            realizations.insert(op->name);
            tag_order.push_back(op->name);
        }
        Stmt s = IRMutator::visit(op);
        if (!traced) {
            return s;
        }
        touched.insert(op->name);
        op = s.as<Realize>();
        std::vector<Expr> coords = ranges(op->bounds);
        bool found = false;
        Stmt body = mark_production(op->body, op->name, coords, true, &found);
        body = Block::make(body, trace_stmt(op->name, halide_trace_end_realization, trace_id(op->name), coords));
        body = LetStmt::make(op->name + ".trace_id",
                             trace_event(op->name, halide_trace_begin_realization, trace_id("pipeline"), coords), body);
        return Realize::make(op->name, op->types, op->bounds, body);
    }

    Stmt visit(const Provide *op) override {
        Stmt s = IRMutator::visit(op);
        auto it = env_.find(op->name);
        if (it == env_.end() || !traces_stores(*it->second)) {
            return s;
        }
        op = s.as<Provide>();
        touched.insert(op->name);
        std::vector<Expr> values;
        for (size_t i = 0; i < op->values.size(); i++) {
            values.push_back(traced(halide_trace_store, op->name, (int)i, op->args, op->values[i]));
        }
        return Provide::make(op->name, values, op->args);
    }

    Expr visit(const Call *op) override {
        Expr e = IRMutator::visit(op);
        if (op->call_type == Call::Image && traces_image_loads(op->name)) {
            if (std::find(images.begin(), images.end(), op->name) == images.end()) {
                images.push_back(op->name);
            }
            op = e.as<Call>();
            return traced(halide_trace_load, op->name, op->value_index, op->args, e);
        }
        if (op->call_type != Call::Halide) {
            return e;
        }
        auto it = env_.find(op->name);
        if (it == env_.end() || !traces_loads(*it->second)) {
            return e;
        }
        op = e.as<Call>();
        touched.insert(op->name);
        return traced(halide_trace_load, op->name, op->value_index, op->args, e);
    }

private:
    // value, reported as a load or store of name[value_index](args) when
    // it is computed.
    Expr traced(halide_trace_event_code_t event, const std::string &name, int value_index,
                const std::vector<Expr> &args, const Expr &value) {
        bool image = std::find(images.begin(), images.end(), name) != images.end();
        Expr parent = image ? trace_id("pipeline") : realizations.count(name) ? trace_id(name) : int32_const(0);
        std::vector<Expr> call_args = {value,  StringImm::make(name),    int32_const((int)event),
                                       parent, int32_const(value_index), int32_const(0)};
        call_args.insert(call_args.end(), args.begin(), args.end());
        return Call::make(value.type(), "trace_value", call_args, Call::Intrinsic);
    }

    const Environment &env_;
    const TraceOptions &options_;
    std::multiset<std::string> lets_in_scope_; // around the statement mark_production looks in
};

// The "func_type_and_dim" tag: value types, then min and extent per dimension.
std::vector<Expr> tag_parts(const std::vector<Type> &types, const Box &box) {
    std::string head = "func_type_and_dim: " + std::to_string(types.size());
    for (const Type &t : types) {
        head += " " + std::to_string((int)t.code()) + " " + std::to_string(t.bits()) + " " + std::to_string(t.lanes());
    }
    head += " " + std::to_string(box.size());
    std::vector<Expr> parts = {StringImm::make(head)};
    for (const Interval &i : box) {
        parts.push_back(StringImm::make(" "));
        parts.push_back(i.min);
        parts.push_back(StringImm::make(" "));
        parts.push_back(simplify(i.max - i.min + 1));
    }
    return parts;
}

} // namespace

Stmt add_tracing(const Stmt &s, const Environment &env, const std::vector<std::string> &order,
                 const std::vector<FunctionPtr> &outputs, const std::string &pipeline, const TraceOptions &options) {
    bool any = options.loads || options.stores || options.realizations || options.pipeline;
    for (const auto &[name, f] : env) {
        any = any || f->trace_loads || f->trace_stores || f->trace_realizations;
    }
    any = any || reads_traced_image(s);
    if (!any) {
        return s;
    }
    std::map<std::string, Box> touched = boxes_touched(s);
    AddTraceEvents events(env, options);
    for (const FunctionPtr &out : outputs) {
        if (events.traces_realizations(*out)) {
            events.realizations.insert(out->name);
            events.tag_order.push_back(out->name);
        }
    }
    Stmt body = events.mutate(s);

    // Outputs: their realization is the output buffer, around everything.
    for (const FunctionPtr &out : outputs) {
        if (!events.traces_realizations(*out)) {
            continue;
        }
        events.touched.insert(out->name);
        std::vector<Expr> coords;
        for (size_t d = 0; d < out->args.size(); d++) {
            coords.push_back(buffer_field(out->name, "min", (int)d));
            coords.push_back(buffer_field(out->name, "extent", (int)d));
        }
        bool found = false;
        body = events.mark_production(body, out->name, coords, false, &found);
        body = Block::make(body, trace_stmt(out->name, halide_trace_end_realization, trace_id(out->name), coords));
        body =
            LetStmt::make(out->name + ".trace_id",
                          trace_event(out->name, halide_trace_begin_realization, trace_id("pipeline"), coords), body);
    }

    std::vector<Stmt> all;
    // Traced input buffers first (upstream's order: producers first).
    for (const std::string &name : events.images) {
        InputBufferPtr b = find_input_buffer(name);
        auto t = touched.find(name);
        Box box;
        for (int d = 0; b && d < b->dimensions; d++) {
            bool known = t != touched.end() && d < (int)t->second.size() && t->second[d].is_bounded();
            box.push_back(known ? t->second[d] : Interval{int32_const(0), int32_const(-1)});
        }
        all.push_back(trace_stmt(name, halide_trace_tag, trace_id("pipeline"), {}, tag_parts({b->type}, box)));
    }
    for (const std::string &name : order) {
        auto it = env.find(name);
        if (it == env.end() || !events.touched.count(name)) {
            continue;
        }
        const FunctionContents &f = *it->second;
        Box box;
        bool is_output = false;
        for (const FunctionPtr &out : outputs) {
            is_output = is_output || out->name == name;
        }
        for (size_t d = 0; d < f.args.size(); d++) {
            if (is_output) {
                Expr min = buffer_field(name, "min", (int)d);
                box.push_back({min, min + buffer_field(name, "extent", (int)d) - 1});
            } else {
                auto t = touched.find(name);
                bool known = t != touched.end() && d < t->second.size() && t->second[d].is_bounded();
                box.push_back(known ? t->second[d] : Interval{int32_const(0), int32_const(-1)});
            }
        }
        std::vector<Type> types;
        for (const Expr &v : f.values) {
            types.push_back(v.type());
        }
        all.push_back(trace_stmt(name, halide_trace_tag, trace_id("pipeline"), {}, tag_parts(types, box)));
    }
    for (const std::string &name : events.tag_order) {
        for (const std::string &tag : env.at(name)->trace_tags) {
            all.push_back(trace_stmt(name, halide_trace_tag, trace_id("pipeline"), {}, {StringImm::make(tag)}));
        }
    }
    for (const std::string &name : events.images) {
        InputBufferPtr b = find_input_buffer(name);
        for (const std::string &tag : b ? b->trace_tags : std::vector<std::string>{}) {
            all.push_back(trace_stmt(name, halide_trace_tag, trace_id("pipeline"), {}, {StringImm::make(tag)}));
        }
    }
    all.push_back(body);
    all.push_back(trace_stmt(pipeline, halide_trace_end_pipeline, trace_id("pipeline"), {}));
    return LetStmt::make("pipeline.trace_id", trace_event(pipeline, halide_trace_begin_pipeline, int32_const(0), {}),
                         Block::make(all));
}

} // namespace Internal
} // namespace Halide
