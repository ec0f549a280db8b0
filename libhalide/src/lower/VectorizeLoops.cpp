// See Passes.h: loops scheduled with vectorize() become vector code.
//
// A vectorized loop `for (x, min, n)` of constant extent becomes
// `let x = min in body'`, where body' computes all n iterations at once: the
// loop variable is the vector ramp(x, 1, n), and every expression that
// depends on it is widened to n lanes. Scalars meeting vectors are
// broadcast; ramps stay ramps under + - * by scalars, so a Load or Store
// whose index is ramp(base, 1, n) is one dense vector access in codegen.
//
// A per-lane condition (an if whose condition is a vector: the guard
// x < extent of a GuardWithIf or Predicate tail, an RDom::where) is
// predicated: its loads and stores are masked by the condition, so the
// lanes where it fails neither read nor write memory, and the vector runs
// as one, as a select would. Two intrinsics carry the masks to codegen
// (this pass is the last before it), which emits LLVM's masked loads and
// stores (masked moves on AVX-512, vmaskmov on AVX2):
//
//   masked_load(load, mask)             the load's lanes where mask holds, else 0
//   Store(f, masked_store(value, mask), index)   writes only where mask holds
//
// A condition that holds in every lane iff a scalar does (x + 7 < extent)
// also keeps a branch to the unmasked vector: if (all) body else masked.
// A body that can't be masked (a scalar load or other side effect under the
// condition, an assert or print) runs lane by lane when that scalar exists.
// Bodies whose meaning would change per lane in other ways this pass does
// not model (an allocation, a store to a lane-independent place, a vector
// inside an already vectorized loop) stay serial loops, which codegen still
// offers to LLVM's loop vectorizer. A schedule therefore never changes
// results.
#include "Halide/IRMutator.h"
#include "Halide/IROperator.h"
#include "Halide/IRVisitor.h"
#include "Halide/Simplify.h"
#include "ir/Substitute.h"
#include "lower/Passes.h"

namespace Halide {
namespace Internal {
namespace {

bool is_vector(const Expr &e) {
    return e.type().is_vector();
}

// Takes the node, not an Expr: a `const Call *` would silently convert to
// Expr(bool) and never match.
bool is_masked_load(const Call *c) {
    return c && c->call_type == Call::Intrinsic && c->name == "masked_load";
}

// Masks every vector load and store of a widened statement by `mask`
// (merged with the masks already there); `ok` is cleared if something in it
// would still act in the lanes the mask turns off.
class MaskAccesses : public IRMutator {
public:
    explicit MaskAccesses(const Expr &mask) : mask_(mask) {}
    bool ok = true;

    using IRMutator::visit;

private:
    Expr mask_;

    Expr merged(const Expr &other) const { return And::make(mask_, other); }

    Expr visit(const Load *op) override {
        Expr index = mutate(op->index);
        if (!is_vector(index)) {
            ok = false; // a lane-independent read: it would happen with no lane on
            return self_expr(op);
        }
        Expr load = index.same_as(op->index) ? self_expr(op) : Load::make(op->type, op->name, index);
        return Call::make(op->type, "masked_load", {load, mask_}, Call::Intrinsic);
    }

    Expr visit(const Call *op) override {
        if (is_masked_load(op)) {
            const Load *load = op->args[0].as<Load>();
            Expr index = mutate(load->index);
            return Call::make(op->type, "masked_load", {Load::make(load->type, load->name, index), merged(op->args[1])},
                              Call::Intrinsic);
        }
        bool pure = op->call_type == Call::Extern || op->call_type == Call::Halide ||
                    (op->call_type == Call::Intrinsic && op->name != "print" && op->name != "print_when" &&
                     op->name != "require" && op->name != "trace_event" && op->name != "trace_value");
        ok = ok && pure;
        return IRMutator::visit(op);
    }

