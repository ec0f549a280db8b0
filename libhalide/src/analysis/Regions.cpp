// See Interval.h: the regions of Funcs and buffers a statement calls
// (boxes_required, boxes_touched, boxes_selected), walked with the ranges of
// its loops and lets in scope, and the operations on regions.
#include "Halide/Error.h"
#include "Halide/IREquality.h"
#include "Halide/IRMutator.h"
#include "Halide/IROperator.h"
#include "Halide/IRVisitor.h"
#include "analysis/ImpliedConditions.h"
#include "analysis/Interval.h"
#include "analysis/IntervalEnds.h"
#include "ir/Substitute.h"
#include "ir/UsesVars.h"

#include <algorithm>
#include <optional>

namespace Halide {
namespace Internal {
namespace {

using interval_ends::as_int;
using interval_ends::int32;
using interval_ends::make_max;
using interval_ends::make_min;

// Walks a statement keeping loop and let ranges in scope, and unions the
// intervals of the arguments of every call.
class RegionsCalled : public IRVisitor {
public:
    RegionsCalled(const Scope &outer, bool provides, bool selected = false)
        : scope_(outer), provides_(provides), selected_(selected) {}
    std::map<std::string, Box> boxes;

    using IRVisitor::visit;

    void visit(const For *op) override {
        include(op->min);
        include(op->extent);
        Expr min = cancel_shifts(op->min), extent = cancel_shifts(op->extent);
        Interval lo = bounds_of_expr(min, scope_);
        Interval hi = bounds_of_expr(Sub::make(Add::make(min, extent), int32(1)), scope_);
        // A loop over [F.min.d, F.extent.d] with F.max.d in scope: use that
        // max, which keeps the correlation between min and extent.
        const Variable *mn = op->min.as<Variable>(), *ex = op->extent.as<Variable>();
        if (mn && ex) {
            auto dot = mn->name.rfind(".min.");
            if (dot != std::string::npos &&
                ex->name == mn->name.substr(0, dot) + ".extent." + mn->name.substr(dot + 5)) {
                auto it = scope_.find(mn->name.substr(0, dot) + ".max." + mn->name.substr(dot + 5));
                if (it != scope_.end()) {
                    hi = it->second;
                }
            }
        }
        push(op->name, {lo.min, hi.max});
        include(op->body);
        pop(op->name);
    }

    void visit(const LetStmt *op) override { visit_let(op); }

    void visit(const Let *op) override { visit_let(op); }

    template <typename LetOrLetStmt> void visit_let(const LetOrLetStmt *op) {
        include(op->value);
        push(op->name, bounds_of_expr(cancel_shifts(op->value), scope_));
        std::optional<Shift> shift = shift_of(op->value);
        // The shifts made stale by this binding (of this name, or of a
        // variable this name shadows), restored after its body.
        std::map<std::string, Shift> stale;
        for (auto it = shifts_.begin(); it != shifts_.end();) {
            if (it->first == op->name || it->second.var == op->name) {
                stale.insert(*it);
                it = shifts_.erase(it);
            } else {
                ++it;
            }
        }
        if (shift && shift->var != op->name) {
            shifts_[op->name] = *shift;
        }
        include(op->body);
        shifts_.erase(op->name);
        shifts_.insert(stale.begin(), stale.end());
        pop(op->name);
    }

    // Lets that are a variable plus a constant (`f.min.0 = x + 1`), as
    // that variable and constant: the difference of two such lets of one
    // variable (`f.max.0 - f.min.0`, a one-wide region computed per x) is
    // the constant it is, where their intervals alone would make it
    // [min - max, max - min] (upstream's simplifier substitutes these lets;
    // ours keeps them).
    struct Shift {
        std::string var;
        int64_t offset;
    };
    std::map<std::string, Shift> shifts_;

    std::optional<Shift> shift_of(const Expr &e) const {
        if (e.type() != Int(32)) {
            return std::nullopt;
        }
        if (const Variable *v = e.as<Variable>()) {
            auto it = shifts_.find(v->name);
            return it != shifts_.end() ? it->second : Shift{v->name, 0};
        }
        const Add *add = e.as<Add>();
        const Sub *sub = e.as<Sub>();
        const Expr *k = add ? &add->b : sub ? &sub->b : nullptr;
        if (!k) {
            return std::nullopt;
        }
        const IntImm *c = k->as<IntImm>();
        std::optional<Shift> base = c ? shift_of(add ? add->a : sub->a) : std::nullopt;
        if (!base) {
            return std::nullopt;
        }
        int64_t offset = base->offset + (add ? c->value : -c->value);
        if (offset < INT32_MIN || offset > INT32_MAX) {
            return std::nullopt;
        }
        return Shift{base->var, offset};
    }

