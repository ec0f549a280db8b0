// See Passes.h: Func::trace_loads/trace_stores/trace_realizations as the
// lines upstream's default trace handler prints, e.g.
//   Begin pipeline g.0()
//   Tag f.0() tag = "func_type_and_dim: 1 2 32 1 2 3 3 1 2"
//   Begin realization f.0(3, 3, 1, 2)      (min, extent per dimension)
//   Produce f.0(3, 3, 1, 2)
//   Store f.0(3, 1) = 4.000000
//   End produce f.0(3, 3, 1, 2)
//   Consume f.0(3, 3, 1, 2)
//   Load f.0(3, 1) = 4.000000
//   End consume f.0(3, 3, 1, 2)
//   End realization f.0(3, 3, 1, 2)
//   End pipeline g.0()
// Each line is a "trace_print" intrinsic (its arguments concatenated, the
// first one returned). Loops with traced accesses run serially: a line per
// scalar access, where upstream would print vectors.
#include <map>
#include <set>
#include <string>
#include <vector>

#include "Halide/IRMutator.h"
#include "Halide/IROperator.h"
#include "Halide/IRVisitor.h"
#include "Halide/Simplify.h"
#include "analysis/Interval.h"
#include "lower/Passes.h"

namespace Halide {
namespace Internal {
namespace {

Expr trace_print(Expr value, const std::vector<Expr> &parts) {
    std::vector<Expr> args = {std::move(value)};
    args.insert(args.end(), parts.begin(), parts.end());
    Type t = args[0].type();
    return Call::make(t, "trace_print", args, Call::Intrinsic);
}

Stmt trace_line(const std::vector<Expr> &parts) {
    return Evaluate::make(trace_print(int32_const(0), parts));
}

// "name.i(a, b, ...)" as the parts of a line.
std::vector<Expr> call_parts(const std::string &name, int value_index, const std::vector<Expr> &coords) {
    std::vector<Expr> parts = {StringImm::make(name + "." + std::to_string(value_index) + "(")};
    for (size_t i = 0; i < coords.size(); i++) {
        if (i > 0) {
            parts.push_back(StringImm::make(", "));
        }
        parts.push_back(coords[i]);
    }
    parts.push_back(StringImm::make(")"));
    return parts;
}

std::vector<Expr> event(const char *what, const std::vector<Expr> &call) {
    std::vector<Expr> parts = {StringImm::make(std::string(what) + " ")};
    parts.insert(parts.end(), call.begin(), call.end());
    return parts;
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
    explicit AddTraceEvents(const Environment &env) : env_(env) {}

    // Where f's production (and, after it, consumption) starts in s: wraps
    // the run of its production with Produce events, and with `consume`
    // what follows it in the same list. Returns s unchanged if not found.
    Stmt mark_production(const Stmt &s, const std::string &f, const std::vector<Expr> &call, bool consume,
                         bool *found) {
        if (const LetStmt *let = s.as<LetStmt>()) {
            Stmt body = mark_production(let->body, f, call, consume, found);
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
                    e = mark_inside(e, f, call, consume, found);
                    break;
                }
            }
            return *found ? Block::make(list) : s;
        }
        *found = true;
        std::vector<Stmt> out(list.begin(), list.begin() + first);
        out.push_back(trace_line(event("Produce", call)));
        out.insert(out.end(), list.begin() + first, list.begin() + last + 1);
        out.push_back(trace_line(event("End produce", call)));
        if (consume) {
            out.push_back(trace_line(event("Consume", call)));
        }
        out.insert(out.end(), list.begin() + last + 1, list.end());
        if (consume) {
            out.push_back(trace_line(event("End consume", call)));
        }
        return Block::make(out);
    }

    Stmt mark_inside(const Stmt &s, const std::string &f, const std::vector<Expr> &call, bool consume, bool *found) {
        if (const For *loop = s.as<For>()) {
            Stmt body = mark_production(loop->body, f, call, consume, found);
            return *found ? For::make(loop->name, loop->min, loop->extent, loop->for_type, body) : s;
        }
        if (const Realize *r = s.as<Realize>()) {
            Stmt body = mark_production(r->body, f, call, consume, found);
            return *found ? Realize::make(r->name, r->types, r->bounds, body) : s;
        }
        if (const IfThenElse *i = s.as<IfThenElse>()) {
            bool a = false, b = false;
            Stmt then_case = mark_production(i->then_case, f, call, consume, &a);
            Stmt else_case = i->else_case.defined() ? mark_production(i->else_case, f, call, consume, &b) : Stmt();
            *found = a || b;
            return *found ? IfThenElse::make(i->condition, then_case, else_case) : s;
        }
        return mark_production(s, f, call, consume, found);
    }

    using IRMutator::visit;
    Stmt visit(const Realize *op) override {
        Stmt s = IRMutator::visit(op);
        auto it = env_.find(op->name);
        if (it == env_.end() || !it->second->trace_realizations) {
            return s;
        }
        op = s.as<Realize>();
        std::vector<Expr> call = call_parts(op->name, 0, ranges(op->bounds));
        bool found = false;
        Stmt body = mark_production(op->body, op->name, call, true, &found);
        body = Block::make(
            {trace_line(event("Begin realization", call)), body, trace_line(event("End realization", call))});
        return Realize::make(op->name, op->types, op->bounds, body);
    }