    Stmt visit(const Store *op) override {
        Expr index = mutate(op->index);
        Expr value = op->value, mask = mask_;
        if (const Call *c = value.as<Call>(); c && c->call_type == Call::Intrinsic && c->name == "masked_store") {
            value = c->args[0];
            mask = merged(c->args[1]);
        }
        value = mutate(value);
        if (!is_vector(index)) {
            ok = false;
            return self_stmt(op);
        }
        return Store::make(op->name, Call::make(value.type(), "masked_store", {value, mask}, Call::Intrinsic), index);
    }

    Stmt visit(const AssertStmt *op) override { return refuse(op); }
    Stmt visit(const Evaluate *op) override { return refuse(op); }
    Stmt visit(const Atomic *op) override { return refuse(op); }
    Stmt visit(const Allocate *op) override { return refuse(op); }
    template <typename N> Stmt refuse(const N *op) {
        ok = false;
        return self_stmt(op);
    }
};

// Widens the body of one vectorized loop; `failed` is set when it cannot.
class Widen : public IRMutator {
public:
    Widen(const std::string &var, int lanes) : var_(var), lanes_(lanes) {}
    bool failed = false;

    using IRMutator::visit;

private:
    std::string var_;
    int lanes_;
    // Let names in scope, innermost last, with whether each holds a vector.
    std::vector<std::pair<std::string, bool>> lets_;

    Expr widen(const Expr &e) const { return is_vector(e) ? e : Broadcast::make(e, lanes_); }

    bool let_is_vector(const std::string &name) const {
        for (auto it = lets_.rbegin(); it != lets_.rend(); ++it) {
            if (it->first == name) {
                return it->second;
            }
        }
        return false;
    }

    Expr visit(const Variable *op) override {
        if (op->name == var_) {
            return Ramp::make(self_expr(op), IntImm::make(op->type, 1), lanes_);
        }
        if (let_is_vector(op->name)) {
            return Variable::make(op->type.with_lanes(lanes_), op->name);
        }
        return self_expr(op);
    }

    Expr visit(const Ramp *op) override { return give_up(op); }
    Expr visit(const Broadcast *op) override { return give_up(op); }
    template <typename N> Expr give_up(const N *op) {
        failed = true;
        return self_expr(op);
    }

    Expr visit(const Cast *op) override {
        Expr v = mutate(op->value);
        if (!is_vector(v)) {
            return v.same_as(op->value) ? self_expr(op) : Cast::make(op->type, v);
        }
        return Cast::make(op->type.with_lanes(lanes_), v);
    }

    // Ramp arithmetic: ramp(b, s) +- scalar, ramp +- ramp and ramp * scalar
    // stay ramps, so dense accesses stay recognizable.
    static const Ramp *as_ramp(const Expr &e) { return e.as<Ramp>(); }
    static Expr scalar_of(const Expr &e) {
        if (const Broadcast *b = e.as<Broadcast>()) {
            return b->value;
        }
        return e.type().is_scalar() ? e : Expr();
    }

    Expr visit(const Add *op) override {
        Expr a = mutate(op->a), b = mutate(op->b);
        if (!is_vector(a) && !is_vector(b)) {
            return rebuild<Add>(op, a, b);
        }
        const Ramp *ra = as_ramp(a), *rb = as_ramp(b);
        Expr sa = scalar_of(a), sb = scalar_of(b);
        if (ra && sb.defined()) {
            return Ramp::make(Add::make(ra->base, sb), ra->stride, lanes_);
        }
        if (rb && sa.defined()) {
            return Ramp::make(Add::make(sa, rb->base), rb->stride, lanes_);
        }
        if (ra && rb) {
            return Ramp::make(Add::make(ra->base, rb->base), simplify(Add::make(ra->stride, rb->stride)), lanes_);
        }
        return Add::make(widen(a), widen(b));
    }

