// See Passes.h: loop partitioning. A loop whose body takes a `likely`
// branch only in part of its range (a clamp at an image's edge, a boundary
// condition's select) becomes three loops:
//
//   for v in [min, lo)        the body as it was (the prologue)
//   for v in [lo, hi]         the body with each likely branch taken (steady)
//   for v in (hi, max]        the body as it was (the epilogue)
//
// where [lo, hi] is a range over which every such branch is provably
// taken. The branches recognised (after `likely` marks them):
//
//   min(likely(a), b) is a where a <= b;   max(likely(a), b) is a where a >= b
//   select(c, likely(t), f) is t where c;  select(c, t, likely(f)) is f where !c
//   select(likely(c), t, f) is t where c
//   if (likely(c) && ...) s is s where c (the guard of a GuardWithIf tail:
//   the steady state runs unguarded, the epilogue keeps the guard)
//
// likely_if_innermost(x) marks the same, but only for a loop with no loop
// inside (vectorized ones aside, which become vector code): outer loops
// are not partitioned on it.
// A taken min/max stays marked (likely(a)), so a clamp's outer max sees it.
// The side a taken min/max drops is not evaluated in the steady state: a
// require() in it (a boundary condition's extent) is checked before the
// loops instead, or, varying inside the loop, keeps the clamp.
// The range is found by solving each condition for v, conservatively: a
// smaller range only moves iterations into the prologue or epilogue, which
// compute the same values. Sums, differences, products and quotients (by
// constants) of v are solved, and mins and maxes of them; inner loops' variables count at their extremes
// (the condition must hold for every inner iteration); lets inside the loop
// are expanded, up to a size (kMaxExpandedLet): lets that use each other
// several times grow exponentially when expanded, and a let past the limit
// stays an opaque name, so conditions that need it are not solved.
// Conditions the solver cannot handle leave their branch as it is.
// The prologue and epilogue keep the body as it came: inner loops are
// partitioned only in the steady state (except innermost loops directly
// inside: see PartitionLoops::visit). So a loop is partitioned only for
// a branch left in its body's main line, outside the prologues and
// epilogues of the loops inside: a branch there is one an inner loop has
// already split off (or one its edges keep), and partitioning the outer
// loop for it would only trade the inner loops' partitions at its own
// edges for the raw body (a 5x5 Gaussian in 256-wide tiles: the first and
// last tile of each row, a quarter of the image, back to gathers).
// A loop whose body has more loops than kMaxLoopsInPartitionedBody (inner
// loops already partitioned) is not partitioned (but by Partition::Always):
// its edges would copy them twice, and unrolled and specialized copies of a
// nest multiply that (upstream partitions outer loops first, so the inner
// loops of its steady state seldom split again).
// Runs before vectorization, so the steady state of a vectorized loop
// loads densely instead of gathering clamped indices.
// A loop of small constant extent with no loop inside (a tile's row of
// vectors) also keeps its whole range as a fast path, for the iterations
// of the loops around it where the steady state covers that range (the
// tiles away from the image's edges):
//
//   if (lo <= min && max <= hi) for v in [min, max] (steady) else (the three loops)
//
// Its constant trip count lets codegen unroll it fully, as it does the
// same loop without a boundary condition, where the steady loop's
// variable bounds left a loop counter, sign extensions and spills per
// vector.
#include <algorithm>
#include <functional>
#include <map>
#include <set>
#include <vector>

#include "Halide/Error.h"
#include "Halide/IREquality.h"
#include "Halide/IRMutator.h"
#include "Halide/IROperator.h"
#include "Halide/IRVisitor.h"
#include "analysis/Interval.h"
#include "ir/ShareSubexpressions.h"
#include "ir/Substitute.h"
#include "ir/UsesVars.h"
#include "lower/InnerLoops.h"
#include "lower/Passes.h"