    // e with each difference of two shifts of one variable made a constant.
    Expr cancel_shifts(const Expr &e) const {
        if (shifts_.empty()) {
            return e;
        }
        class Cancel : public IRMutator {
        public:
            explicit Cancel(const RegionsCalled &r) : r_(r) {}
            using IRMutator::visit;
            Expr visit(const Sub *op) override {
                std::optional<Shift> a = r_.shift_of(op->a), b = r_.shift_of(op->b);
                if (a && b && a->var == b->var) {
                    int64_t d = a->offset - b->offset;
                    if (d >= INT32_MIN && d <= INT32_MAX) {
                        return int32(d);
                    }
                }
                return IRMutator::visit(op);
            }

        private:
            const RegionsCalled &r_;
        };
        return Cancel(*this).mutate(e);
    }

    // Inside `if (v < e)` (a split's tail guard), v is taken as min(v, e - 1),
    // as upstream's bounds inference clamps a guarded split: an iteration
    // past the end needs the last point rather than nothing. That keeps
    // every region non-empty, so a producer's region (and its widening to a
    // split factor) stays a plain function of its consumer's, which interval
    // arithmetic bounds tightly.
    void visit(const IfThenElse *op) override {
        include(op->condition);
        if (Expr c = decided_outside(op->condition); c.defined()) {
            // The branches' regions, each used only where c picks it.
            std::map<std::string, Box> outer = std::move(boxes);
            boxes.clear();
            include(op->then_case);
            std::map<std::string, Box> then_boxes = std::move(boxes);
            boxes.clear();
            include(op->else_case);
            std::map<std::string, Box> else_boxes = std::move(boxes);
            boxes = std::move(outer);
            for (auto &[name, t] : then_boxes) {
                auto e = else_boxes.find(name);
                merge(name, e == else_boxes.end() ? only_where(t, c) : choose(c, t, e->second));
            }
            for (auto &[name, e] : else_boxes) {
                if (!then_boxes.count(name)) {
                    merge(name, only_where(e, Not::make(c)));
                }
            }
            return;
        }
        std::vector<std::string> narrowed;
        std::vector<const Expr *> terms;
        collect_terms(op->condition, terms);
        for (const Expr *t : terms) {
            const LT *lt = t->as<LT>();
            const Variable *v = lt ? lt->a.as<Variable>() : nullptr;
            if (!v || !scope_.count(v->name) || v->type != Int(32)) {
                continue;
            }
            Interval i = scope_[v->name];
            Interval limit = bounds_of_expr(Sub::make(lt->b, int32(1)), scope_);
            if (limit.max.defined()) {
                i.max = i.max.defined() ? make_min(i.max, limit.max) : limit.max;
                if (i.min.defined()) {
                    i.min = make_min(i.min, limit.max);
                }
            }
            push(v->name, i);
            narrowed.push_back(v->name);
        }
        include(op->then_case);
        for (auto n = narrowed.rbegin(); n != narrowed.rend(); ++n) {
            pop(*n);
        }
        include(op->else_case);
    }