    Stmt visit(const For *op) override {
        size_t before = traced_accesses_;
        Stmt s = IRMutator::visit(op);
        op = s.as<For>();
        if (op && op->for_type == ForType::Vectorized && traced_accesses_ > before) {
            // A line per lane, as the scalar loop prints them.
            s = For::make(op->name, op->min, op->extent, ForType::Serial, op->body);
        }
        return s;
    }

    Stmt visit(const Provide *op) override {
        Stmt s = IRMutator::visit(op);
        auto it = env_.find(op->name);
        if (it == env_.end() || !it->second->trace_stores) {
            return s;
        }
        op = s.as<Provide>();
        traced_accesses_++;
        std::vector<Expr> values;
        for (size_t i = 0; i < op->values.size(); i++) {
            values.push_back(traced("Store", op->name, (int)i, op->args, op->values[i]));
        }
        return Provide::make(op->name, values, op->args);
    }

    Expr visit(const Call *op) override {
        Expr e = IRMutator::visit(op);
        if (op->call_type != Call::Halide) {
            return e;
        }
        auto it = env_.find(op->name);
        if (it == env_.end() || !it->second->trace_loads) {
            return e;
        }
        op = e.as<Call>();
        traced_accesses_++;
        loaded.insert(op->name);
        return traced("Load", op->name, op->value_index, op->args, e);
    }

    std::set<std::string> loaded;

private:
    // value, printed as "<what> name.i(args) = value" when it is computed.
    Expr traced(const char *what, const std::string &name, int value_index, const std::vector<Expr> &args,
                const Expr &value) {
        std::string t = name + ".trace_value." + std::to_string(counter_++);
        Expr v = Variable::make(value.type(), t);
        std::vector<Expr> parts = event(what, call_parts(name, value_index, args));
        parts.push_back(StringImm::make(" = "));
        parts.push_back(v);
        return Let::make(t, value, trace_print(v, parts));
    }

    const Environment &env_;
    int counter_ = 0;
    size_t traced_accesses_ = 0;
};

// The "func_type_and_dim" tag: value types, then min and extent per dimension.
std::vector<Expr> tag_parts(const FunctionContents &f, const Box &box) {
    std::vector<Expr> parts = {
        StringImm::make("Tag " + f.name + ".0() tag = \"func_type_and_dim: " + std::to_string(f.values.size()))};
    std::string types;
    for (const Expr &v : f.values) {
        Type t = v.type();
        types += " " + std::to_string((int)t.code()) + " " + std::to_string(t.bits()) + " " + std::to_string(t.lanes());
    }
    parts.push_back(StringImm::make(types + " " + std::to_string(f.args.size())));
    for (const Interval &i : box) {
        parts.push_back(StringImm::make(" "));
        parts.push_back(i.min);
        parts.push_back(StringImm::make(" "));
        parts.push_back(simplify(i.max - i.min + 1));
    }
    parts.push_back(StringImm::make("\""));
    return parts;
}

} // namespace

Stmt add_tracing(const Stmt &s, const Environment &env, const std::vector<std::string> &order,
                 const std::vector<FunctionPtr> &outputs, const std::string &pipeline) {
    bool any = false;
    for (const auto &[name, f] : env) {
        any = any || f->trace_loads || f->trace_stores || f->trace_realizations;
    }
    if (!any) {
        return s;
    }
    std::map<std::string, Box> touched = boxes_touched(s);
    AddTraceEvents events(env);
    Stmt body = events.mutate(s);

    // Outputs: their realization is the output buffer, around everything.
    for (const FunctionPtr &out : outputs) {
        if (!out->trace_realizations) {
            continue;
        }
        std::vector<Expr> coords;
        for (size_t d = 0; d < out->args.size(); d++) {
            coords.push_back(buffer_field(out->name, "min", (int)d));
            coords.push_back(buffer_field(out->name, "extent", (int)d));
        }
        std::vector<Expr> call = call_parts(out->name, 0, coords);
        bool found = false;
        body = events.mark_inside(body, out->name, call, false, &found);
        body = Block::make(
            {trace_line(event("Begin realization", call)), body, trace_line(event("End realization", call))});
    }

    std::vector<Stmt> tags;
    for (const std::string &name : order) {
        auto it = env.find(name);
        if (it == env.end()) {
            continue;
        }
        const FunctionContents &f = *it->second;
        if (!(f.trace_stores || f.trace_realizations || events.loaded.count(name))) {
            continue;
        }
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
        tags.push_back(trace_line(tag_parts(f, box)));
    }

    std::vector<Expr> call = call_parts(pipeline, 0, {});
    std::vector<Stmt> all = {trace_line(event("Begin pipeline", call))};
    all.insert(all.end(), tags.begin(), tags.end());
    all.push_back(body);
    all.push_back(trace_line(event("End pipeline", call)));
    return Block::make(all);
}

} // namespace Internal
} // namespace Halide