namespace Halide {
namespace Internal {
namespace {

// likely(x) or likely_if_innermost(x).
bool is_likely(const Expr &e) {
    const Call *c = e.as<Call>();
    return c && c->call_type == Call::Intrinsic && (c->name == "likely" || c->name == "likely_if_innermost") &&
           c->args.size() == 1;
}

bool is_likely_if_innermost(const Expr &e) {
    return is_likely(e) && e.as<Call>()->name == "likely_if_innermost";
}

// How deep the loops in `s` nest, vectorized loops (which become vector
// code) not counted: 0 for none, 1 for loops with no loop inside.
int loop_depth(const Stmt &s) {
    class Depth : public IRVisitor {
    public:
        int depth = 0, max_depth = 0;
        using IRVisitor::visit;
        void visit(const For *op) override {
            int counted = op->for_type != ForType::Vectorized ? 1 : 0;
            depth += counted;
            max_depth = std::max(max_depth, depth);
            IRVisitor::visit(op);
            depth -= counted;
        }
    } d;
    d.include(s);
    return d.max_depth;
}

// How many loops `s` has, vectorized ones (which become vector code) not counted.
int loop_count(const Stmt &s) {
    class Count : public IRVisitor {
    public:
        int count = 0;
        using IRVisitor::visit;
        void visit(const For *op) override {
            count += op->for_type != ForType::Vectorized ? 1 : 0;
            IRVisitor::visit(op);
        }
    } c;
    c.include(s);
    return c.count;
}

// Whether `s` has a vectorized loop.
bool has_vectorized_loop(const Stmt &s) {
    class Find : public IRVisitor {
    public:
        bool found = false;
        using IRVisitor::visit;
        void visit(const For *op) override {
            found = found || op->for_type == ForType::Vectorized;
            IRVisitor::visit(op);
        }
    } f;
    f.include(s);
    return f.found;
}

// Whether `s` has a loop with a loop inside (vectorized loops aside).
bool has_loop_nest(const Stmt &s) {
    return loop_depth(s) > 1;
}

// The most loops (vectorized ones not counted, inner loops already
// partitioned) a loop's body may have for the loop to be partitioned. A
// stencil's row loop has up to 4 (its tile's row of vectors in three parts
// and the fast path); the partitioned prologue and epilogue copy the body's
// loops, so each level of a deep nest partitioned adds two copies of all
// below it, and unrolled copies of a nest (specialize x unroll x tails)
// multiply that again: 400 loops and 20 s of LLVM for a 2x4 output of a
// random pipeline (differential seed 2 kernel 166) where upstream makes 130.
constexpr int kMaxLoopsInPartitionedBody = 8;

// The largest constant extent of a loop given a fast path over its whole
// range (its steady state copied once more).
constexpr int64_t kMaxFastPathExtent = 64;

// The largest tree (in nodes) a loop-invariant let may expand to.
constexpr size_t kMaxExpandedLet = 2000;

// The largest tree (in nodes, lets expanded) whose bounds over the inner
// loops the solver takes: the bounds of a product of two non-constant
// ranges are the least and greatest of four products of their ends, so
// nested products (e = e * e + y, again and again) grow eightfold per
// level. Past it a condition is not solved (its branch stays). Upstream's
// edge conditions (clamps, boundary conditions, tails) are tens of nodes.
constexpr uint64_t kMaxBoundedTree = 256;

const Expr &likely_arg(const Expr &e) {
    return e.as<Call>()->args[0];
}

// Does e use v or a name in `names` (the lets that depend on v)? The
// expressions solved here share subtrees (expanded lets, bounds): as
// trees they can be exponentially larger than as graphs, which the helper
// walks.
bool mentions(const Expr &e, const std::map<std::string, Expr> &names, const std::string &v) {
    return expr_uses_var_if(e, [&](const std::string &n) { return n == v || names.count(n) != 0; });
}

// A range of the loop variable; an undefined end is unbounded.
struct Range1 {
    Expr lo, hi;
    bool ok = true;
};

Range1 failed() {
    Range1 r;
    r.ok = false;
    return r;
}

// Solves `e <= c` (le) or `e >= c` (!le) for the loop variable v: a range of
// v over which it holds for every value of the inner loops' variables.
class Solver {
public:
    Solver(const std::string &v, const Expr &loop_min, const Expr &loop_max, const std::map<std::string, Expr> &lets,
           const std::map<std::string, Expr> &invariant_lets, const Scope &inner)
        : v_(v), min_(loop_min), max_(loop_max), lets_(lets), invariant_lets_(invariant_lets), inner_(inner) {}