    // boxes_selected: each branch with the loop variables its condition
    // bounds narrowed to where it is picked (possibly to nothing: max < min).
    void visit(const Select *op) override {
        if (is_const_one(op->condition) || is_const_zero(op->condition)) {
            // select(true, a, b) is a (a specialization's case decided it):
            // b's reads are never used. Until simplification removes them a
            // Func they read still needs a realization: they count, unused.
            bool live = is_const_one(op->condition);
            include(live ? op->true_value : op->false_value);
            if (!selected_) {
                std::map<std::string, Box> outer = std::move(boxes);
                boxes.clear();
                include(live ? op->false_value : op->true_value);
                std::map<std::string, Box> dead = std::move(boxes);
                boxes = std::move(outer);
                for (auto &[name, b] : dead) {
                    merge(name, only_where(b, const_false()));
                }
            }
            return;
        }
        if (!selected_) {
            IRVisitor::visit(op);
            return;
        }
        include(op->condition);
        for (bool branch : {true, false}) {
            std::vector<std::string> narrowed;
            std::vector<std::pair<Expr, Expr>> facts; // (a, b): a <= b
            collect_facts(op->condition, branch, facts);
            size_t known = bounded_exprs_.size();
            for (const auto &[a, b] : facts) {
                // The sides themselves, for calls at them (f(x) where x is
                // split: x's definition on both), then a single loop variable.
                Interval lo = bounds_of_expr(a, scope_), hi = bounds_of_expr(b, scope_);
                if (hi.max.defined()) {
                    bounded_exprs_.emplace_back(a, Interval{Expr(), hi.max});
                }
                if (lo.min.defined()) {
                    bounded_exprs_.emplace_back(b, Interval{lo.min, Expr()});
                }
                narrow_by(a, b, narrowed);
            }
            include(branch ? op->true_value : op->false_value);
            bounded_exprs_.resize(known);
            for (auto n = narrowed.rbegin(); n != narrowed.rend(); ++n) {
                pop(*n);
            }
        }
    }

    void visit(const Call *op) override {
        IRVisitor::visit(op);
        if (op->call_type == Call::Halide || op->call_type == Call::Image) {
            add(op->name, op->args);
        }
    }

    void visit(const Provide *op) override {
        size_t known = bounded_exprs_.size();
        if (selected_) {
            // A Func computed wider than needed (to a split factor) stores
            // values that matter only over <f>.needed.min/max.d, where
            // ScheduleFunctions says so: its reads at its coordinates count there.
            for (size_t d = 0; d < op->args.size(); d++) {
                auto lo = scope_.find(op->name + ".needed.min." + std::to_string(d));
                auto hi = scope_.find(op->name + ".needed.max." + std::to_string(d));
                if (lo != scope_.end() && hi != scope_.end()) {
                    bounded_exprs_.emplace_back(op->args[d], Interval{lo->second.min, hi->second.max});
                }
            }
        }
        IRVisitor::visit(op);
        bounded_exprs_.resize(known);
        if (provides_) {
            add(op->name, op->args);
        }
    }

private:
    void add(const std::string &name, const std::vector<Expr> &args) {
        Box box;
        for (const Expr &a : args) {
            box.push_back(bounds_of_expr(a, scope_));
            for (const auto &[e, allowed] : bounded_exprs_) {
                // a is e, or e plus or minus a constant.
                int64_t offset = 0;
                const Expr *inner = &a;
                if (const Add *add = a.as<Add>(); add && as_int(add->b)) {
                    inner = &add->a;
                    offset = *as_int(add->b);
                } else if (const Sub *sub = a.as<Sub>(); sub && as_int(sub->b)) {
                    inner = &sub->a;
                    offset = -*as_int(sub->b);
                }
                bool same = equal(a, e);
                if (!same && (inner == &a || !equal(*inner, e))) {
                    continue;
                }
                if (same) {
                    offset = 0;
                }
                Interval &i = box.back();
                if (allowed.max.defined()) {
                    Expr m = offset ? Add::make(allowed.max, int32(offset)) : allowed.max;
                    i.max = i.max.defined() ? make_min(i.max, m) : m;
                }
                if (allowed.min.defined()) {
                    Expr m = offset ? Add::make(allowed.min, int32(offset)) : allowed.min;
                    i.min = i.min.defined() ? make_max(i.min, m) : m;
                }
            }
        }
        merge(name, box);
    }
    void merge(const std::string &name, const Box &box) {
        auto it = boxes.find(name);
        boxes[name] = it == boxes.end() ? box : box_union(it->second, box);
    }

