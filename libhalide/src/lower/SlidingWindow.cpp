// See Passes.h: sliding window.
//
// A Func g stored outside a serial loop and computed inside it (its region
// g.c.min.d / g.c.max.d bound by lets in the loop's body) computes, in every
// iteration after the first, only the part of its region past what the
// previous iteration computed:
//
//   for (y, y.min, ...)
//     let g.c.min.1 = select(y > y.min, max(<g.c.max.1 at y - 1> + 1, <min>), <min>)
//     let g.c.max.1 = <max>
//     produce g over [g.c.min.1, g.c.max.1]; consumers
//
// when exactly one dimension of the region depends on y and both its ends
// never decrease as y grows (or, symmetrically, never increase: then the
// max is lowered instead); a region that does not depend on y at all is
// computed by the first iteration only. Why that is enough: rows [min(y), max(y - 1)]
// lie in [min(y - 1), max(y - 1)] (the min does not decrease), which the
// iterations up to y - 1 have computed, and the storage outside the loop
// keeps them. The new bound is clamped to the region itself, so nothing
// outside what the schedule already computed (and stored) is computed.
//
// g's region may be bound deeper in the loop's body, as upstream slides it:
//  - inside a loop of one iteration (a consumer computed at y, its own loop
//    over [y, y]): its variable is the let it amounts to;
//  - inside loops whose bounds do not depend on y, and branches whose
//    conditions do not (the same inner iterations run every y): the region
//    at inner iteration i slides against the region at the same i of the
//    previous y. So g(x, y) = f(x - 1, y) + f(x, y) + f(x, y - 1) with f
//    stored at root and computed at g's x slides along x within a row (that
//    loop's own slide) and along y across rows: each point of f once.
// Each cut only leaves out points of a region an earlier iteration (of y,
// or of the inner loop) computed, so cuts at several loops compose.
//
// A vectorized (or split) producer's region is widened to one vector at
// least, downwards from its max (ScheduleFunctions: min =
// select(max >= min, min(min, max - (w - 1)), min), the last vector
// shifted inwards). The ends are judged on the region before widening (an
// empty region, where the select keeps the min, computes nothing), and the
// slid min is widened again: each iteration computes at least one whole
// vector, recomputing some points of the previous iterations where the
// consumer moves by less than a vector (as upstream, whose producer loop
// keeps its vector's width), so the producer's vectors never write below
// the region its storage and folding were given.
//
// The ends are judged on the values the lets actually take, including the
// already slid regions of consumers at the same loop (a slid end is
// monotonic in the same direction as the end it replaced), so chains of
// line-buffered Funcs slide together. A Func with update definitions slides
// along a dimension that every update writes and reads at its own pure Var
// (f(r, y) = ... f(r, y) ...): each stage then computes each row apart from
// the others, and every stage loops over the slid region of that dimension,
// so each stage computes only the new rows. Otherwise it keeps its full
// region (a partial recomputation would redo the pure stage over rows the
// updates already finished).
#include <set>
#include <sstream>

#include "Halide/IREquality.h"
#include "Halide/IRMutator.h"
#include "Halide/IROperator.h"
#include "Halide/IRPrinter.h"
#include "Halide/IRVisitor.h"
#include "Halide/Simplify.h"
#include "analysis/Monotonic.h"
#include "ir/Substitute.h"
#include "ir/UsesVars.h"
#include "lower/Passes.h"

