// See InlineReductions.h.
#include "Halide/InlineReductions.h"

#include <set>

#include "Function.h"
#include "Halide/Error.h"
#include "Halide/Func.h"
#include "Halide/IROperator.h"
#include "Halide/IRVisitor.h"

namespace Halide {

using namespace Internal;

namespace {

// The free pure Vars of e (the new Func's arguments, in order of first
// appearance) and the RDom it uses.
class FindFreeVars : public IRVisitor {
public:
    std::vector<std::string> vars;
    ReductionDomainPtr rdom;
    std::string clash;

    using IRVisitor::visit;
    void visit(const Variable *v) override {
        if (lets_.count(v->name) || find_param(v->name) || !input_buffer_of_field(v->name).empty()) {
            return;
        }
        if (ReductionDomainPtr r = find_reduction_domain_of(v->name)) {
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
    std::set<std::string> seen_;
    std::multiset<std::string> lets_;
};

struct Reduction {
    Func f;
    std::vector<Expr> args;
};

// A Func over e's free Vars, not yet defined.
Reduction start(const RDom *explicit_rdom, const Expr &e, const std::string &name, const char *what) {
    user_assert(e.defined()) << what << " of an undefined expression";
    FindFreeVars free;
    free.include(e);
    if (explicit_rdom) {
        user_assert(explicit_rdom->defined()) << what << " over an undefined RDom";
        for (const ReductionVariable &r : explicit_rdom->domain()->domain) {
            free.include(r.min);
            free.include(r.extent);
        }
    }
    user_assert(free.clash.empty()) << what << " of an expression that uses RVars of two RDoms";
    user_assert(explicit_rdom || free.rdom)
        << "Expression passed to " << what << " must reference a reduction domain (RDom)";
    Reduction r{Func(name), {}};
    for (const std::string &v : free.vars) {
        r.args.push_back(Var(v));
    }
    return r;
}

// e, made to mention RDom r (whose loops the update then runs over) when
// it does not: select(r.x == r.x, e, e) is e, and simplifies away.
Expr touch(const RDom &r, const Expr &e) {
    FindFreeVars free;
    free.include(e);
    if (free.rdom == r.domain()) {
        return e;
    }
    Expr rx = r[0];
    return select(rx == rx, e, e);
}

Expr reduce(const RDom *r, Expr e, const std::string &name, const char *what, double identity_kind,
            Expr (*combine)(const Expr &, const Expr &)) {
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
    if (r) {
        // Over an explicit RDom that e need not mention: a predicate-free
        // update whose arguments name it, so the loops run over it.
        e = touch(*r, e);
    }
    red.f(red.args) = combine(red.f(red.args), e);
    return red.f(red.args);
}

Tuple arg_reduce(const RDom *explicit_rdom, Expr e, const std::string &name, const char *what, bool is_max) {
    Reduction red = start(explicit_rdom, e, name, what);
    FindFreeVars free;
    free.include(e);
    ReductionDomainPtr domain = explicit_rdom ? explicit_rdom->domain() : free.rdom;
    std::vector<Expr> init, update;
    for (size_t i = 0; i < domain->domain.size(); i++) {
        init.push_back(domain->domain[i].min);
        update.push_back(Variable::make(Int(32), domain->domain[i].var));
    }
    init.push_back(is_max ? e.type().min() : e.type().max());
    if (explicit_rdom) {
        e = touch(*explicit_rdom, e);
    }
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
        out.push_back(red.f(red.args)[(int)i]);
    }
    return Tuple(out);
}

Expr add(const Expr &a, const Expr &b) {
    return a + b;
}
Expr mul(const Expr &a, const Expr &b) {
    return a * b;
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