    Expr visit(const Sub *op) override {
        Expr a = mutate(op->a), b = mutate(op->b);
        if (!is_vector(a) && !is_vector(b)) {
            return rebuild<Sub>(op, a, b);
        }
        const Ramp *ra = as_ramp(a), *rb = as_ramp(b);
        Expr sa = scalar_of(a), sb = scalar_of(b);
        if (ra && sb.defined()) {
            return Ramp::make(Sub::make(ra->base, sb), ra->stride, lanes_);
        }
        if (rb && sa.defined()) {
            Expr zero = IntImm::make(rb->stride.type(), 0);
            return Ramp::make(Sub::make(sa, rb->base), simplify(Sub::make(zero, rb->stride)), lanes_);
        }
        if (ra && rb) {
            return Ramp::make(Sub::make(ra->base, rb->base), simplify(Sub::make(ra->stride, rb->stride)), lanes_);
        }
        return Sub::make(widen(a), widen(b));
    }

    Expr visit(const Mul *op) override {
        Expr a = mutate(op->a), b = mutate(op->b);
        if (!is_vector(a) && !is_vector(b)) {
            return rebuild<Mul>(op, a, b);
        }
        const Ramp *ra = as_ramp(a), *rb = as_ramp(b);
        Expr sa = scalar_of(a), sb = scalar_of(b);
        if (ra && sb.defined()) {
            return Ramp::make(Mul::make(ra->base, sb), simplify(Mul::make(ra->stride, sb)), lanes_);
        }
        if (rb && sa.defined()) {
            return Ramp::make(Mul::make(sa, rb->base), simplify(Mul::make(sa, rb->stride)), lanes_);
        }
        return Mul::make(widen(a), widen(b));
    }

    template <typename N> Expr rebuild(const N *op, const Expr &a, const Expr &b) {
        if (a.same_as(op->a) && b.same_as(op->b)) {
            return self_expr(op);
        }
        return N::make(a, b);
    }

    template <typename N> Expr binary(const N *op) {
        Expr a = mutate(op->a), b = mutate(op->b);
        if (!is_vector(a) && !is_vector(b)) {
            return rebuild<N>(op, a, b);
        }
        return N::make(widen(a), widen(b));
    }
    Expr visit(const Div *op) override { return binary(op); }
    Expr visit(const Mod *op) override { return binary(op); }
    Expr visit(const Min *op) override { return binary(op); }
    Expr visit(const Max *op) override { return binary(op); }
    Expr visit(const EQ *op) override { return binary(op); }
    Expr visit(const NE *op) override { return binary(op); }
    Expr visit(const LT *op) override { return binary(op); }
    Expr visit(const LE *op) override { return binary(op); }
    Expr visit(const GT *op) override { return binary(op); }
    Expr visit(const GE *op) override { return binary(op); }
    Expr visit(const And *op) override { return binary(op); }
    Expr visit(const Or *op) override { return binary(op); }

    Expr visit(const Not *op) override {
        Expr a = mutate(op->a);
        return a.same_as(op->a) ? self_expr(op) : Not::make(a);
    }

    Expr visit(const Select *op) override {
        Expr c = mutate(op->condition), t = mutate(op->true_value), f = mutate(op->false_value);
        if (!is_vector(c) && !is_vector(t) && !is_vector(f)) {
            if (c.same_as(op->condition) && t.same_as(op->true_value) && f.same_as(op->false_value)) {
                return self_expr(op);
            }
            return Select::make(c, t, f);
        }
        // A scalar condition may choose between two vectors as it is.
        return Select::make(is_vector(t) || is_vector(f) ? c : widen(c), widen(t), widen(f));
    }

    Expr visit(const Load *op) override {
        Expr index = mutate(op->index);
        if (!is_vector(index)) {
            return index.same_as(op->index) ? self_expr(op) : Load::make(op->type, op->name, index);
        }
        return Load::make(op->type.with_lanes(lanes_), op->name, index);
    }