    Range1 solve(const Expr &e, bool le, const Expr &c) {
        if (!depends(e)) {
            // All or nothing, decided once per loop entry; an unbounded side
            // (extreme() undefined) decides nothing.
            Expr side = extreme(e, le);
            if (!side.defined() || !c.defined()) {
                return failed();
            }
            Expr holds = le ? LE::make(side, c) : GE::make(side, c);
            if (depends(holds)) {
                return failed();
            }
            Range1 r;
            if (le) {
                r.hi = Select::make(holds, max_, Sub::make(min_, int32_const(1)));
            } else {
                r.lo = Select::make(holds, min_, Add::make(max_, int32_const(1)));
            }
            return r;
        }
        if (e.type() != Int(32)) {
            return failed();
        }
        if (const Variable *var = e.as<Variable>()) {
            if (var->name == v_) {
                Range1 r;
                (le ? r.hi : r.lo) = c;
                return r;
            }
            auto let = lets_.find(var->name);
            return let != lets_.end() ? solve(let->second, le, c) : failed();
        }
        if (is_likely(e)) {
            return solve(likely_arg(e), le, c);
        }
        if (const Call *call = e.as<Call>();
            call && call->call_type == Call::Intrinsic && call->name == "promise_clamped" && call->args.size() == 3) {
            return solve(call->args[0], le, c); // a split's loop variable: the value it promises a range of
        }
        if (const Add *op = e.as<Add>()) {
            if (!depends(op->b)) {
                Expr b = extreme(op->b, le);
                return b.defined() ? solve(op->a, le, Sub::make(c, b)) : failed();
            }
            if (!depends(op->a)) {
                Expr a = extreme(op->a, le);
                return a.defined() ? solve(op->b, le, Sub::make(c, a)) : failed();
            }
            return failed();
        }
        if (const Sub *op = e.as<Sub>()) {
            if (!depends(op->b)) { // a - b <= c  <=  a <= c + min(b)
                Expr b = extreme(op->b, !le);
                return b.defined() ? solve(op->a, le, Add::make(c, b)) : failed();
            }
            if (!depends(op->a)) { // a - b <= c  <=>  b >= a - c, for the largest a
                Expr a = extreme(op->a, le);
                return a.defined() ? solve(op->b, !le, Sub::make(a, c)) : failed();
            }
            return failed();
        }
        if (const Mul *op = e.as<Mul>()) {
            const int64_t *k = as_const_int(op->b);
            if (!k || *k == 0 || depends(op->b)) {
                return failed();
            }
            if (*k < 0) { // a * k <= c  <=>  a * -k >= -c
                return solve(Mul::make(op->a, int32_const(-*k)), !le, Sub::make(int32_const(0), c));
            }
            // Division rounds down: a * k <= c <=> a <= c / k, a * k >= c <=> a >= (c + k - 1) / k.
            Expr bound = le ? Div::make(c, op->b) : Div::make(Add::make(c, int32_const(*k - 1)), op->b);
            return solve(op->a, le, bound);
        }
        if (const Div *op = e.as<Div>()) {
            // By a positive constant (a Bayer quad's x / 2): division rounds
            // down, so a / k <= c <=> a <= c * k + k - 1 and a / k >= c <=> a >= c * k.
            const int64_t *k = as_const_int(op->b);
            if (!k || *k <= 0 || depends(op->b)) {
                return failed();
            }
            Expr scaled = Mul::make(c, op->b);
            return solve(op->a, le, le ? Add::make(scaled, int32_const(*k - 1)) : scaled);
        }
        if (e.as<Min>() || e.as<Max>()) {
            // min(a, b) <= c when either is; >= c when both are (max: the other way).
            bool is_min = e.as<Min>() != nullptr;
            Expr a = is_min ? e.as<Min>()->a : e.as<Max>()->a;
            Expr b = is_min ? e.as<Min>()->b : e.as<Max>()->b;
            Range1 ra = solve(a, le, c), rb = solve(b, le, c);
            return is_min == le ? either(ra, rb) : both(ra, rb);
        }
        return failed();
    }

    static Range1 both(const Range1 &a, const Range1 &b) {
        if (!a.ok || !b.ok) {
            return failed();
        }
        Range1 r;
        r.lo = !a.lo.defined() ? b.lo : !b.lo.defined() ? a.lo : Max::make(a.lo, b.lo);
        r.hi = !a.hi.defined() ? b.hi : !b.hi.defined() ? a.hi : Min::make(a.hi, b.hi);
        return r;
    }