namespace Halide {
namespace Internal {
namespace {

// Whether e reads a field of a buffer (buffer_get_min ...).
bool reads_buffer_field(const Expr &e) {
    class Finder : public IRVisitor {
    public:
        bool found = false;
        using IRVisitor::visit;
        void visit(const Call *op) override {
            found = found || (op->call_type == Call::Intrinsic && op->name.compare(0, 11, "buffer_get_") == 0);
            IRVisitor::visit(op);
        }
    } finder;
    e.accept(&finder);
    return finder.found;
}

// Whether e is short enough to write out (the previous iteration's bound
// is spelled in full: a long chain of regions could make it huge).
bool small_enough(const Expr &e) {
    std::ostringstream text;
    text << e;
    return text.str().size() < 4000;
}

// The name of the region let `<func>.c.<field>.<d>`, split up.
struct RegionLet {
    std::string func, field;
    int dim = -1;
};

bool parse_region_let(const std::string &name, RegionLet &out) {
    size_t last = name.rfind('.');
    if (last == std::string::npos || last + 1 >= name.size()) {
        return false;
    }
    std::string dim = name.substr(last + 1);
    if (dim.find_first_not_of("0123456789") != std::string::npos) {
        return false;
    }
    size_t field = name.rfind('.', last - 1);
    if (field == std::string::npos || field < 2 || name.compare(field - 2, 2, ".c") != 0) {
        return false;
    }
    out.field = name.substr(field + 1, last - field - 1);
    out.func = name.substr(0, field - 2);
    out.dim = std::stoi(dim);
    return !out.func.empty();
}

// Whether a schedule (or one of its specializations) splits or fuses `var`.
bool splits_var(const std::vector<SplitStep> &splits, const std::vector<Specialization> &specs,
                const std::string &var) {
    for (const SplitStep &s : splits) {
        if (s.old_var == var || s.inner == var || s.outer == var) {
            return true;
        }
    }
    bool found = false;
    for_each_specialization(specs, [&](const Specialization &s) { found = found || splits_var(s.splits, {}, var); });
    return found;
}

// Whether every update of g writes and reads g at its pure Var in dimension
// d (and the pure definition does not split that Var: its last iteration
// may shift inwards, over finished rows): each stage then computes each row along
// d from that row alone, over the region's rows, so computing only the new
// rows leaves the finished ones as they are.
bool updates_keep_rows_apart(const FunctionContents &g, int d) {
    const std::string &var = g.args[(size_t)d];
    if (splits_var(g.splits, g.specializations, var)) {
        return false;
    }
    class ReadsOwnRow : public IRVisitor {
    public:
        const std::string *func = nullptr, *var = nullptr;
        int d = 0;
        bool ok = true;
        using IRVisitor::visit;
        void visit(const Call *op) override {
            if (op->call_type == Call::Halide && op->name == *func) {
                const Variable *v = (size_t)d < op->args.size() ? op->args[(size_t)d].as<Variable>() : nullptr;
                ok = ok && v && v->name == *var;
            }
            IRVisitor::visit(op);
        }
    } reads;
    reads.func = &g.name;
    reads.var = &var;
    reads.d = d;
    for (const UpdateDefinition &u : g.updates) {
        // (An update's splits of a producer are guarded: they cover the
        // slid rows exactly.)
        if ((size_t)d >= u.pure_vars.size() || u.pure_vars[(size_t)d] != var) {
            return false;
        }
        for (const Expr &e : u.args) {
            reads.include(e);
        }
        for (const Expr &e : u.values) {
            reads.include(e);
        }
        if (u.rdom) {
            for (const Expr &e : u.rdom->predicates) {
                reads.include(e);
            }
        }
    }
    return reads.ok;
}

// A region's min widened to one vector: select(max >= min, min(min, max - k), min).
struct Widened {
    Expr min, max, k; // the min before widening, the max, and the vector's width less one
};

bool match_widened(const Expr &e, Widened &out) {
    const Select *s = e.as<Select>();
    const GE *ge = s ? s->condition.as<GE>() : nullptr;
    const Min *mn = s ? s->true_value.as<Min>() : nullptr;
    const Sub *sub = mn ? mn->b.as<Sub>() : nullptr;
    if (!ge || !mn || !sub || !sub->b.as<IntImm>() || !equal(ge->b, s->false_value) || !equal(mn->a, s->false_value) ||
        !equal(sub->a, ge->a)) {
        return false;
    }
    out = {s->false_value, ge->a, sub->b};
    return true;
}

Expr widen(const Widened &w, const Expr &min) {
    return Select::make(GE::make(w.max, min), Min::make(min, Sub::make(w.max, w.k)), min);
}

// The names of the variables e uses.
std::vector<std::string> variables_of(const Expr &e) {
    class Collect : public IRVisitor {
    public:
        std::set<std::string> names;
        using IRVisitor::visit;
        void visit(const Variable *op) override { names.insert(op->name); }
    } collect;
    collect.include(e);
    return {collect.names.begin(), collect.names.end()};
}

// The sliding of the Funcs stored outside one loop whose regions are bound
// in its body.
class SlideAlong : public IRMutator {
public:
    SlideAlong(const Environment &env, const std::multiset<std::string> &stored_outside, const For *loop)
        : env_(env), stored_outside_(stored_outside), loop_(loop) {}

    bool changed = false;

    using IRMutator::visit;

    Stmt visit(const Realize *op) override {
        stored_inside_.insert(op->name);
        Stmt s = IRMutator::visit(op);
        stored_inside_.erase(stored_inside_.find(op->name));
        return s;
    }

