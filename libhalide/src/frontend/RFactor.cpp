// See Func.h: Stage::rfactor. An associative update
//
//   f(args) = f(args) op g(r_p, r_q)          (RDom over r_p and r_q)
//
// rfactor({{r_p, v}}) becomes two Funcs:
//
//   intm(x..., v) = identity                 (x... are f's pure Vars)
//   intm(args', v) = intm(args', v) op g(v, r_q)   (args' is args with r_p -> v)
//   f(x...) = f(x...) op intm(x..., r_p)     (replaces the update; RDom over r_p)
//
// Points of intm that no iteration reaches keep the identity, so merging
// them changes nothing. RVars split or fused by the stage's schedule are
// first turned into RVars of a new domain (a split r into ro * factor + ri,
// guarded where the factor does not divide the extent), so those halves can
// be preserved too.
#include <algorithm>
#include <map>
#include <set>

#include "Associativity.h"
#include "Halide/Error.h"
#include "Halide/Func.h"
#include "Halide/IROperator.h"
#include "Halide/Simplify.h"
#include "ir/Substitute.h"
#include "lower/Function.h"

namespace Halide {

using namespace Internal;

namespace {

// An RVar of the stage's loops after its splits and fuses: its range and
// the LoopDim that loops over it.
struct Leaf {
    std::string var; // the stage's internal name
    Expr min, extent;
};

Expr clamped(const Expr &v, const Expr &min, const Expr &extent) {
    return Call::make(Int(32), "promise_clamped", {v, min, simplify(min + extent - 1)}, Call::Intrinsic);
}

} // namespace

Func Stage::rfactor(const RVar &r, const Var &v) {
    return rfactor(std::vector<std::pair<RVar, Var>>{{r, v}});
}

Func Stage::rfactor(std::vector<std::pair<RVar, Var>> preserved) {
    user_assert(stage_ > 0) << "rfactor() must be called on an update definition";
    FunctionContents &f = *f_;
    UpdateDefinition &u = f.updates.at((size_t)stage_ - 1);
    const std::string label = "In schedule for " + name() + ": ";
    user_assert(u.rdom) << label << "can't perform rfactor() because the update has no reduction domain";
    AssociativeForm form;
    user_assert(find_associative_form(f.name, u, &form))
        << label << "can't perform rfactor() because we can't prove associativity of the operator";

    // The stage's RVars after its splits and fuses, in terms of new loop variables.
    std::map<std::string, Leaf> ranges;
    for (const ReductionVariable &rv : u.rdom->domain) {
        ranges[rv.var] = {rv.var, rv.min, rv.extent};
    }
    std::map<std::string, Expr> defs; // a split or fused RVar -> its value in terms of the new loops
    std::vector<Expr> guards;
    for (const SplitStep &s : u.splits) {
        bool of_rvars = s.kind == SplitStep::Split ? ranges.count(s.old_var) > 0
                                                   : ranges.count(s.inner) > 0 && ranges.count(s.outer) > 0;
        user_assert(of_rvars) << label
                              << "can't perform rfactor() after splitting or fusing its pure Vars: call rfactor() "
                                 "first and schedule the pure Vars of the Funcs it returns and updates";
        if (s.kind == SplitStep::Split) {
            Leaf old = ranges.at(s.old_var);
            Expr outer_extent = simplify((old.extent + s.factor - 1) / s.factor);
            ranges[s.outer] = {s.outer, 0, outer_extent};
            ranges[s.inner] = {s.inner, 0, s.factor};
            Expr offset = Variable::make(Int(32), s.outer) * s.factor + Variable::make(Int(32), s.inner);
            defs[s.old_var] = old.min + offset;
            if (!is_const(simplify(old.extent % s.factor), 0)) {
                // Guarded; inside the guard the value is in range, which
                // bounds inference is told (it does not read the guard).
                guards.push_back(offset < old.extent);
                defs[s.old_var] = clamped(old.min + offset, old.min, old.extent);
            }
        } else {
            Leaf in = ranges.at(s.inner), out = ranges.at(s.outer);
            ranges[s.old_var] = {s.old_var, 0, simplify(in.extent * out.extent)};
            Expr fused = Variable::make(Int(32), s.old_var);
            defs[s.inner] = in.min + fused % in.extent;
            defs[s.outer] = out.min + fused / in.extent;
        }
    }
    // Each original RVar in terms of the loops: definitions made later are
    // substituted into earlier ones until only loop variables remain.
    auto resolve = [&](Expr e) {
        for (size_t pass = 0; pass <= u.splits.size(); pass++) {
            e = substitute(defs, e);
        }
        return e;
    };

    // Which loops are preserved, and as which Vars.
    std::map<std::string, std::string> preserved_as; // loop var -> pure Var name
    std::set<std::string> taken(f.args.begin(), f.args.end());
    for (const LoopDim &d : u.dims) {
        taken.insert(d.name);
    }
    for (const auto &[rv, v] : preserved) {
        const LoopDim *dim = nullptr;
        for (const LoopDim &d : u.dims) {
            if (d.is_rvar && d.name == rv.name()) {
                dim = &d;
            }
        }
        user_assert(dim && !preserved_as.count(dim->var))
            << label << "can't perform rfactor() on " << rv.name()
            << " since either it is not in the reduction domain, or has already been consumed by another "
               "scheduling directive";
        user_assert(!taken.count(v.name()))
            << label << "can't perform rfactor() on " << rv.name() << " because the name " << v.name()
            << " is already used elsewhere in the Func's schedule.";
        taken.insert(v.name());
        preserved_as[dim->var] = v.name();
    }
    for (const LoopDim &d : u.dims) {
        user_assert(d.for_type == ForType::Serial)
            << label << "can't perform rfactor() after marking loop " << d.name
            << " parallel, vectorized or unrolled: schedule the Funcs rfactor() returns and updates instead";
    }

    // A domain over the loops that stay RVars in the intermediate (in loop
    // order), and the replacement of every loop variable.
    std::vector<const LoopDim *> kept, merged; // RVar loops, innermost first
    for (const LoopDim &d : u.dims) {
        if (d.is_rvar) {
            (preserved_as.count(d.var) ? merged : kept).push_back(&d);
        }
    }
    std::map<std::string, Expr> loops;
    RDom inner_domain;
    if (!kept.empty()) {
        Region region;
        for (const LoopDim *d : kept) {
            region.push_back({ranges.at(d->var).min, ranges.at(d->var).extent});
        }
        inner_domain = RDom(region, u.rdom->name + "_intm");
        for (size_t i = 0; i < kept.size(); i++) {
            loops[kept[i]->var] = Variable::make(Int(32), inner_domain.domain()->domain[i].var);
        }
    }
    std::vector<Var> preserved_vars;
    for (const LoopDim *d : merged) {
        const Leaf &l = ranges.at(d->var);
        loops[d->var] = clamped(Variable::make(Int(32), preserved_as.at(d->var)), l.min, l.extent);
        preserved_vars.emplace_back(preserved_as.at(d->var));
    }
    auto rewrite = [&](const Expr &e) { return substitute(loops, resolve(e)); };
    std::vector<Expr> predicates;
    for (const Expr &p : u.rdom->predicates) {
        predicates.push_back(rewrite(p));
    }
    for (const Expr &g : guards) {
        predicates.push_back(substitute(loops, g));
    }

    // The intermediate: the identity, then the reduction over the kept RVars.
    Func intm(f.name + "_intm");
    std::vector<Expr> pure_args, lhs;
    for (const std::string &a : f.args) {
        pure_args.push_back(Var(a));
    }
    for (const Var &v : preserved_vars) {
        pure_args.push_back(v);
    }
    std::vector<Expr> identities;
    for (size_t i = 0; i < form.ops.size(); i++) {
        identities.push_back(identity_of(form.ops[i], f.values[i].type()));
    }
    intm(pure_args) = Tuple(identities);
    for (const Expr &a : u.args) {
        lhs.push_back(rewrite(a));
    }
    for (const Var &v : preserved_vars) {
        lhs.push_back(v);
    }
    Expr condition;
    if (inner_domain.defined()) {
        for (const Expr &p : predicates) {
            inner_domain.domain()->predicates.push_back(p);
        }
    } else {
        for (const Expr &p : predicates) {
            condition = condition.defined() ? (condition && p) : p;
        }
    }
    std::vector<Expr> values;
    for (size_t i = 0; i < form.ops.size(); i++) {
        Expr current = intm(lhs)[(int)i];
        Expr v = combine(form.ops[i], current, rewrite(form.terms[i]));
        values.push_back(condition.defined() ? select(condition, v, current) : v);
    }
    intm(lhs) = Tuple(values);
    // Its loops in the order the stage had them, preserved RVars now pure Vars.
    UpdateDefinition &iu = intm.function()->updates.at(0);
    std::vector<LoopDim> dims;
    for (const LoopDim &d : u.dims) {
        if (!d.is_rvar) {
            dims.push_back(d);
        } else if (preserved_as.count(d.var)) {
            dims.push_back({preserved_as.at(d.var), preserved_as.at(d.var), ForType::Serial, false});
        } else {
            const Variable *loop = loops.at(d.var).as<Variable>();
            dims.push_back({d.name, loop->name, ForType::Serial, true});
        }
    }
    for (const Var &v : preserved_vars) {
        if (std::none_of(dims.begin(), dims.end(), [&](const LoopDim &d) { return d.var == v.name(); })) {
            dims.push_back({v.name(), v.name(), ForType::Serial, false});
        }
    }
    iu.dims = dims;

    // The merge replaces the update: f(x...) op= intm(x..., preserved RVars).
    UpdateDefinition m;
    std::vector<Expr> self_args, intm_args;
    for (const std::string &a : f.args) {
        self_args.push_back(Variable::make(Int(32), a));
        m.pure_vars.push_back(a);
    }
    m.args = self_args;
    intm_args = self_args;
    if (!merged.empty()) {
        auto domain = std::make_shared<ReductionDomainContents>();
        domain->name = u.rdom->name;
        for (const LoopDim *d : merged) {
            const Leaf &l = ranges.at(d->var);
            domain->domain.push_back({d->var, l.min, l.extent});
            intm_args.push_back(Variable::make(Int(32), d->var));
            m.dims.push_back({d->name, d->var, ForType::Serial, true});
        }
        m.rdom = domain;
    }
    for (const std::string &a : f.args) {
        m.dims.push_back({a, a, ForType::Serial, false});
    }
    for (size_t i = 0; i < form.ops.size(); i++) {
        Expr self = Call::make(f.values[i].type(), f.name, self_args, Call::Halide, (int)i);
        Expr part = Call::make(f.values[i].type(), intm.name(), intm_args, Call::Halide, (int)i,
                               intm.function().get_contents());
        m.values.push_back(combine(form.ops[i], self, part));
    }
    f.referenced.push_back(intm.function().get_contents());
    u = std::move(m);
    mark_changed(f);
    return intm;
}

} // namespace Halide