    // A range inside the union of two: both prefixes (or suffixes) merge,
    // otherwise one of them will do.
    static Range1 either(const Range1 &a, const Range1 &b) {
        if (!a.ok || !b.ok) {
            return a.ok ? a : b;
        }
        if (!a.lo.defined() && !b.lo.defined()) {
            Range1 r;
            r.hi = Max::make(a.hi, b.hi);
            return r;
        }
        if (!a.hi.defined() && !b.hi.defined()) {
            Range1 r;
            r.lo = Min::make(a.lo, b.lo);
            return r;
        }
        return a;
    }

    bool depends(const Expr &e) const { return mentions(e, lets_, v_); }

    // The largest (upper) or smallest value of e (not depending on v) over
    // the inner loops, in terms of names defined outside the loop.
    Expr extreme(const Expr &e, bool upper) const {
        Expr expanded = substitute(invariant_lets_, e);
        if (tree_size(expanded) > kMaxBoundedTree) {
            return Expr();
        }
        Interval i = bounds_of_expr(expanded, inner_);
        Expr r = upper ? i.max : i.min;
        return r.defined() && !depends(r) ? r : Expr();
    }

private:
    std::string v_;
    Expr min_, max_;
    const std::map<std::string, Expr> &lets_, &invariant_lets_;
    const Scope &inner_;
};

// The prologue and epilogue loops made so far (and their copies in outer
// steady states), by node.
class EdgeLoops {
public:
    bool contains(const For *op) const { return nodes_.count(op) != 0; }
    void add(const Stmt &s) {
        if (s.as<For>() && nodes_.insert(s.get()).second) {
            kept_.push_back(s);
        }
    }

private:
    std::set<const IRNode *> nodes_;
    std::vector<Stmt> kept_; // keeps the nodes alive (and their addresses unique)
};

// The body of loop v in its steady state: every likely branch whose
// condition solves for v is taken; `range` collects where all of them are.
class SteadyState : public IRMutator {
public:
    SteadyState(const std::string &v, const Expr &loop_min, const Expr &loop_max, bool innermost, EdgeLoops &edges)
        : v_(v), min_(loop_min), max_(loop_max), innermost_(innermost), edges_(edges) {}
    Range1 range;
    std::vector<Stmt> hoisted_checks; // the require() checks of the sides dropped
    bool found = false;
    bool found_in_main_line = false; // a branch taken outside the inner loops' edges
    bool nested = false;             // a likely branch in the side of a taken select that is dropped

    // The likely() marks taken (as they were found); the edges' partition
    // leaves them unmarked.
    const std::vector<Expr> &taken() const { return taken_; }
    // Marks not to take (the outer partition's, for its edges).
    void ignore(const std::vector<Expr> &marks) { ignored_ = &marks; }

    using IRMutator::visit;

    Expr visit(const Min *op) override { return clamp_side(op->a, op->b, true, self_expr(op)); }
    Expr visit(const Max *op) override { return clamp_side(op->a, op->b, false, self_expr(op)); }

    // A taken select drops its other side: the likely branches there do not
    // narrow the steady state; they mark the common case of the edges
    // (`nested`), which an innermost loop's edges are partitioned on again.
    Expr visit(const Select *op) override {
        Expr cond = mutate(op->condition);
        if (marks(cond) && take(likely_arg(cond), true)) {
            taken_.push_back(cond);
            taken_.push_back(op->condition);
            note_nested(op->false_value);
            return mutate(op->true_value);
        }
        if (marks(op->true_value) && take(cond, true)) {
            taken_.push_back(op->true_value);
            note_nested(op->false_value);
            return mutate(op->true_value);
        }
        if (marks(op->false_value) && take(cond, false)) {
            taken_.push_back(op->false_value);
            note_nested(op->true_value);
            return mutate(op->false_value);
        }
        Expr t = mutate(op->true_value), f = mutate(op->false_value);
        if (cond.same_as(op->condition) && t.same_as(op->true_value) && f.same_as(op->false_value)) {
            return op;
        }
        return Select::make(cond, t, f);
    }

