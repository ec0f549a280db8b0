// See Passes.h: target_arch_is(), target_bits(), target_os_is(),
// target_has_feature() and target_natural_vector_size() (TargetQueries.h)
// become constants for the compile target.
#include "Halide/Error.h"
#include "Halide/IRMutator.h"
#include "Halide/IROperator.h"
#include "lower/Passes.h"

namespace Halide {
namespace Internal {
namespace {

// The value of a target query for `target`; undefined for any other call.
Expr fold_target_query(const Call *c, const Target &target) {
    if (c->call_type != Call::Intrinsic) {
        return Expr();
    }
    const std::string &n = c->name;
    auto arg = [&]() -> int {
        const IntImm *i = c->args.size() == 1 ? c->args[0].as<IntImm>() : nullptr;
        internal_assert(i) << n << " takes one constant argument";
        return (int)i->value;
    };
    if (n == "target_arch_is") {
        return make_bool(target.arch == (Target::Arch)arg());
    }
    if (n == "target_os_is") {
        return make_bool(target.os == (Target::OS)arg());
    }
    if (n == "target_has_feature") {
        return make_bool(target.has_feature((Target::Feature)arg()));
    }
    if (n == "target_bits") {
        return Expr(target.bits);
    }
    if (n == "target_natural_vector_size") {
        internal_assert(c->args.size() == 1) << n << " takes one argument";
        return Expr(target.natural_vector_size(c->args[0].type()));
    }
    return Expr();
}

class FoldQueries : public IRMutator {
public:
    explicit FoldQueries(const Target &t) : target_(t) {}
    using IRMutator::visit;
    Expr visit(const Call *op) override {
        Expr answer = fold_target_query(op, target_);
        return answer.defined() ? answer : IRMutator::visit(op);
    }

private:
    const Target &target_;
};

} // namespace

void lower_target_queries(Environment &env, const Target &target) {
    FoldQueries fold(target);
    auto all = [&](std::vector<Expr> &exprs) {
        for (Expr &e : exprs) {
            e = fold.mutate(e);
        }
    };
    for (auto &[name, f] : env) {
        all(f->values);
        for (UpdateDefinition &u : f->updates) {
            all(u.args);
            all(u.values);
            if (u.rdom) {
                for (ReductionVariable &r : u.rdom->domain) {
                    r.min = fold.mutate(r.min);
                    r.extent = fold.mutate(r.extent);
                }
                all(u.rdom->predicates);
            }
        }
    }
}

Stmt lower_target_queries(const Stmt &s, const Target &target) {
    return FoldQueries(target).mutate(s);
}

} // namespace Internal
} // namespace Halide
