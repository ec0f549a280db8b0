// See Passes.h: vector stores whose value picks by `x % m` or reads at
// `x / m` (x a lane ramp) are computed as m interleaved slices.
//
// After vectorization, a demosaic's `select(x % 2 == 0, a(x / 2), b(x / 2))`
// over the lanes ramp(x0, 1, n) is a per-lane select between two gathers
// at ramp(x0, 1, n) / 2. Taken apart into its even lanes (x0, x0 + 2, ...)
// and its odd lanes (x0 + 1, x0 + 3, ...), each half has a scalar
// condition ((x0 + k) % 2 == 0, the same in every lane of the half) and
// reads at ramp((x0 + k) / 2, 1, n / 2): dense or stride-m loads instead of
// gathers. The store then writes interleave_vectors(slice 0, ..., slice m-1),
// which codegen emits as one shuffle.
//
// slice(e, k, m) is lanes k, k + m, k + 2m, ... of e. It distributes over
// lane-wise operations; on ramps and broadcasts it is exact:
//   ramp(b, s, n)      ->  ramp(b + k*s, s*m, n/m)
//   broadcast(v, n)    ->  broadcast(v, n/m)
// and the slice of a ramp whose stride m divides folds further (floor
// division and Euclidean remainder, positive m; 32- and 64-bit lanes only,
// which do not wrap around):
//   ramp(b, s*m, j) / m  ->  ramp(b / m, s, j)
//   ramp(b, s*m, j) % m  ->  broadcast(b % m, j)
// Binary operations on ramps and broadcasts are folded back into ramps
// and broadcasts so that these rules see them, and a select on a
// broadcast condition selects on the scalar.
//
// A store is rewritten only when its value divides or takes the remainder
// of a lane-varying value by a constant m that divides the lane count and
// slicing removes at least one such operation; anything slicing does not
// model (masked loads, calls other than lane-wise ones, vectors from
// enclosing lets) leaves the store as it was. Values are unchanged lane for
// lane, so results are too.
#include "Halide/IRMutator.h"
#include "Halide/IROperator.h"
#include "Halide/IRVisitor.h"
#include "Halide/Simplify.h"
#include "lower/Passes.h"

namespace Halide {
namespace Internal {
namespace {

bool is_vector(const Expr &e) {
    return e.type().is_vector();
}

const int64_t *const_int(const Expr &e, int64_t &out) {
    if (const IntImm *i = e.as<IntImm>()) {
        out = i->value;
        return &out;
    }
    return nullptr;
}

// The constant divisor m of a vector Div or Mod by broadcast(m), or 0.
int64_t vector_divisor(const Expr &b) {
    const Broadcast *bc = b.as<Broadcast>();
    int64_t m = 0;
    if (bc && const_int(bc->value, m) && m > 1) {
        return m;
    }
    return 0;
}

// Counts the Div and Mod of lane-varying values by broadcast(m), per m.
class CountDivisions : public IRVisitor {
public:
    std::map<int64_t, int> by_divisor;
    using IRVisitor::visit;

private:
    template <typename N> void note(const N *op) {
        IRVisitor::visit(op);
        if (is_vector(op->a) && !op->a.template as<Broadcast>() && op->type.is_int()) {
            if (int64_t m = vector_divisor(op->b)) {
                by_divisor[m]++;
            }
        }
    }
    void visit(const Div *op) override { note(op); }
    void visit(const Mod *op) override { note(op); }
};

int divisions(const Expr &e, int64_t m) {
    CountDivisions c;
    c.include(e);
    auto it = c.by_divisor.find(m);
    return it == c.by_divisor.end() ? 0 : it->second;
}

// Lanes k, k + m, ... of vector expressions; `failed` when something in
// them is not modelled.
class Slicer {
public:
    Slicer(int k, int m) : k_(k), m_(m) {}
    bool failed = false;