    // if (likely(c1) && ... && other) body (the guard of a GuardWithIf
    // tail): the likely terms that solve for v hold in the steady state
    // and are dropped; with none left, so is the if.
    Stmt visit(const IfThenElse *op) override {
        Expr cond = mutate(op->condition);
        Stmt then_case = mutate(op->then_case);
        Stmt else_case = op->else_case.defined() ? mutate(op->else_case) : Stmt();
        std::vector<Expr> terms, kept;
        std::function<void(const Expr &)> split = [&](const Expr &e) {
            if (const And *a = e.as<And>()) {
                split(a->a);
                split(a->b);
            } else {
                terms.push_back(e);
            }
        };
        split(cond);
        for (const Expr &t : terms) {
            if (!(marks(t) && take(likely_arg(t), true))) {
                kept.push_back(t);
            } else {
                taken_.push_back(t);
            }
        }
        if (kept.empty()) {
            return then_case;
        }
        Expr rest = kept[0];
        for (size_t i = 1; i < kept.size(); i++) {
            rest = And::make(rest, kept[i]);
        }
        return IfThenElse::make(kept.size() == terms.size() ? cond : rest, then_case, else_case);
    }

    Stmt visit(const LetStmt *op) override { return let_in_scope<LetStmt, Stmt>(op); }
    Expr visit(const Let *op) override { return let_in_scope<Let, Expr>(op); }

    Stmt visit(const For *op) override {
        bool edge = edges_.contains(op);
        in_edge_ += edge ? 1 : 0;
        Stmt s = visit_loop(op);
        in_edge_ -= edge ? 1 : 0;
        if (edge) {
            edges_.add(s);
        }
        return s;
    }

private:
    Stmt visit_loop(const For *op) {
        Expr lo = substitute(invariant_lets_, op->min);
        Expr hi = substitute(invariant_lets_, Sub::make(Add::make(op->min, op->extent), int32_const(1)));
        Interval li = bounds_of_expr(lo, inner_), hi_i = bounds_of_expr(hi, inner_);
        inside_.insert(op->name);
        if (li.min.defined() && hi_i.max.defined() && !solver_depends(li.min) && !solver_depends(hi_i.max)) {
            inner_[op->name] = {li.min, hi_i.max};
        } else {
            // Its range moves with v: conditions on it are not solved.
            lets_[op->name] = Call::make(Int(32), "unsolvable", {Variable::make(Int(32), v_)}, Call::Extern);
        }
        Stmt body = mutate(op->body);
        inner_.erase(op->name);
        lets_.erase(op->name);
        inside_.erase(op->name);
        return For::make(op->name, op->min, op->extent, op->for_type, body);
    }

    bool solver_depends(const Expr &e) const { return mentions(e, lets_, v_); }

    // A likely branch this loop partitions on: any likely(), and
    // likely_if_innermost() in an innermost loop.
    bool marks(const Expr &e) const {
        if (!is_likely(e) || (!innermost_ && is_likely_if_innermost(e))) {
            return false;
        }
        return !ignored_ || std::none_of(ignored_->begin(), ignored_->end(),
                                         [&](const Expr &m) { return m.same_as(e) || equal(m, e); });
    }

    // Whether `dropped` (a select's side not taken) has a likely branch this
    // loop would partition on.
    void note_nested(const Expr &dropped) {
        if (nested) {
            return;
        }
        class Find : public IRVisitor {
        public:
            explicit Find(const SteadyState &s) : s_(s) {}
            bool found = false;
            using IRVisitor::visit;
            void visit(const Call *op) override {
                found = found || s_.marks(Expr(op));
                IRVisitor::visit(op);
            }

        private:
            const SteadyState &s_;
        } find(*this);
        find.include(dropped);
        nested = find.found;
    }

    Solver solver() const { return Solver(v_, min_, max_, lets_, invariant_lets_, inner_); }

    template <typename Node, typename Body> Body let_in_scope(const Node *op) {
        Expr value = mutate(op->value);
        define(op->name, value);
        Body body = mutate(op->body);
        undefine(op->name);
        return Node::make(op->name, value, body);
    }