    // Condition c in terms of the variables outside the statement walked,
    // if its value is the same wherever it is met (it names no loop
    // variable, calls nothing): a specialization's, a clipped stage's guard.
    Expr decided_outside(const Expr &c) const {
        class Reads : public IRVisitor {
        public:
            bool found = false;
            using IRVisitor::visit;
            // Any call: a Func or buffer read, or an intrinsic that means
            // something only where it is (extern_stage_marker, never run).
            void visit(const Call *) override { found = true; }
            void visit(const Load *) override { found = true; }
        } reads;
        reads.include(c);
        if (reads.found) {
            return Expr();
        }
        std::map<std::string, Expr> points;
        bool varies = false;
        expr_uses_var_if(c, [&](const std::string &name) {
            auto it = scope_.find(name);
            if (it == scope_.end()) {
                return false;
            }
            const Interval &i = it->second;
            if (i.min.defined() && i.min.same_as(i.max)) {
                points[name] = i.min;
            } else {
                varies = true;
            }
            return false;
        });
        if (varies) {
            return Expr();
        }
        return points.empty() ? c : substitute(points, c);
    }

    // A box used only where c holds.
    static Box only_where(const Box &b, const Expr &c) {
        if (is_const_one(c)) {
            return b;
        }
        Box out = b;
        if (is_const_zero(c)) {
            out.used = c;
            return out;
        }
        out.used = b.used.defined() ? And::make(c, b.used) : c;
        return out;
    }

    // t where c holds, else e: exact per end (an unbounded end of either is
    // unbounded). Too large an expression falls back to their union.
    static Box choose(const Expr &c, const Box &t, const Box &e) {
        internal_assert(t.size() == e.size());
        if (is_const_one(c) || is_const_zero(c)) {
            return is_const_one(c) ? t : e;
        }
        Box out;
        for (size_t d = 0; d < t.size(); d++) {
            auto pick = [&](const Expr &a, const Expr &b) {
                return !a.defined() || !b.defined() ? Expr() : a.same_as(b) ? a : Select::make(c, a, b);
            };
            out.push_back({pick(t[d].min, e[d].min), pick(t[d].max, e[d].max)});
        }
        if (t.used.defined() || e.used.defined()) {
            out.used =
                Select::make(c, t.used.defined() ? t.used : const_true(), e.used.defined() ? e.used : const_true());
        }
        if (too_large(out)) {
            return box_union(only_where(t, c), only_where(e, Not::make(c)));
        }
        return out;
    }

    // The facts `cond == holds` gives, each as (a, b) for a <= b on int32
    // values: its comparisons, under a conjunction when it holds or a
    // disjunction when it fails.
    static void collect_facts(const Expr &cond, bool holds, std::vector<std::pair<Expr, Expr>> &out) {
        for_each_implied_condition(cond, holds, [&](const Expr &c, bool h) {
            auto fact = [&](const Expr &a, const Expr &b, bool strict) {
                if (a.type() != Int(32) || b.type() != Int(32)) {
                    return;
                }
                out.emplace_back(a, strict ? Sub::make(b, int32(1)) : b);
            };
            // a < b holds, or fails (b <= a); the other comparisons alike.
            if (const LT *lt = c.as<LT>()) {
                h ? fact(lt->a, lt->b, true) : fact(lt->b, lt->a, false);
            } else if (const LE *le = c.as<LE>()) {
                h ? fact(le->a, le->b, false) : fact(le->b, le->a, true);
            } else if (const GT *gt = c.as<GT>()) {
                h ? fact(gt->b, gt->a, true) : fact(gt->a, gt->b, false);
            } else if (const GE *ge = c.as<GE>()) {
                h ? fact(ge->b, ge->a, false) : fact(ge->a, ge->b, true);
            } else if (const EQ *eq = c.as<EQ>(); eq && h) {
                fact(eq->a, eq->b, false);
                fact(eq->b, eq->a, false);
            }
        });
    }

    // Narrows the loop variable that a <= b bounds, if one side is a
    // linear function of one (v, v + e, e - v, k * v with k > 0 constant)
    // and the other does not name it.
    void narrow_by(const Expr &a, const Expr &b, std::vector<std::string> &narrowed) {
        for (bool upper : {true, false}) {
            // upper: isolate a (a <= b gives v <= bound); else isolate b (a <= b gives v >= bound).
            const Expr &side = upper ? a : b;
            const Expr &other = upper ? b : a;
            const Variable *v = single_loop_var(side);
            if (!v || expr_uses_var_if(other, [&](const std::string &n) { return n == v->name; })) {
                continue;
            }
            Expr bound = other;
            bool is_upper = upper;
            if (!isolate(side, v->name, bound, is_upper)) {
                continue;
            }
            Interval range = scope_.at(v->name);
            Interval limit = bounds_of_expr(bound, scope_);
            if (is_upper && limit.max.defined()) {
                range.max = range.max.defined() ? make_min(range.max, limit.max) : limit.max;
            } else if (!is_upper && limit.min.defined()) {
                range.min = range.min.defined() ? make_max(range.min, limit.min) : limit.min;
            } else {
                continue;
            }
            push(v->name, range);
            narrowed.push_back(v->name);
        }
    }