    Expr visit(const Call *op) override {
        bool changed = false;
        std::vector<Expr> args = mutate_exprs(op->args, &changed);
        bool any_vector = false;
        for (const Expr &a : args) {
            any_vector = any_vector || is_vector(a);
        }
        if (!any_vector) {
            return changed ? Call::make(op->type, op->name, args, op->call_type, op->value_index) : self_expr(op);
        }
        if (op->call_type == Call::Intrinsic) {
            const std::string &n = op->name;
            if (n == "likely" || n == "likely_if_innermost" || n == "promise_clamped" ||
                n == "unsafe_promise_clamped" || n == "memoize_expr") {
                return args[0]; // hints for scalar code only
            }
            const IntImm *tag_parts = args.size() >= 6 ? args[5].as<IntImm>() : nullptr;
            if (n == "trace_value" && tag_parts && tag_parts->value == 0) {
                // A traced load or store (AddTracing.cpp): one event for the
                // vector, its value and each coordinate widened to the lanes
                // (upstream's vector events); func, event code, parent and
                // value index stay scalar.
                if (is_vector(args[3])) {
                    return give_up(op);
                }
                args[0] = widen(args[0]);
                for (size_t i = 6; i < args.size(); i++) {
                    args[i] = widen(args[i]);
                }
                return Call::make(op->type.with_lanes(lanes_), op->name, args, op->call_type, op->value_index);
            }
            bool lane_wise = n == "bitwise_and" || n == "bitwise_or" || n == "bitwise_xor" || n == "bitwise_not" ||
                             n == "shift_left" || n == "shift_right" || n == "abs" || n == "reinterpret" ||
                             n == "popcount" || n == "count_leading_zeros" || n == "count_trailing_zeros" ||
                             n == "strict_float";
            if (!lane_wise) {
                return give_up(op);
            }
        } else if (op->call_type != Call::Extern) {
            return give_up(op);
        }
        for (Expr &a : args) {
            a = widen(a);
        }
        return Call::make(op->type.with_lanes(lanes_), op->name, args, op->call_type, op->value_index);
    }

    Expr visit(const Let *op) override {
        Expr value = mutate(op->value);
        lets_.emplace_back(op->name, is_vector(value));
        Expr body = mutate(op->body);
        lets_.pop_back();
        if (value.same_as(op->value) && body.same_as(op->body)) {
            return self_expr(op);
        }
        return Let::make(op->name, value, body);
    }

    Stmt visit(const LetStmt *op) override {
        Expr value = mutate(op->value);
        lets_.emplace_back(op->name, is_vector(value));
        Stmt body = mutate(op->body);
        lets_.pop_back();
        if (value.same_as(op->value) && body.same_as(op->body)) {
            return self_stmt(op);
        }
        return LetStmt::make(op->name, value, body);
    }

    Stmt visit(const Store *op) override {
        Expr index = mutate(op->index);
        Expr value = mutate(op->value);
        if (!is_vector(index)) {
            // Every lane would write the same element: not a loop we widen.
            failed = true;
            return self_stmt(op);
        }
        return Store::make(op->name, widen(value), index);
    }

    // A per-lane condition (the guard of a GuardWithIf tail, x < extent):
    // the loads and stores under it are masked by it; when it holds in
    // every lane iff a scalar does (all vectors but the last of a tail),
    // that scalar branches to the unmasked vector. A body that can't be
    // masked runs lane by lane where not every lane passes, as the serial
    // loop would have.
    Stmt visit(const IfThenElse *op) override {
        Expr c = mutate(op->condition);
        if (!is_vector(c)) {
            return IRMutator::visit(op);
        }
        if (const Call *l = c.as<Call>();
            l && l->call_type == Call::Intrinsic && (l->name == "likely" || l->name == "likely_if_innermost")) {
            c = l->args[0];
        }
        Expr all = all_lanes(c);
        bool vector_lets = false;
        for (const auto &l : lets_) {
            vector_lets = vector_lets || l.second;
        }
        Stmt vector_case = mutate(op->then_case);
        Stmt else_case = op->else_case.defined() ? mutate(op->else_case) : Stmt();
        if (!vector_lets && !failed) {
            MaskAccesses then_mask(c), else_mask(Not::make(c));
            Stmt masked = then_mask.mutate(vector_case);
            if (else_case.defined()) {
                masked = Block::make(masked, else_mask.mutate(else_case));
            }
            if (then_mask.ok && else_mask.ok) {
                if (all.defined() && !else_case.defined()) {
                    return IfThenElse::make(likely(all), vector_case, masked);
                }
                return masked;
            }
        }
        if (!all.defined() || op->else_case.defined() || vector_lets) {
            failed = true;
            return self_stmt(op);
        }
        std::string lane = var_ + ".lane";
        Expr scalar_var = Add::make(Variable::make(Int(32), var_), Variable::make(Int(32), lane));
        Stmt one_lane = substitute({{var_, scalar_var}}, Stmt(self_stmt(op)));
        Stmt lane_by_lane =
            For::make(lane, IntImm::make(Int(32), 0), IntImm::make(Int(32), lanes_), ForType::Serial, one_lane);
        return IfThenElse::make(all, vector_case, lane_by_lane);
    }

