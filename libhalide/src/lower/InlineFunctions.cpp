// See Passes.h: calls to inline Funcs become their definitions.
#include <set>

#include "Halide/Error.h"
#include "Halide/IRMutator.h"
#include "Halide/IRPrinter.h"
#include "ir/Substitute.h"
#include "lower/Passes.h"

namespace Halide {
namespace Internal {
namespace {

class InlineCalls : public IRMutator {
public:
    InlineCalls(const Environment &env, const std::set<std::string> &inlined) : env_(env), inlined_(inlined) {}

    using IRMutator::visit;

    Expr visit(const Call *op) override {
        if (op->call_type != Call::Halide || !inlined_.count(op->name)) {
            return IRMutator::visit(op);
        }
        const FunctionPtr &f = env_.at(op->name);
        std::map<std::string, Expr> args;
        for (size_t i = 0; i < f->args.size(); i++) {
            args[f->args[i]] = mutate(op->args[i]);
        }
        // The definition may itself call inline Funcs.
        return mutate(substitute(args, f->values[op->value_index]));
    }

private:
    const Environment &env_;
    const std::set<std::string> &inlined_;
};

} // namespace

void inline_functions(Environment &env, const std::vector<std::string> &order,
                      const std::vector<FunctionPtr> &outputs) {
    std::set<std::string> outputs_set, inlined;
    for (const auto &f : outputs) {
        outputs_set.insert(f->name);
    }
    for (const std::string &name : order) {
        // A Func with update definitions or an extern stage can't be substituted: left inline,
        // it is computed at the innermost loop of its uses (ScheduleFunctions).
        if (!outputs_set.count(name) && env[name]->compute == ComputeLevel::Inlined && env[name]->updates.empty() &&
            !env[name]->extern_def) {
            inlined.insert(name);
        }
    }
    for (const std::string &name : order) {
        // As upstream: bound() only shapes a Func that is realized.
        if (inlined.count(name)) {
            for (const auto &[var, b] : env[name]->explicit_bounds) {
                user_warning << "It is meaningless to bound dimension " << var << " of function " << name
                             << " to be within [" << b.first << ", " << b.second
                             << "] because the function is scheduled inline.";
            }
        }
    }
    check_extern_inputs(env, inlined);
    // Rewrite copies: the user's Funcs keep their definitions.
    InlineCalls inliner(env, inlined);
    for (const std::string &name : order) {
        if (inlined.count(name)) {
            continue;
        }
        auto copy = std::make_shared<FunctionContents>(*env[name]);
        for (Expr &v : copy->values) {
            v = inliner.mutate(v);
        }
        for (UpdateDefinition &u : copy->updates) {
            for (Expr &e : u.args) {
                e = inliner.mutate(e);
            }
            for (Expr &e : u.values) {
                e = inliner.mutate(e);
            }
            if (u.rdom) {
                // A copy: the user's RDom keeps its own expressions.
                u.rdom = std::make_shared<ReductionDomainContents>(*u.rdom);
                for (ReductionVariable &r : u.rdom->domain) {
                    r.min = inliner.mutate(r.min);
                    r.extent = inliner.mutate(r.extent);
                }
                for (Expr &p : u.rdom->predicates) {
                    p = inliner.mutate(p);
                }
            }
        }
        env[name] = copy;
    }
    for (const std::string &name : inlined) {
        env.erase(name);
    }
}

} // namespace Internal
} // namespace Halide
