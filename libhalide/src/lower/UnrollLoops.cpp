// See Passes.h: loops scheduled with unroll() become one copy of the body
// per iteration. Their extent must be a constant by now (after simplify),
// or have a constant upper bound: then each copy runs under
// `if (i < extent)`, as upstream's (a sliding window makes the first
// iteration of a loop it slides along longer than the others).
#include "Halide/Error.h"
#include "Halide/IREquality.h"
#include "Halide/IRMutator.h"
#include "Halide/IROperator.h"
#include "Halide/IRPrinter.h"
#include "Halide/Simplify.h"
#include "analysis/Interval.h"
#include "ir/Substitute.h"
#include "lower/Passes.h"

#include <optional>

namespace Halide {
namespace Internal {
namespace {

// e as a sum of terms with coefficients +1 or -1 (a constant is a term).
void flatten_sum(const Expr &e, int sign, std::vector<std::pair<int, Expr>> &terms) {
    if (const Add *a = e.as<Add>()) {
        flatten_sum(a->a, sign, terms);
        flatten_sum(a->b, sign, terms);
    } else if (const Sub *d = e.as<Sub>()) {
        flatten_sum(d->a, sign, terms);
        flatten_sum(d->b, -sign, terms);
    } else {
        terms.push_back({sign, e});
    }
}

// A constant upper bound of e, where interval arithmetic alone loses the
// correlation of a sliding window's extents: min(p, m) - min(q, m) is at
// most max(p - q, 0), and p - q is often a constant (the window's step).
std::optional<int64_t> constant_upper_bound(const Expr &expr, int depth = 0) {
    Expr e = simplify(expr);
    if (const IntImm *c = e.as<IntImm>()) {
        return c->value;
    }
    if (depth > 4) {
        return std::nullopt;
    }
    auto both = [&](const Expr &a, const Expr &b, bool need_both) -> std::optional<int64_t> {
        std::optional<int64_t> x = constant_upper_bound(a, depth + 1), y = constant_upper_bound(b, depth + 1);
        if (x && y) {
            return need_both ? std::max(*x, *y) : std::min(*x, *y);
        }
        return need_both ? std::nullopt : (x ? x : y);
    };
    if (const Select *op = e.as<Select>()) {
        return both(op->true_value, op->false_value, true);
    }
    if (const Max *op = e.as<Max>()) {
        return both(op->a, op->b, true);
    }
    if (const Min *op = e.as<Min>()) {
        return both(op->a, op->b, false);
    }
    std::vector<std::pair<int, Expr>> terms;
    flatten_sum(e, 1, terms);
    auto sum_of = [](const std::vector<std::pair<int, Expr>> &ts) {
        Expr sum = IntImm::make(Int(32), 0);
        for (const auto &[sign, t] : ts) {
            sum = sign > 0 ? Add::make(sum, t) : Sub::make(sum, t);
        }
        return sum;
    };
    // A select among the terms: the larger of its two cases.
    for (size_t i = 0; i < terms.size(); i++) {
        if (const Select *op = terms[i].second.as<Select>()) {
            std::vector<std::pair<int, Expr>> t = terms, f = terms;
            t[i].second = op->true_value;
            f[i].second = op->false_value;
            return both(sum_of(t), sum_of(f), true);
        }
    }
    bool paired = false;
    for (size_t i = 0; i < terms.size(); i++) {
        const Min *p = terms[i].second.as<Min>();
        if (!p || terms[i].first != 1) {
            continue;
        }
        for (size_t j = 0; j < terms.size(); j++) {
            const Min *q = terms[j].second.as<Min>();
            if (!q || terms[j].first != -1) {
                continue;
            }
            Expr diff;
            if (equal(p->b, q->b)) {
                diff = Sub::make(p->a, q->a);
            } else if (equal(p->a, q->a)) {
                diff = Sub::make(p->b, q->b);
            }
            if (diff.defined()) {
                terms[i].second = Max::make(diff, IntImm::make(Int(32), 0));
                terms[j].second = IntImm::make(Int(32), 0);
                paired = true;
                break;
            }
        }
    }
    if (paired) {
        return constant_upper_bound(sum_of(terms), depth + 1);
    }
    Expr top = bounds_of_expr(e, {}).max;
    const IntImm *c = top.defined() ? simplify(top).as<IntImm>() : nullptr;
    return c ? std::optional<int64_t>(c->value) : std::nullopt;
}

class Unroll : public IRMutator {
public:
    using IRMutator::visit;

    Stmt visit(const LetStmt *op) override {
        lets_.push_back({op->name, op->value});
        Stmt s = IRMutator::visit(op);
        lets_.pop_back();
        return s;
    }

    Stmt visit(const For *op) override {
        if (op->for_type != ForType::Unrolled) {
            return IRMutator::visit(op);
        }
        int64_t count = 0;
        bool guarded = false;
        if (const IntImm *extent = op->extent.as<IntImm>()) {
            count = extent->value;
        } else {
            // The extent in terms of names from outside every let, and its largest value.
            Expr e = op->extent;
            for (size_t i = lets_.size(); i-- > 0;) {
                e = substitute({{lets_[i].first, lets_[i].second}}, e);
            }
            e = simplify(e);
            std::optional<int64_t> bound = constant_upper_bound(e);
            user_assert(bound) << "Can only unroll a loop of constant extent; loop " << op->name << " has extent "
                               << op->extent << ". Split it by a constant factor first.";
            count = std::max<int64_t>(*bound, 0);
            guarded = !e.as<IntImm>();
        }
        Stmt body = mutate(op->body);
        std::vector<Stmt> copies;
        for (int64_t i = 0; i < count; i++) {
            Stmt copy = substitute({{op->name, Add::make(op->min, int32_const(i))}}, body);
            if (guarded) {
                copy = IfThenElse::make(LT::make(int32_const(i), op->extent), copy);
            }
            copies.push_back(copy);
        }
        return copies.empty() ? Evaluate::make(int32_const(0)) : Block::make(copies);
    }

private:
    std::vector<std::pair<std::string, Expr>> lets_;
};

} // namespace

Stmt unroll_loops(const Stmt &s) {
    return Unroll().mutate(s);
}

} // namespace Internal
} // namespace Halide
