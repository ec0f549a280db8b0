// See Passes.h: parallel or vectorized loops over RVars of an update.
//
// Iterations of such a loop run at once, so they must not update the same
// point. A loop derived from RVar r (r itself, or a split of it) is safe
// when some argument of the update's site depends on r alone among the
// stage's loop variables and moves by a nonzero constant as r moves by one
// (so different r write different points), and every read of the Func
// itself is at the site being written (no iteration reads another's point).
// An atomic() update (associative, checked by Stage::atomic) of one value
// races with nothing: each point's read-modify-write is atomic (AddAtomics).
#include <map>
#include <set>

#include "Halide/Error.h"
#include "Halide/IROperator.h"
#include "Halide/IRVisitor.h"
#include "Halide/Simplify.h"
#include "ir/Substitute.h"
#include "lower/Passes.h"

namespace Halide {
namespace Internal {
namespace {

class VariablesUsed : public IRVisitor {
public:
    std::set<std::string> names;
    using IRVisitor::visit;
    void visit(const Variable *op) override { names.insert(op->name); }
};

std::set<std::string> variables_of(const Expr &e) {
    VariablesUsed v;
    v.include(e);
    return v.names;
}

// Whether different values of r give different values of `arg`, whatever
// the other loop variables (`loop_vars`) do.
bool separates(const Expr &arg, const std::string &r, const std::set<std::string> &loop_vars) {
    for (const std::string &v : variables_of(arg)) {
        if (v != r && loop_vars.count(v)) {
            return false;
        }
    }
    std::map<std::string, Expr> next{{r, Add::make(Variable::make(Int(32), r), IntImm::make(Int(32), 1))}};
    Expr step = simplify(Sub::make(substitute(next, arg), arg));
    const IntImm *c = step.as<IntImm>();
    return c && c->value != 0;
}

// Every call of Func `name` in e is at exactly `site`.
class ReadsOnlyTheSite : public IRVisitor {
public:
    ReadsOnlyTheSite(const std::string &name, const std::vector<Expr> &site) : name_(name), site_(site) {}
    bool ok = true;
    using IRVisitor::visit;
    void visit(const Call *op) override {
        IRVisitor::visit(op);
        if (op->call_type != Call::Halide || op->name != name_) {
            return;
        }
        for (size_t i = 0; i < op->args.size() && i < site_.size(); i++) {
            ok = ok && is_const(simplify(Sub::make(op->args[i], site_[i])), 0);
        }
    }

private:
    const std::string &name_;
    const std::vector<Expr> &site_;
};

// The RVars a loop variable of the stage was made from (by splits and fuses).
std::set<std::string> base_rvars(const UpdateDefinition &u, const std::string &var,
                                 const std::set<std::string> &rvars) {
    if (rvars.count(var)) {
        return {var};
    }
    std::set<std::string> out;
    for (const SplitStep &s : u.splits) {
        bool from = s.kind == SplitStep::Split ? (s.outer == var || s.inner == var) : s.old_var == var;
        if (!from) {
            continue;
        }
        std::vector<std::string> sources = s.kind == SplitStep::Split ? std::vector<std::string>{s.old_var}
                                                                      : std::vector<std::string>{s.inner, s.outer};
        for (const std::string &src : sources) {
            for (const std::string &b : base_rvars(u, src, rvars)) {
                out.insert(b);
            }
        }
    }
    return out;
}

} // namespace

void check_update_races(const FunctionContents &f) {
    for (size_t k = 0; k < f.updates.size(); k++) {
        const UpdateDefinition &u = f.updates[k];
        if (!u.rdom || u.allow_race_conditions) {
            continue;
        }
        std::set<std::string> rvars, loop_vars;
        for (const ReductionVariable &r : u.rdom->domain) {
            rvars.insert(r.var);
            loop_vars.insert(r.var);
        }
        for (const std::string &v : u.pure_vars) {
            if (!v.empty()) {
                loop_vars.insert(v);
            }
        }
        for (const LoopDim &d : u.dims) {
            if (!d.is_rvar || (d.for_type != ForType::Parallel && d.for_type != ForType::Vectorized)) {
                continue;
            }
            for (const std::string &r : base_rvars(u, d.var, rvars)) {
                bool distinct = false;
                for (const Expr &a : u.args) {
                    distinct = distinct || separates(a, r, loop_vars);
                }
                ReadsOnlyTheSite reads(f.name, u.args);
                for (const Expr &v : u.values) {
                    reads.include(v);
                }
                if (u.atomic && u.values.size() == 1) {
                    continue;
                }
                // A Tuple's elements would each be updated atomically, but
                // not together: a racy atomic Tuple update is refused.
                user_assert(!u.atomic || (distinct && reads.ok))
                    << "In schedule for " << f.name << ".update(" << k << "): atomic() with RVar " << r
                    << " parallel or vectorized, where iterations may update the same point, is not supported by "
                    << "this compiler for a Tuple-valued update (its elements would not be updated together). "
                    << "Use rfactor() to parallelize the reduction, or leave " << r << " serial.";
                user_assert(distinct && reads.ok)
                    << "In schedule for " << f.name << ".update(" << k << "), marking var " << r
                    << " as parallel or vectorized may introduce a race condition resulting in incorrect output: "
                    << "different iterations may "
                    << (distinct ? "read a point another one writes" : "update the same point")
                    << ". If they can't, or that can't change the output, use allow_race_conditions().";
            }
        }
    }
}

} // namespace Internal
} // namespace Halide
