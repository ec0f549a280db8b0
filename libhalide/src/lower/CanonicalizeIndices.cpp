// See Passes.h. Rewrites every Load and Store index as a sum of distinct
// terms with constant coefficients, so that (x + m) - m becomes x and the
// index of neighbouring elements differs only in the loop variable. Exact:
// int32 index math wraps, and regrouping a sum is exact modulo 2^32.
#include <map>

#include "Halide/IREquality.h"
#include "Halide/IRMutator.h"
#include "lower/Passes.h"

namespace Halide {
namespace Internal {
namespace {

struct LinearForm {
    std::map<Expr, int64_t, ExprCompare> terms; // term -> coefficient
    int64_t constant = 0;
};

void add_terms(const Expr &e, int64_t scale, LinearForm &out) {
    if (e.type() == Int(32)) {
        if (const IntImm *c = e.as<IntImm>()) {
            out.constant += scale * c->value;
            return;
        }
        if (const Add *op = e.as<Add>()) {
            add_terms(op->a, scale, out);
            add_terms(op->b, scale, out);
            return;
        }
        if (const Sub *op = e.as<Sub>()) {
            add_terms(op->a, scale, out);
            add_terms(op->b, -scale, out);
            return;
        }
        if (const Mul *op = e.as<Mul>()) {
            if (const IntImm *c = op->b.as<IntImm>()) {
                add_terms(op->a, scale * c->value, out);
                return;
            }
            if (const IntImm *c = op->a.as<IntImm>()) {
                add_terms(op->b, scale * c->value, out);
                return;
            }
        }
    }
    out.terms[e] += scale;
}

Expr rebuild(const LinearForm &f) {
    Expr sum;
    for (const auto &[term, raw] : f.terms) {
        int64_t coefficient = (int64_t)(int32_t)(uint32_t)(uint64_t)raw; // modulo 2^32
        if (coefficient == 0) {
            continue;
        }
        if (!sum.defined()) {
            sum = coefficient == 1 ? term : Mul::make(term, int32_const(coefficient));
        } else if (coefficient == 1) {
            sum = Add::make(sum, term);
        } else if (coefficient == -1) {
            sum = Sub::make(sum, term);
        } else {
            sum = Add::make(sum, Mul::make(term, int32_const(coefficient)));
        }
    }
    int32_t constant = (int32_t)(uint32_t)(uint64_t)f.constant;
    if (!sum.defined()) {
        return int32_const(constant);
    }
    return constant == 0 ? sum : Add::make(sum, int32_const(constant));
}

Expr canonical(const Expr &index) {
    LinearForm f;
    add_terms(index, 1, f);
    return rebuild(f);
}

class Canonicalize : public IRMutator {
public:
    using IRMutator::visit;
    Expr visit(const Load *op) override { return Load::make(op->type, op->name, canonical(mutate(op->index))); }
    Stmt visit(const Store *op) override {
        return Store::make(op->name, mutate(op->value), canonical(mutate(op->index)));
    }
};

} // namespace

Stmt canonicalize_indices(const Stmt &s) {
    return Canonicalize().mutate(s);
}

} // namespace Internal
} // namespace Halide