    Stmt visit(const LetStmt *op) override {
        push(op->name, op->value, true);
        RegionLet r;
        if (parse_region_let(op->name, r) && r.field == "extent") {
            // The last let of a region (extent of its last dimension): the
            // whole region is known now.
            auto f = env_.find(r.func);
            if (f != env_.end() && r.dim + 1 == (int)f->second->args.size()) {
                try_slide(*f->second);
            }
        }
        Stmt body = mutate(op->body);
        Expr value = path_.back().value;
        path_.pop_back();
        if (body.same_as(op->body) && value.same_as(op->value)) {
            return self_stmt(op);
        }
        return LetStmt::make(op->name, value, body);
    }

    Stmt visit(const For *op) override {
        if (!depends(op->min) && !depends(op->extent) &&
            (op->for_type == ForType::Serial || op->for_type == ForType::Unrolled ||
             op->for_type == ForType::Parallel)) {
            // The same iterations every time around the sliding loop.
            push(op->name, Expr(), false);
        } else if (is_const_one(expand(op->extent))) {
            // One iteration: its variable is a let of its min.
            push(op->name, op->min, false);
        } else {
            return self_stmt(op);
        }
        Stmt body = mutate(op->body);
        path_.pop_back();
        return body.same_as(op->body) ? self_stmt(op) : For::make(op->name, op->min, op->extent, op->for_type, body);
    }

    Stmt visit(const IfThenElse *op) override {
        if (depends(op->condition)) {
            return self_stmt(op); // a different branch may have run the previous time
        }
        return IRMutator::visit(op);
    }

private:
    // A let (or a loop's variable) from the loop's body down to here.
    struct Entry {
        std::string name;
        Expr value; // undefined: a loop's variable, the same along the sliding loop
        bool is_let = true;
        std::vector<std::string> vars; // what value uses
        bool depends = false;          // whether its value changes with the sliding loop's variable
        // Found when first asked (most lets are never asked about):
        bool known = false;
        Monotonic mono = Monotonic::Constant; // its direction along the loop
        Expr expanded;                        // its value in terms of the loop and outer names
        bool forced = false;                  // mono set by a slide (the select hides it)
    };

    // The innermost entry named `name` before path_[before], or -1.
    int find(const std::string &name, size_t before) const {
        for (size_t i = before; i-- > 0;) {
            if (path_[i].name == name) {
                return (int)i;
            }
        }
        return -1;
    }

    bool depends(const Expr &e, size_t before) const {
        for (const std::string &v : variables_of(e)) {
            if (v == loop_->name) {
                return true;
            }
            int i = find(v, before);
            if (i >= 0 && path_[(size_t)i].depends) {
                return true;
            }
        }
        return false;
    }
    bool depends(const Expr &e) const { return depends(e, path_.size()); }

    void push(const std::string &name, const Expr &value, bool is_let) {
        Entry e;
        e.name = name;
        e.value = value;
        e.is_let = is_let;
        if (value.defined()) {
            e.vars = variables_of(value);
            e.depends = depends(value) || reads_buffer_field(value);
        }
        path_.push_back(std::move(e));
    }

    // Entry i with its direction and expansion worked out.
    const Entry &resolve(size_t i) {
        Entry &e = path_[i];
        if (e.known) {
            return e;
        }
        if (e.value.defined()) {
            std::map<std::string, Monotonic> mono;
            std::map<std::string, Expr> expansions;
            for (const std::string &v : e.vars) {
                int j = find(v, i);
                if (j < 0) {
                    continue;
                }
                const Entry &used = resolve((size_t)j);
                mono[v] = used.mono;
                if (used.expanded.defined()) {
                    expansions[v] = used.expanded;
                }
            }
            if (!e.forced) {
                // A field of a buffer an extern stage's query wrote (its
                // answer) changes however the query says. A widened min
                // moves as its two sides do, wherever the region is not
                // empty (see the top of the file).
                Widened w;
                Expr judged = match_widened(e.value, w) ? Min::make(w.min, Sub::make(w.max, w.k)) : e.value;
                e.mono = reads_buffer_field(e.value)
                             ? Monotonic::Unknown
                             : (e.depends ? is_monotonic(judged, loop_->name, mono) : Monotonic::Constant);
            }
            e.expanded = simplify(substitute(expansions, e.value));
        }
        e.known = true;
        return e;
    }

    // e in terms of the loop and outer names.
    Expr expand(const Expr &e) {
        std::map<std::string, Expr> expansions;
        for (const std::string &v : variables_of(e)) {
            int j = find(v, path_.size());
            if (j >= 0 && resolve((size_t)j).expanded.defined()) {
                expansions[v] = path_[(size_t)j].expanded;
            }
        }
        return simplify(substitute(expansions, e));
    }

