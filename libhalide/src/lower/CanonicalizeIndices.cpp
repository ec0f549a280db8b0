// See Passes.h. Rewrites every Load and Store index as a sum of distinct
// terms with constant coefficients, so that (x + m) - m becomes x and the
// index of neighbouring elements differs only in the loop variable. Exact:
// int32 index math wraps, and regrouping a sum is exact modulo 2^32.
// A let-bound variable whose value is such a sum is expanded where that
// leaves fewer terms: `i + xo * 32 - m` with m = xo * 32 bound outside is i
// (an unrolled tile's accesses of its accumulators, constants that LLVM
// can keep in registers); otherwise the variable stays a term (a row
// offset bound outside a loop, which codegen turns into a row pointer).
#include <map>
#include <set>
#include <vector>

#include "Halide/IREquality.h"
#include "Halide/IRMutator.h"
#include "Halide/IRVisitor.h"
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

// `e`'s sum with each let-bound variable in `lets` replaced by its own sum
// (recursively); `depth` bounds the chains followed.
void add_expanded_terms(const Expr &e, int64_t scale, const std::map<std::string, Expr> &lets, LinearForm &out,
                        int depth) {
    LinearForm f;
    add_terms(e, 1, f);
    out.constant += scale * f.constant;
    for (const auto &[term, coefficient] : f.terms) {
        const Variable *v = term.as<Variable>();
        auto it = v && depth > 0 ? lets.find(v->name) : lets.end();
        if (it != lets.end()) {
            add_expanded_terms(it->second, scale * coefficient, lets, out, depth - 1);
        } else {
            out.terms[term] += scale * coefficient;
        }
    }
}

size_t nonzero_terms(const LinearForm &f) {
    size_t n = 0;
    for (const auto &[term, coefficient] : f.terms) {
        n += (int32_t)(uint32_t)(uint64_t)coefficient != 0 ? 1 : 0;
    }
    return n;
}

// The variables `e` reads.
void variables_of(const Expr &e, std::set<std::string> &names) {
    class Collect : public IRVisitor {
    public:
        std::set<std::string> *names;
        using IRVisitor::visit;
        void visit(const Variable *op) override { names->insert(op->name); }
    } c;
    c.names = &names;
    e.accept(&c);
}

class Canonicalize : public IRMutator {
public:
    using IRMutator::visit;
    Expr visit(const Load *op) override { return Load::make(op->type, op->name, canonical(mutate(op->index))); }
    Stmt visit(const Store *op) override {
        return Store::make(op->name, mutate(op->value), canonical(mutate(op->index)));
    }
    Stmt visit(const LetStmt *op) override {
        Expr value = mutate(op->value);
        Stmt body = bound(op->name, value, [&] { return mutate(op->body); });
        return LetStmt::make(op->name, value, body);
    }
    Expr visit(const Let *op) override {
        Expr value = mutate(op->value);
        Expr body;
        bound(op->name, value, [&] { return body = mutate(op->body), Stmt(); });
        return Let::make(op->name, value, body);
    }
    Stmt visit(const For *op) override {
        Expr min = mutate(op->min), extent = mutate(op->extent);
        Stmt body = bound(op->name, Expr(), [&] { return mutate(op->body); });
        return For::make(op->name, min, extent, op->for_type, body);
    }

private:
    // Let-bound int32 variables whose values are sums of terms (no loads or
    // calls), by name; and for each variable, the lets whose values read it
    // (pushed when a let is bound, popped when its scope ends).
    std::map<std::string, Expr> lets_;
    std::map<std::string, std::vector<std::string>> readers_;

    Expr canonical(const Expr &index) {
        LinearForm plain;
        add_terms(index, 1, plain);
        if (lets_.empty() || index.type() != Int(32)) {
            return rebuild(plain);
        }
        LinearForm expanded;
        add_expanded_terms(index, 1, lets_, expanded, 8);
        return rebuild(nonzero_terms(expanded) < nonzero_terms(plain) ? expanded : plain);
    }

    // Whether `e` is a sum of terms made of variables and constants only.
    static bool affine(const Expr &e) {
        if (e.as<IntImm>() || e.as<Variable>()) {
            return true;
        }
        if (const Add *op = e.as<Add>()) {
            return affine(op->a) && affine(op->b);
        }
        if (const Sub *op = e.as<Sub>()) {
            return affine(op->a) && affine(op->b);
        }
        if (const Mul *op = e.as<Mul>()) {
            return (op->b.as<IntImm>() && affine(op->a)) || (op->a.as<IntImm>() && affine(op->b));
        }
        return false;
    }

    // Runs `body` with `name` bound to `value` (undefined for a loop's
    // variable or a value that is not a sum): a let of the same name, and
    // the lets that read an outer `name`, are hidden inside, as their
    // values would read the new one.
    template <typename F> Stmt bound(const std::string &name, const Expr &value, F body) {
        std::vector<std::pair<std::string, Expr>> hidden;
        auto hide = [&](const std::string &let) {
            auto it = lets_.find(let);
            if (it != lets_.end()) {
                hidden.emplace_back(*it);
                lets_.erase(it);
            }
        };
        hide(name);
        if (auto r = readers_.find(name); r != readers_.end()) {
            for (const std::string &let : r->second) {
                hide(let);
            }
        }
        std::set<std::string> reads;
        bool added = value.defined() && value.type() == Int(32) && affine(value);
        if (added) {
            lets_[name] = value;
            variables_of(value, reads);
            for (const std::string &v : reads) {
                readers_[v].push_back(name);
            }
        }
        Stmt s = body();
        if (added) {
            lets_.erase(name);
            for (const std::string &v : reads) {
                readers_[v].pop_back();
            }
        }
        for (auto &h : hidden) {
            lets_.insert(h);
        }
        return s;
    }
};

} // namespace

Stmt canonicalize_indices(const Stmt &s) {
    return Canonicalize().mutate(s);
}

} // namespace Internal
} // namespace Halide