    // The one int32 loop variable (in scope, not a single point) that e names, if exactly one.
    const Variable *single_loop_var(const Expr &e) const {
        const Variable *found = nullptr;
        bool several = false;
        class Vars : public IRVisitor {
        public:
            std::vector<const Variable *> vars;
            using IRVisitor::visit;
            void visit(const Variable *op) override { vars.push_back(op); }
        } vars;
        vars.include(e);
        for (const Variable *v : vars.vars) {
            auto it = scope_.find(v->name);
            if (it == scope_.end() || v->type != Int(32) ||
                (it->second.min.defined() && it->second.min.same_as(it->second.max))) {
                continue;
            }
            if (found && found->name != v->name) {
                several = true;
            }
            found = v;
        }
        return several ? nullptr : found;
    }

    // Rewrites `e <= bound` (is_upper) or `e >= bound` into the same about
    // the variable `v` alone, as far as e is v plus or minus terms without
    // it, or v times a positive constant. False if it can't.
    static bool isolate(Expr e, const std::string &v, Expr &bound, bool &is_upper) {
        auto names_v = [&](const Expr &x) { return expr_uses_var_if(x, [&](const std::string &n) { return n == v; }); };
        for (int steps = 0; steps < 16; steps++) {
            if (const Variable *var = e.as<Variable>()) {
                return var->name == v;
            }
            if (e.type() != Int(32)) {
                return false;
            }
            if (const Add *op = e.as<Add>()) {
                bool in_a = names_v(op->a);
                bound = Sub::make(bound, in_a ? op->b : op->a);
                e = in_a ? op->a : op->b;
            } else if (const Sub *op = e.as<Sub>()) {
                if (names_v(op->a)) {
                    bound = Add::make(bound, op->b); // a - b <= k: a <= k + b
                    e = op->a;
                } else {
                    bound = Sub::make(op->a, bound); // a - b <= k: b >= a - k
                    is_upper = !is_upper;
                    e = op->b;
                }
            } else if (const Mul *op = e.as<Mul>()) {
                const int64_t *k = as_int(op->b);
                Expr u = op->a;
                if (!k) {
                    k = as_int(op->a);
                    u = op->b;
                }
                if (!k || *k <= 0) {
                    return false;
                }
                // u * k <= b: u <= floor(b / k); u * k >= b: u >= ceil(b / k).
                Expr kk = int32(*k);
                bound = is_upper ? Div::make(bound, kk) : Div::make(Add::make(bound, int32(*k - 1)), kk);
                e = u;
            } else {
                return false;
            }
        }
        return false;
    }