    Expr slice(const Expr &e) {
        if (!is_vector(e)) {
            return e;
        }
        if (failed) {
            return fail(e);
        }
        int lanes = e.type().lanes() / m_;
        switch (e->node_type) {
        case IRNodeType::Broadcast: return Broadcast::make(e.as<Broadcast>()->value, lanes);
        case IRNodeType::Ramp: {
            const Ramp *r = e.as<Ramp>();
            Expr k = make_const(r->stride.type(), k_), m = make_const(r->stride.type(), m_);
            return Ramp::make(simplify(r->base + r->stride * k), simplify(r->stride * m), lanes);
        }
        case IRNodeType::Variable: {
            const Variable *v = e.as<Variable>();
            auto it = renamed_.find(v->name);
            if (it == renamed_.end()) {
                return fail(e);
            }
            return Variable::make(v->type.with_lanes(lanes), it->second);
        }
        case IRNodeType::Cast: {
            Expr v = slice(e.as<Cast>()->value);
            if (const Broadcast *b = v.as<Broadcast>()) {
                return Broadcast::make(Cast::make(e.type().element_of(), b->value), lanes);
            }
            return Cast::make(e.type().with_lanes(lanes), v);
        }
        case IRNodeType::Add: return binary<Add>(e);
        case IRNodeType::Sub: return binary<Sub>(e);
        case IRNodeType::Mul: return binary<Mul>(e);
        case IRNodeType::Div: return binary<Div>(e);
        case IRNodeType::Mod: return binary<Mod>(e);
        case IRNodeType::Min: return binary<Min>(e);
        case IRNodeType::Max: return binary<Max>(e);
        case IRNodeType::EQ: return binary<EQ>(e);
        case IRNodeType::NE: return binary<NE>(e);
        case IRNodeType::LT: return binary<LT>(e);
        case IRNodeType::LE: return binary<LE>(e);
        case IRNodeType::GT: return binary<GT>(e);
        case IRNodeType::GE: return binary<GE>(e);
        case IRNodeType::And: return binary<And>(e);
        case IRNodeType::Or: return binary<Or>(e);
        case IRNodeType::Not: {
            Expr a = slice(e.as<Not>()->a);
            if (const Broadcast *b = a.as<Broadcast>()) {
                return Broadcast::make(simplify(Not::make(b->value)), lanes);
            }
            return Not::make(a);
        }
        case IRNodeType::Select: {
            const Select *op = e.as<Select>();
            Expr c = slice(op->condition), t = slice(op->true_value), f = slice(op->false_value);
            if (const Broadcast *b = c.as<Broadcast>()) {
                // The condition is the same in every lane of the slice.
                return Select::make(b->value, widen(t, lanes), widen(f, lanes));
            }
            return Select::make(c, widen(t, lanes), widen(f, lanes));
        }
        case IRNodeType::Load: {
            const Load *op = e.as<Load>();
            return Load::make(op->type.with_lanes(lanes), op->name, slice(op->index));
        }
        case IRNodeType::Call: return call(e, lanes);
        case IRNodeType::Let: {
            const Let *op = e.as<Let>();
            if (!is_vector(op->value)) {
                Expr body = slice(op->body);
                return Let::make(op->name, op->value, body);
            }
            std::string name = op->name + ".slice" + std::to_string(k_) + "of" + std::to_string(m_);
            Expr value = slice(op->value);
            auto saved = renamed_.find(op->name) == renamed_.end() ? std::string() : renamed_[op->name];
            renamed_[op->name] = name;
            Expr body = slice(op->body);
            if (saved.empty()) {
                renamed_.erase(op->name);
            } else {
                renamed_[op->name] = saved;
            }
            return Let::make(name, value, body);
        }
        default: return fail(e);
        }
    }

private:
    int k_, m_;
    std::map<std::string, std::string> renamed_;

    // Gives up; the zeros stand in for the slice so that enclosing nodes
    // still see operands of the slice's lanes (the result is discarded).
    Expr fail(const Expr &e) {
        failed = true;
        Type t = e.type();
        return Broadcast::make(t.is_handle() ? make_const(UInt(64), 0) : make_const(t.element_of(), 0), t.lanes() / m_);
    }

    static Expr widen(const Expr &e, int lanes) { return is_vector(e) ? e : Broadcast::make(e, lanes); }

    static bool parts(const Expr &e, Expr &base, Expr &stride) {
        if (const Ramp *r = e.as<Ramp>()) {
            base = r->base;
            stride = r->stride;
            return true;
        }
        if (const Broadcast *b = e.as<Broadcast>()) {
            base = b->value;
            stride = make_const(b->value.type(), 0);
            return true;
        }
        return false;
    }