    // A let inside the loop: expanded when solving if it depends on v,
    // substituted into the loop-invariant parts otherwise.
    void define(const std::string &name, const Expr &value) {
        inside_.insert(name);
        if (solver_depends(value)) {
            lets_[name] = value;
        } else {
            uint64_t size = tree_size(value, &invariant_size_);
            if (size <= kMaxExpandedLet) {
                invariant_lets_[name] = substitute(invariant_lets_, value);
                invariant_size_[name] = size;
            }
        }
    }
    void undefine(const std::string &name) {
        inside_.erase(name);
        lets_.erase(name);
        invariant_lets_.erase(name);
        invariant_size_.erase(name);
    }

    // A range is usable where it is computed (before the loop): it may not
    // name anything defined inside.
    bool usable(const Range1 &r) const {
        if (!r.ok) {
            return false;
        }
        for (const Expr &e : {r.lo, r.hi}) {
            if (e.defined() && expr_uses_var_if(e, [&](const std::string &n) { return n == v_ || inside_.count(n); })) {
                return false;
            }
        }
        return true;
    }

    Expr clamp_side(const Expr &a0, const Expr &b0, bool is_min, const Expr &self) {
        Expr a = mutate(a0), b = mutate(b0);
        for (int side = 0; side < 2; side++) {
            const Expr &l = side == 0 ? a : b, &other = side == 0 ? b : a;
            if (!marks(l) || solver_depends(other)) {
                continue;
            }
            // min(likely(x), b) is x where x <= b (for every inner b: its
            // least); max: where x >= b.
            Solver s = solver();
            Expr bound = s.extreme(other, !is_min);
            if (!bound.defined() || !s.depends(likely_arg(l))) {
                continue;
            }
            // The steady state drops `other`: its require() checks are made
            // before the loop.
            std::vector<Stmt> checks;
            if (!hoist_requires(other, checks)) {
                continue;
            }
            Range1 r = s.solve(likely_arg(l), is_min, bound);
            if (usable(r)) {
                add(r);
                taken_.push_back(l);
                taken_.push_back(side == 0 ? a0 : b0);
                for (const Stmt &c : checks) {
                    if (std::none_of(hoisted_checks.begin(), hoisted_checks.end(),
                                     [&](const Stmt &h) { return equal(h, c); })) {
                        hoisted_checks.push_back(c);
                    }
                }
                return l;
            }
        }
        if (a.same_as(a0) && b.same_as(b0)) {
            return self;
        }
        return is_min ? Min::make(a, b) : Max::make(a, b);
    }

    // Checks of the require() calls in `dropped` (a side the steady state
    // no longer evaluates), to make before the loop instead, as upstream's
    // loop bounds check them; false when one varies inside the loop.
    bool hoist_requires(const Expr &dropped, std::vector<Stmt> &checks) const {
        class Requires : public IRVisitor {
        public:
            std::vector<const Call *> found;
            using IRVisitor::visit;
            void visit(const Call *op) override {
                if (op->call_type == Call::Intrinsic && op->name == "require" && op->args.size() >= 2) {
                    found.push_back(op);
                }
                IRVisitor::visit(op);
            }
        } requires;
        requires.include(dropped);
        for (const Call *c : requires.found) {
            std::vector<Expr> args;
            for (const Expr &a : c->args) {
                args.push_back(substitute(invariant_lets_, a));
                if (expr_uses_var_if(args.back(), [&](const std::string &n) {
                        return n == v_ || inside_.count(n) || inner_.count(n) || lets_.count(n);
                    })) {
                    return false;
                }
            }
            // The message require()'s code generation makes: its values.
            Expr message =
                Call::make(Handle(), "stringify", std::vector<Expr>(args.begin() + 1, args.end()), Call::Intrinsic);
            Expr error = Call::make(Int(32), "halide_error_requirement_failed",
                                    {Variable::make(Handle(), "__user_context"), StringImm::make("false"), message},
                                    Call::Extern);
            checks.push_back(AssertStmt::make(args[0], error));
        }
        return true;
    }

    // Take a select's branch where `cond` is `want`, if that solves for v.
    bool take(const Expr &cond, bool want) {
        Range1 r = solve_condition(cond, want);
        if (!usable(r)) {
            return false;
        }
        add(r);
        return true;
    }