    static bool too_large(const Box &b);
    static void collect_terms(const Expr &e, std::vector<const Expr *> &out) {
        if (const And *a = e.as<And>()) {
            collect_terms(a->a, out);
            collect_terms(a->b, out);
        } else {
            out.push_back(&e);
        }
    }
    void push(const std::string &name, Interval i) {
        saved_.emplace_back(name, scope_.count(name) ? std::optional<Interval>(scope_[name]) : std::nullopt);
        scope_[name] = std::move(i);
    }
    void pop(const std::string &name) {
        auto [n, old] = saved_.back();
        saved_.pop_back();
        internal_assert(n == name);
        if (old) {
            scope_[name] = *old;
        } else {
            scope_.erase(name);
        }
    }
    Scope scope_;
    bool provides_, selected_;
    // boxes_selected: expressions a select's condition bounds where its
    // branch being walked is picked.
    std::vector<std::pair<Expr, Interval>> bounded_exprs_;
    std::vector<std::pair<std::string, std::optional<Interval>>> saved_;
};

// Whether e has more than `budget` nodes (counted as a tree, stopping early).
bool larger_than(const Expr &e, int &budget) {
    class Count : public IRVisitor {
    public:
        int &left;
        explicit Count(int &l) : left(l) {}
#define HALIDE_IR_NODE(N)                                                                                              \
    void visit(const N *op) override {                                                                                 \
        if (--left >= 0) {                                                                                             \
            IRVisitor::visit(op);                                                                                      \
        }                                                                                                              \
    }
#include "Halide/IRNodes.def"
#undef HALIDE_IR_NODE
    };
    if (!e.defined()) {
        return budget < 0;
    }
    Count c(budget);
    c.include(e);
    return budget < 0;
}

bool RegionsCalled::too_large(const Box &b) {
    int budget = 400;
    for (const Interval &i : b) {
        if (larger_than(i.min, budget) || larger_than(i.max, budget)) {
            return true;
        }
    }
    return larger_than(b.used, budget);
}

} // namespace

Box box_union(const Box &a, const Box &b) {
    internal_assert(a.size() == b.size());
    // A region never used (a select's branch its constant condition never picks) adds nothing.
    if (b.used.defined() && is_const_zero(b.used)) {
        return a;
    }
    if (a.used.defined() && is_const_zero(a.used)) {
        return b;
    }
    Box hull;
    for (size_t i = 0; i < a.size(); i++) {
        hull.push_back(interval_union(a[i], b[i]));
    }
    if (!a.used.defined() || !b.used.defined() || equal(a.used, b.used)) {
        // Where one may be unused, the other's ends alone are exact: the
        // hull where both are used, the used one's otherwise.
        const Box *cond = !a.used.defined() && b.used.defined()   ? &b
                          : a.used.defined() && !b.used.defined() ? &a
                                                                  : nullptr;
        if (!cond) {
            hull.used = a.used; // both always, or both under one condition
            return hull;
        }
        const Box &other = cond == &a ? b : a;
        Box out;
        for (size_t i = 0; i < a.size(); i++) {
            auto pick = [&](const Expr &h, const Expr &o) {
                return !h.defined() || h.same_as(o) ? h : Select::make(cond->used, h, o);
            };
            out.push_back({pick(hull[i].min, other[i].min), pick(hull[i].max, other[i].max)});
        }
        int budget = 400;
        bool large = false;
        for (const Interval &i : out) {
            large = large || larger_than(i.min, budget) || larger_than(i.max, budget);
        }
        return large ? hull : out;
    }
    // Both conditional: each alone where only it is used.
    Box out;
    Expr both = And::make(a.used, b.used);
    for (size_t i = 0; i < a.size(); i++) {
        auto pick = [&](const Expr &h, const Expr &x, const Expr &y) {
            return !h.defined() ? h : Select::make(both, h, Select::make(a.used, x, y));
        };
        out.push_back({pick(hull[i].min, a[i].min, b[i].min), pick(hull[i].max, a[i].max, b[i].max)});
    }
    out.used = Or::make(a.used, b.used);
    int budget = 400;
    bool large = larger_than(out.used, budget);
    for (const Interval &i : out) {
        large = large || larger_than(i.min, budget) || larger_than(i.max, budget);
    }
    if (large) {
        hull.used = out.used;
        return hull;
    }
    return out;
}

Box box_intersection(const Box &a, const Box &b) {
    internal_assert(a.size() == b.size());
    Box out;
    for (size_t i = 0; i < a.size(); i++) {
        const Interval &x = a[i], &y = b[i];
        Expr lo = !x.min.defined() ? y.min : !y.min.defined() ? x.min : make_max(x.min, y.min);
        Expr hi = !x.max.defined() ? y.max : !y.max.defined() ? x.max : make_min(x.max, y.max);
        out.push_back({lo, hi});
    }
    // Either's condition is a sound one: nothing is read where it fails.
    out.used = !a.used.defined() ? b.used : !b.used.defined() ? a.used : And::make(a.used, b.used);
    return out;
}

std::map<std::string, Box> boxes_required(const Stmt &s, const Scope &outer) {
    RegionsCalled r(outer, false);
    r.include(s);
    return r.boxes;
}

std::map<std::string, Box> boxes_touched(const Stmt &s, const Scope &outer) {
    RegionsCalled r(outer, true);
    r.include(s);
    return r.boxes;
}

std::map<std::string, Box> boxes_selected(const Stmt &s, const Scope &outer) {
    RegionsCalled r(outer, false, true);
    r.include(s);
    return r.boxes;
}

} // namespace Internal
} // namespace Halide