    // A scalar condition that holds iff every lane of `c` does, for
    // conjunctions of ramp < scalar and ramp <= scalar (rising ramps), or
    // undefined.
    Expr all_lanes(const Expr &c) const {
        if (const And *a = c.as<And>()) {
            Expr x = all_lanes(a->a), y = all_lanes(a->b);
            return x.defined() && y.defined() ? And::make(x, y) : Expr();
        }
        const LT *lt = c.as<LT>();
        const LE *le = c.as<LE>();
        Expr lhs = lt ? lt->a : (le ? le->a : Expr()), rhs = lt ? lt->b : (le ? le->b : Expr());
        const Ramp *r = lhs.defined() ? lhs.as<Ramp>() : nullptr;
        const IntImm *stride = r ? r->stride.as<IntImm>() : nullptr;
        Expr bound = rhs.defined() ? scalar_of(rhs) : Expr();
        if (!stride || stride->value < 0 || !bound.defined()) {
            return Expr();
        }
        Expr last = Add::make(r->base, IntImm::make(r->base.type(), stride->value * (lanes_ - 1)));
        return lt ? LT::make(last, bound) : LE::make(last, bound);
    }

    Stmt visit(const AssertStmt *op) override {
        Expr c = mutate(op->condition);
        if (is_vector(c)) {
            failed = true;
        }
        return self_stmt(op);
    }

    Stmt visit(const For *op) override {
        Expr mn = mutate(op->min), ext = mutate(op->extent);
        if (is_vector(mn) || is_vector(ext) || op->for_type == ForType::Parallel) {
            failed = true;
            return self_stmt(op);
        }
        return IRMutator::visit(op);
    }

    Stmt visit(const Allocate *op) override {
        failed = true;
        return self_stmt(op);
    }
};

// Whether `s` already holds vector code (from an inner vectorized loop):
// lanes of two widths can't be mixed, so such an outer loop stays serial.
class ContainsVectors : public IRVisitor {
public:
    bool found = false;
    using IRVisitor::visit;
    void visit(const Ramp *) override { found = true; }
    void visit(const Broadcast *) override { found = true; }
};

class VectorizeLoops : public IRMutator {
public:
    using IRMutator::visit;
    Stmt visit(const For *op) override {
        Stmt s = IRMutator::visit(op); // innermost loops first
        const For *loop = s.as<For>();
        if (!loop || loop->for_type != ForType::Vectorized) {
            return s;
        }
        const IntImm *extent = loop->extent.as<IntImm>();
        if (!extent || extent->value < 2 || extent->value > 256) {
            return s;
        }
        ContainsVectors inner;
        inner.include(loop->body);
        if (inner.found) {
            return s;
        }
        Widen widen(loop->name, (int)extent->value);
        Stmt body = widen.mutate(loop->body);
        if (widen.failed) {
            return s;
        }
        return LetStmt::make(loop->name, loop->min, body);
    }
};

} // namespace

Stmt vectorize_loops(const Stmt &s) {
    return VectorizeLoops().mutate(s);
}

} // namespace Internal
} // namespace Halide