    static Expr ramp_or_broadcast(const Expr &base, const Expr &stride, int lanes) {
        Expr s = simplify(stride);
        if (is_const_zero(s)) {
            return Broadcast::make(simplify(base), lanes);
        }
        return Ramp::make(simplify(base), s, lanes);
    }

    template <typename N> Expr binary(const Expr &e) {
        const N *op = e.as<N>();
        int lanes = e.type().lanes() / m_;
        Expr a = slice(op->a), b = slice(op->b);
        const Broadcast *ba = a.as<Broadcast>(), *bb = b.as<Broadcast>();
        if (ba && bb) {
            return Broadcast::make(simplify(N::make(ba->value, bb->value)), lanes);
        }
        Expr abase, astride, bbase, bstride;
        if (parts(a, abase, astride) && parts(b, bbase, bstride) && a.type().is_int()) {
            if constexpr (std::is_same_v<N, Add>) {
                return ramp_or_broadcast(abase + bbase, astride + bstride, lanes);
            } else if constexpr (std::is_same_v<N, Sub>) {
                return ramp_or_broadcast(abase - bbase, astride - bstride, lanes);
            } else if constexpr (std::is_same_v<N, Mul>) {
                if (bb) {
                    return ramp_or_broadcast(abase * bbase, astride * bbase, lanes);
                }
                if (ba) {
                    return ramp_or_broadcast(abase * bbase, abase * bstride, lanes);
                }
            } else if constexpr (std::is_same_v<N, Div> || std::is_same_v<N, Mod>) {
                int64_t m = bb ? vector_divisor(b) : 0, s = 0;
                if (m && const_int(astride, s) && s % m == 0 && a.type().bits() >= 32) {
                    if constexpr (std::is_same_v<N, Div>) {
                        return ramp_or_broadcast(Div::make(abase, bbase), make_const(astride.type(), s / m), lanes);
                    } else {
                        return Broadcast::make(simplify(Mod::make(abase, bbase)), lanes);
                    }
                }
            }
        }
        return N::make(widen(a, lanes), widen(b, lanes));
    }

    Expr call(const Expr &e, int lanes) {
        const Call *op = e.as<Call>();
        if (op->call_type == Call::Intrinsic) {
            const std::string &n = op->name;
            if (n == "interleave_vectors" && (int)op->args.size() == m_) {
                return op->args[k_];
            }
            bool lane_wise = n == "bitwise_and" || n == "bitwise_or" || n == "bitwise_xor" || n == "bitwise_not" ||
                             n == "shift_left" || n == "shift_right" || n == "abs" || n == "reinterpret";
            if (!lane_wise) {
                return fail(e);
            }
        } else if (op->call_type != Call::Extern) {
            return fail(e);
        }
        std::vector<Expr> args;
        for (const Expr &a : op->args) {
            args.push_back(widen(slice(a), lanes));
        }
        return Call::make(op->type.with_lanes(lanes), op->name, args, op->call_type, op->value_index);
    }
};

class DeinterleaveStores : public IRMutator {
public:
    using IRMutator::visit;

private:
    Stmt visit(const Store *op) override {
        const Expr &value = op->value;
        int lanes = value.type().lanes();
        if (lanes < 4) {
            return IRMutator::visit(op);
        }
        CountDivisions counts;
        counts.include(value);
        for (const auto &[m, n] : counts.by_divisor) {
            if (m > 4 || lanes % m != 0 || lanes / m < 2) {
                continue;
            }
            std::vector<Expr> slices;
            bool ok = true;
            for (int k = 0; k < (int)m && ok; k++) {
                Slicer s(k, (int)m);
                Expr part = s.slice(value);
                ok = !s.failed && divisions(part, m) < n;
                slices.push_back(part);
            }
            if (ok) {
                Expr interleaved = Call::make(value.type(), "interleave_vectors", slices, Call::Intrinsic);
                return Store::make(op->name, interleaved, op->index);
            }
        }
        return IRMutator::visit(op);
    }
};

} // namespace

Stmt deinterleave_stores(const Stmt &s) {
    return DeinterleaveStores().mutate(s);
}

} // namespace Internal
} // namespace Halide
