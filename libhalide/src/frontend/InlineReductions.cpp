// See InlineReductions.h.
#include "Halide/InlineReductions.h"

#include <map>
#include <set>

#include "Halide/Error.h"
#include "Halide/Func.h"
#include "Halide/IROperator.h"
#include "Halide/IRVisitor.h"
#include "ir/ShareSubexpressions.h"
#include "ir/Substitute.h"
#include "lower/Function.h"

namespace Halide {

using namespace Internal;

namespace {

// The free pure Vars of e (the new Func's arguments, in order of first
// appearance) and the RDom it uses.
class FindFreeVars : public IRVisitor {
public:
    // With an explicit RDom, the RVars of other RDoms are free variables
    // like Vars (a nested reduction over an outer RDom's variable).
    explicit FindFreeVars(ReductionDomainPtr explicit_rdom = nullptr) : explicit_(std::move(explicit_rdom)) {}
    std::vector<std::string> vars;
    ReductionDomainPtr rdom;
    std::string clash;

    using IRVisitor::visit;
    void visit(const Variable *v) override {
        if (lets_.count(v->name) || find_param(v->name) || !input_buffer_of_field(v->name).empty()) {
            return;
        }
        ReductionDomainPtr r = find_reduction_domain_of(v->name);
        if (r && (!explicit_ || r == explicit_)) {
            if (rdom && r != rdom) {
                clash = r->name;
            }
            rdom = r;
            return;
        }
        if (seen_.insert(v->name).second) {
            vars.push_back(v->name);
        }
    }
    void visit(const Let *l) override {
        include(l->value);
        lets_.insert(l->name);
        include(l->body);
        lets_.erase(l->name);
    }

private:
    ReductionDomainPtr explicit_;
    std::set<std::string> seen_;
    std::multiset<std::string> lets_;
};

struct Reduction {
    Func f;
    std::vector<Expr> args;      // the anonymous Func's pure Vars
    std::vector<Expr> call_args; // what it is called with (other RDoms' RVars stay outside)
    Expr e;                      // the expression, in terms of `args`
};

// A Func over e's free Vars, not yet defined. RVars of other RDoms (with
// an explicit RDom) become Vars of the Func, passed in by the call.
Reduction start(const RDom *explicit_rdom, const Expr &e, const std::string &name, const char *what) {
    user_assert(e.defined()) << what << " of an undefined expression";
    if (explicit_rdom) {
        user_assert(explicit_rdom->defined()) << what << " over an undefined RDom";
    }
    ReductionDomainPtr explicit_domain = explicit_rdom ? explicit_rdom->domain().contents() : nullptr;
    FindFreeVars free(explicit_domain);
    free.include(e);
    user_assert(free.clash.empty()) << what << " of an expression that uses RVars of two RDoms";
    user_assert(explicit_rdom || free.rdom)
        << "Expression passed to " << what << " must reference a reduction domain (RDom)";
    Reduction r{Func(name), {}, {}, e};
    std::map<std::string, Expr> outer_rvars;
    for (const std::string &v : free.vars) {
        if (find_reduction_domain_of(v)) {
            Var stand_in;
            outer_rvars[v] = stand_in;
            r.args.push_back(stand_in);
        } else {
            r.args.push_back(Var(v));
        }
        r.call_args.push_back(Variable::make(Int(32), v));
    }
    if (!outer_rvars.empty()) {
        r.e = substitute(outer_rvars, e);
    }
    return r;
}

Expr reduce(const RDom *r, Expr e, const std::string &name, const char *what, double identity_kind,
            Expr (*combine)(const Expr &, const Expr &)) {
    e = share_repeated_subexpressions(e); // see FuncRef::define
    Reduction red = start(r, e, name, what);
    Expr init;
    if (identity_kind == 0) {
        init = make_zero(e.type());
    } else if (identity_kind == 1) {
        init = make_one(e.type());
    } else if (identity_kind > 0) {
        init = e.type().min(); // maximum starts at the lowest value (-inf for floats)
    } else {
        init = e.type().max();
    }
    red.f(red.args) = init;
    // (An explicit RDom that e does not mention gives an update without
    // loops over it, run once, as upstream's.)
    red.f(red.args) = combine(red.f(red.args), red.e);
    return red.f(red.call_args);
}

Tuple arg_reduce(const RDom *explicit_rdom, Expr e, const std::string &name, const char *what, bool is_max) {
    e = share_repeated_subexpressions(e); // see FuncRef::define
    Reduction red = start(explicit_rdom, e, name, what);
    FindFreeVars free(explicit_rdom ? explicit_rdom->domain().contents() : nullptr);
    free.include(e);
    ReductionDomainPtr domain = explicit_rdom ? explicit_rdom->domain().contents() : free.rdom;
    e = red.e;
    std::vector<Expr> init, update;
    // The index starts at 0, not at the domain's min, as upstream's: where
    // every value is the type's lowest (argmax) or highest (argmin), none is
    // strictly better and the answer is 0 even when 0 is outside the domain.
    for (size_t i = 0; i < domain->domain.size(); i++) {
        init.push_back(make_zero(Int(32)));
        update.push_back(Variable::make(Int(32), domain->domain[i].var));
    }
    init.push_back(is_max ? e.type().min() : e.type().max());
    update.push_back(e);
    red.f(red.args) = Tuple(init);
    // Strictly better replaces, so the first point wins ties, as upstream's.
    Expr best = red.f(red.args)[(int)domain->domain.size()];
    Expr better = is_max ? (e > best) : (e < best);
    std::vector<Expr> values;
    for (size_t i = 0; i < update.size(); i++) {
        values.push_back(select(better, update[i], red.f(red.args)[(int)i]));
    }
    red.f(red.args) = Tuple(values);
    std::vector<Expr> out;
    for (size_t i = 0; i < update.size(); i++) {
        out.push_back(red.f(red.call_args)[(int)i]);
    }
    return Tuple(out);
}

Expr add(const Expr &a, const Expr &b) {
    return a + b;
}
Expr mul(const Expr &a, const Expr &b) {
    return a * b;
}
Expr sat_add(const Expr &a, const Expr &b) {
    return saturating_add(a, b);
}
Expr maxf(const Expr &a, const Expr &b) {
    return max(a, b);
}
Expr minf(const Expr &a, const Expr &b) {
    return min(a, b);
}

} // namespace

Expr sum(Expr e, const std::string &name) {
    return reduce(nullptr, std::move(e), name, "sum", 0, add);
}
Expr saturating_sum(Expr e, const std::string &name) {
    return reduce(nullptr, std::move(e), name, "saturating_sum", 0, sat_add);
}
Expr product(Expr e, const std::string &name) {
    return reduce(nullptr, std::move(e), name, "product", 1, mul);
}
Expr maximum(Expr e, const std::string &name) {
    return reduce(nullptr, std::move(e), name, "maximum", 2, maxf);
}
Expr minimum(Expr e, const std::string &name) {
    return reduce(nullptr, std::move(e), name, "minimum", -1, minf);
}
Expr sum(const RDom &r, Expr e, const std::string &name) {
    return reduce(&r, std::move(e), name, "sum", 0, add);
}
Expr saturating_sum(const RDom &r, Expr e, const std::string &name) {
    return reduce(&r, std::move(e), name, "saturating_sum", 0, sat_add);
}
Expr product(const RDom &r, Expr e, const std::string &name) {
    return reduce(&r, std::move(e), name, "product", 1, mul);
}
Expr maximum(const RDom &r, Expr e, const std::string &name) {
    return reduce(&r, std::move(e), name, "maximum", 2, maxf);
}
Expr minimum(const RDom &r, Expr e, const std::string &name) {
    return reduce(&r, std::move(e), name, "minimum", -1, minf);
}
Tuple argmax(Expr e, const std::string &name) {
    return arg_reduce(nullptr, std::move(e), name, "argmax", true);
}
Tuple argmin(Expr e, const std::string &name) {
    return arg_reduce(nullptr, std::move(e), name, "argmin", false);
}
Tuple argmax(const RDom &r, Expr e, const std::string &name) {
    return arg_reduce(&r, std::move(e), name, "argmax", true);
}
Tuple argmin(const RDom &r, Expr e, const std::string &name) {
    return arg_reduce(&r, std::move(e), name, "argmin", false);
}

} // namespace Halide