    Range1 solve_condition(const Expr &cond, bool want) {
        Solver s = solver();
        if (!s.depends(cond)) {
            return failed(); // the same everywhere in this loop: nothing to partition
        }
        if (is_likely(cond)) {
            return solve_condition(likely_arg(cond), want);
        }
        if (const Not *op = cond.as<Not>()) {
            return solve_condition(op->a, !want);
        }
        if (cond.as<And>() || cond.as<Or>()) {
            bool is_and = cond.as<And>() != nullptr;
            Expr a = is_and ? cond.as<And>()->a : cond.as<Or>()->a, b = is_and ? cond.as<And>()->b : cond.as<Or>()->b;
            // !(a && b) is !a || !b.
            bool conjunction = is_and == want;
            Range1 ra = solve_side(a, want), rb = solve_side(b, want);
            return conjunction ? Solver::both(ra, rb) : Solver::either(ra, rb);
        }
        // Integer comparisons as x <= c or x >= c.
        Expr a, b;
        bool le = false;
        int adjust = 0;
        if (const LE *op = cond.as<LE>()) {
            a = op->a, b = op->b, le = true;
        } else if (const LT *op = cond.as<LT>()) {
            a = op->a, b = op->b, le = true, adjust = -1;
        } else if (const GE *op = cond.as<GE>()) {
            a = op->a, b = op->b;
        } else if (const GT *op = cond.as<GT>()) {
            a = op->a, b = op->b, adjust = 1;
        } else {
            return failed();
        }
        if (a.type() != Int(32) || b.type() != Int(32)) {
            return failed();
        }
        if (!want) { // !(a <= b) is a >= b + 1; !(a < b) is a >= b
            le = !le;
            adjust = le ? (adjust == 0 ? -1 : 0) : (adjust == 0 ? 1 : 0);
        }
        // a <= b + adjust  <=>  a - b <= adjust
        return s.solve(Sub::make(a, b), le, int32_const(adjust));
    }

    Range1 solve_side(const Expr &cond, bool want) {
        if (!solver().depends(cond)) {
            // Invariant: taken everywhere or nowhere.
            Expr c = substitute(invariant_lets_, cond);
            Expr holds = want ? c : Not::make(c);
            Range1 r;
            r.hi = Select::make(holds, max_, Sub::make(min_, int32_const(1)));
            return r;
        }
        return solve_condition(cond, want);
    }

    void add(const Range1 &r) {
        range = found ? Solver::both(range, r) : r;
        found = true;
        found_in_main_line = found_in_main_line || in_edge_ == 0;
    }

    std::string v_;
    Expr min_, max_;
    std::map<std::string, Expr> lets_, invariant_lets_;
    std::map<std::string, uint64_t> invariant_size_; // tree_size of each invariant let, expanded
    std::set<std::string> inside_;
    Scope inner_;
    bool innermost_;
    EdgeLoops &edges_;
    int in_edge_ = 0; // depth inside the prologues and epilogues of inner loops
    std::vector<Expr> taken_;
    const std::vector<Expr> *ignored_ = nullptr;
};

class PartitionLoops : public IRMutator {
public:
    explicit PartitionLoops(const std::map<std::string, Partition> &policies) : policies_(policies) {}
    using IRMutator::visit;