    void try_slide(const FunctionContents &g) {
        if (!stored_outside_.count(g.name) || stored_inside_.count(g.name) || g.args.empty()) {
            return; // stored inside this loop: nothing to reuse
        }
        std::string prefix = g.name + ".c.";
        int dim = -1;
        for (int d = 0; d < (int)g.args.size(); d++) {
            std::string suffix = "." + std::to_string(d);
            int mn = find(prefix + "min" + suffix, path_.size()), mx = find(prefix + "max" + suffix, path_.size());
            if (mn < 0 || mx < 0 || !path_[(size_t)mn].is_let || !path_[(size_t)mx].is_let) {
                return; // the region is not all bound here
            }
            if (!path_[(size_t)mn].depends && !path_[(size_t)mx].depends) {
                continue;
            }
            if (dim >= 0) {
                return; // two dimensions move: upstream slides along one only
            }
            dim = d;
        }
        if (dim < 0) {
            // The same region every iteration: the first computes it, the
            // others nothing (the min slides past the max), as upstream's.
            for (int d = 0; d < (int)g.args.size() && dim < 0; d++) {
                if (g.updates.empty() || updates_keep_rows_apart(g, d)) {
                    dim = d;
                }
            }
            if (dim < 0) {
                return;
            }
        } else if (!g.updates.empty() && !updates_keep_rows_apart(g, dim)) {
            return;
        }
        std::string suffix = "." + std::to_string(dim);
        size_t min_at = (size_t)find(prefix + "min" + suffix, path_.size());
        size_t max_at = (size_t)find(prefix + "max" + suffix, path_.size());
        Monotonic mn = resolve(min_at).mono, mx = resolve(max_at).mono;
        auto up = [](Monotonic m) { return m == Monotonic::Increasing || m == Monotonic::Constant; };
        auto down = [](Monotonic m) { return m == Monotonic::Decreasing || m == Monotonic::Constant; };
        bool forward = up(mn) && up(mx);
        Widened w;
        if (!forward && (!(down(mn) && down(mx)) || match_widened(path_[min_at].value, w))) {
            return; // (a widened min, moving down, would widen below what is stored: left alone)
        }
        // The end that moves on, at the previous iteration.
        size_t lead = forward ? max_at : min_at, trail = forward ? min_at : max_at;
        Expr loop_var = Variable::make(Int(32), loop_->name);
        Expr previous = simplify(
            substitute({{loop_->name, Sub::make(loop_var, IntImm::make(Int(32), 1))}}, resolve(lead).expanded));
        if (!small_enough(previous)) {
            return;
        }
        Entry &t = path_[trail];
        bool widened = forward && match_widened(t.value, w);
        Expr from = widened ? w.min : t.value;
        Expr steady = forward ? Max::make(Add::make(previous, IntImm::make(Int(32), 1)), from)
                              : Min::make(Sub::make(previous, IntImm::make(Int(32), 1)), from);
        t.value = Select::make(GT::make(loop_var, loop_->min), steady, from);
        if (widened) {
            t.value = widen(w, t.value);
        }
        t.vars = variables_of(t.value);
        t.depends = true;
        // Still monotonic the same way (the analysis may not see through the select).
        t.mono = forward ? Monotonic::Increasing : Monotonic::Decreasing;
        t.forced = true;
        changed = true;
        // The entries from the slid one on take its new value.
        for (size_t i = trail; i < path_.size(); i++) {
            path_[i].known = false;
            if (i > trail && path_[i].value.defined()) {
                path_[i].depends = depends(path_[i].value, i) || reads_buffer_field(path_[i].value);
            }
        }
    }

    const Environment &env_;
    const std::multiset<std::string> &stored_outside_;
    std::multiset<std::string> stored_inside_;
    const For *loop_;
    std::vector<Entry> path_;
};

class SlideLoops : public IRMutator {
public:
    explicit SlideLoops(const Environment &env) : env_(env) {}

    using IRMutator::visit;

    Stmt visit(const Realize *op) override {
        realized_.insert(op->name);
        Stmt s = IRMutator::visit(op);
        realized_.erase(realized_.find(op->name));
        return s;
    }

    Stmt visit(const For *op) override {
        Stmt body = op->body;
        if ((op->for_type == ForType::Serial || op->for_type == ForType::Unrolled) && !realized_.empty()) {
            SlideAlong slide(env_, realized_, op);
            Stmt slid = slide.mutate(body);
            if (slide.changed) {
                body = slid;
            }
        }
        body = mutate(body);
        return body.same_as(op->body) ? self_stmt(op) : For::make(op->name, op->min, op->extent, op->for_type, body);
    }

private:
    const Environment &env_;
    std::multiset<std::string> realized_;
};

} // namespace

Stmt sliding_window(const Stmt &s, const Environment &env) {
    return SlideLoops(env).mutate(s);
}

} // namespace Internal
} // namespace Halide