    Stmt visit(const For *op) override {
        Stmt body = mutate(op->body); // inner loops first
        auto policy = policies_.find(op->name);
        Partition partition = policy == policies_.end() ? Partition::Auto : policy->second;
        if (op->for_type == ForType::Vectorized || op->for_type == ForType::Unrolled || partition == Partition::Never) {
            return body.same_as(op->body) ? self_stmt(op)
                                          : For::make(op->name, op->min, op->extent, op->for_type, body);
        }
        return partition_loop(op, body, partition, nullptr);
    }

private:
    // Loop op (its inner loops `body`) in three parts. `ignored`: for the
    // edges of an outer partition, the marks it took, left as they are.
    Stmt partition_loop(const For *op, const Stmt &body, Partition partition, const std::vector<Expr> *ignored) {
        std::string prefix = op->name + (ignored ? ".near" : ".steady");
        Expr loop_max = Sub::make(Add::make(op->min, op->extent), int32_const(1));
        SteadyState steady_state(op->name, op->min, loop_max, !has_inner_loop(body), edges_);
        if (ignored) {
            steady_state.ignore(*ignored);
        }
        Stmt steady = steady_state.mutate(body);
        user_assert(ignored || partition != Partition::Always || (steady_state.found && steady_state.range.ok))
            << "Loop " << op->name << " is scheduled with Partition::Always, but no likely() branch in it "
            << "(a clamp or boundary condition) holds over a range of it the compiler can find, so it can't "
            << "be partitioned.";
        // Past a budget of loops in its body, a loop is not partitioned (but by
        // Partition::Always): its prologue and epilogue would copy them twice.
        bool small = loop_count(body) <= kMaxLoopsInPartitionedBody;
        bool wanted = (steady_state.found_in_main_line && small) || partition == Partition::Always;
        if (!steady_state.found || !steady_state.range.ok || !wanted) {
            return body.same_as(op->body) ? self_stmt(op)
                                          : For::make(op->name, op->min, op->extent, op->for_type, body);
        }
        // lo in [min, max + 1], hi in [lo - 1, max]: the three loops tile the range.
        Expr lo = steady_state.range.lo.defined() ? steady_state.range.lo : op->min;
        Expr hi = steady_state.range.hi.defined() ? steady_state.range.hi : loop_max;
        Expr lo_v = Variable::make(Int(32), prefix + "_min"), hi_v = Variable::make(Int(32), prefix + "_max");
        Expr end = Add::make(loop_max, int32_const(1));
        lo = Min::make(Max::make(lo, op->min), end);
        hi = Min::make(Max::make(hi, Sub::make(lo_v, int32_const(1))), loop_max);
        Expr after = Add::make(hi_v, int32_const(1));
        // The prologue and epilogue run the body as it came, its inner loops
        // not partitioned: partitioned there too, every level of a loop nest
        // would triple the code below it (3^depth copies). They cover only
        // the edges, where the unpartitioned inner loops cost little. One
        // level is the exception: when the loops inside have no loop inside
        // them, the edges keep those loops partitioned (the rows of a tile
        // beyond the image's top and bottom load densely but for their
        // first and last vectors), which only triples the innermost loops.
        const Stmt &edge = has_loop_nest(op->body) ? op->body : body;
        Stmt prologue = For::make(op->name, op->min, Sub::make(lo_v, op->min), op->for_type, edge);
        Stmt epilogue = For::make(op->name, after, Sub::make(end, after), op->for_type, edge);
        if (steady_state.nested && !ignored && !has_inner_loop(body) && has_vectorized_loop(body)) {
            // The likely branches of the sides the steady state dropped (a
            // boundary condition's cheap form near the image's edge) split
            // the edges of an innermost loop around vector code again, the
            // marks taken here left as they are. (Scalar edges compute
            // only the lanes they need; splitting them would add loops.)
            prologue = partition_loop(prologue.as<For>(), edge, Partition::Auto, &steady_state.taken());
            epilogue = partition_loop(epilogue.as<For>(), edge, Partition::Auto, &steady_state.taken());
        }
        edges_.add(prologue);
        edges_.add(epilogue);
        std::vector<Stmt> parts = steady_state.hoisted_checks;
        Stmt middle = For::make(op->name, lo_v, Sub::make(after, lo_v), op->for_type, steady);
        if (ignored) {
            edges_.add(middle); // all of an edge
        }
        Stmt three = Block::make({prologue, middle, epilogue});
        const int64_t *extent = as_const_int(op->extent);
        if (extent && *extent > 1 && *extent <= kMaxFastPathExtent && !has_inner_loop(body)) {
            Expr whole = And::make(LE::make(lo_v, op->min), LE::make(loop_max, hi_v));
            three = IfThenElse::make(whole, For::make(op->name, op->min, op->extent, op->for_type, steady), three);
        }
        parts.push_back(three);
        Stmt s = Block::make(parts);
        s = LetStmt::make(prefix + "_max", hi, s);
        return LetStmt::make(prefix + "_min", lo, s);
    }

    const std::map<std::string, Partition> &policies_;
    EdgeLoops edges_;
};

} // namespace

bool has_inner_loop(const Stmt &s) {
    return loop_depth(s) > 0;
}

Stmt partition_loops(const Stmt &s, const std::map<std::string, Partition> &policies) {
    return PartitionLoops(policies).mutate(s);
}

} // namespace Internal
} // namespace Halide
