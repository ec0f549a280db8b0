// Reverse-mode automatic differentiation of a pipeline of Funcs.
//
// The Funcs the output depends on are visited consumers first. Each one has
// an accumulator: the adjoint of its final value, a Func that starts at zero
// (the given adjoint, for the output) and gets one update per call that a
// consumer makes of it. Walking the Func's own stages from its last update
// back to its pure definition, each stage's value adjoint is passed to the
// calls that stage makes (DerivativeRules), and the adjoint of the value
// before an update is derived from the one after it.
//
// A call's contribution is scattered: an update of the callee's adjoint,
// over a reduction domain that covers the stage's region (the region of the
// Func its consumers need, found by interval analysis from the output's
// bounds, and the stage's own RDom), at the call's coordinates. A call at
// exactly the Func's own Vars is gathered instead (a pure update), its
// coordinates clamped to that region so nothing is read outside what the
// pipeline itself reads.
#include "frontend/DerivativePropagation.h"

#include <algorithm>
#include <functional>
#include <set>

#include "Halide/Error.h"
#include "Halide/IREquality.h"
#include "Halide/IROperator.h"
#include "Halide/IRVisitor.h"
#include "Halide/Simplify.h"
#include "analysis/Interval.h"
#include "frontend/DerivativeRules.h"
#include "ir/Substitute.h"
#include "ir/UsesVars.h"
#include "lower/Function.h"

namespace Halide {
namespace Internal {

namespace {

// Every Halide (Func) call in an expression.
class FuncCalls : public IRVisitor {
public:
    std::vector<const Call *> calls;
    using IRVisitor::visit;
    void visit(const Call *op) override {
        if (op->call_type == Call::Halide) {
            calls.push_back(op);
        }
        IRVisitor::visit(op);
    }
};

std::vector<Expr> stage_exprs(const FunctionContents &f) {
    std::vector<Expr> out(f.values.begin(), f.values.end());
    for (const UpdateDefinition &u : f.updates) {
        out.insert(out.end(), u.values.begin(), u.values.end());
        out.insert(out.end(), u.args.begin(), u.args.end());
    }
    return out;
}

// One definition of a Func: its coordinates and the variables they use.
struct StageInfo {
    std::vector<Expr> lhs;              // the coordinates it writes
    std::vector<std::string> pure_vars; // by dimension; "" where not a pure Var
    ReductionDomainPtr rdom;            // or null
    Expr value;                         // values[0]
    std::vector<Expr> values;           // one per value of a Tuple-valued Func
};

StageInfo stage_info(const FunctionContents &f, int stage) {
    StageInfo s;
    if (stage < 0) {
        for (const std::string &a : f.args) {
            s.lhs.push_back(Variable::make(Int(32), a));
        }
        s.pure_vars = f.args;
        s.values = f.values;
        s.value = f.values[0];
    } else {
        const UpdateDefinition &u = f.updates[stage];
        s.lhs = u.args;
        s.pure_vars = u.pure_vars;
        s.pure_vars.resize(u.args.size());
        s.rdom = u.rdom;
        s.values = u.values;
        s.value = u.values[0];
    }
    return s;
}

Expr extent_of(const Interval &i) {
    return simplify(i.max - i.min + 1);
}

class Propagator {
public:
    std::map<Derivative::FuncKey, Func> adjoints;

    void run(const Func &output, const Func &output_adjoint) {
        FunctionPtr out = output.function();
        topological_order(out);
        infer_boxes();
        accumulators_[out->name] = output_adjoint;
        for (const FunctionPtr &f : order_) {
            process(f);
        }
        for (auto &[name, acc] : buffer_accumulators_) {
            InputBufferPtr b = find_input_buffer(name);
            adjoints[{name, -1}] = acc;
            if (b && !b->user_name.empty()) {
                adjoints.emplace(Derivative::FuncKey{b->user_name, -1}, acc);
            }
        }
        for (auto &[name, acc] : param_accumulators_) {
            ParamPtr p = find_param(name);
            adjoints[{name, -1}] = acc;
            if (p && !p->user_name.empty()) {
                adjoints.emplace(Derivative::FuncKey{p->user_name, -1}, acc);
            }
        }
    }

    void set_output_box(const std::string &name, Box box) { boxes_[name] = std::move(box); }

    void infer_boxes() {
        for (const FunctionPtr &f : order_) {
            auto it = boxes_.find(f->name);
            if (it == boxes_.end()) {
                continue;
            }
            // First the Func's own reads (a scan's f(r.x + 1, r.y - 1) may
            // read points outside what its consumers read), then the others
            // over the region so widened.
            Box box = it->second;
            for (bool own : {true, false}) {
                const Box region = box;
                for (int stage = -1; stage < (int)f->updates.size(); stage++) {
                    StageInfo s = stage_info(*f, stage);
                    Scope scope = stage_scope(s, region);
                    std::vector<Expr> exprs = s.values;
                    exprs.insert(exprs.end(), s.lhs.begin(), s.lhs.end());
                    for (const Expr &e : exprs) {
                        FuncCalls calls;
                        e.accept(&calls);
                        for (const Call *c : calls.calls) {
                            if ((c->name == f->name) != own) {
                                continue;
                            }
                            Box cb;
                            for (const Expr &a : c->args) {
                                Interval i = bounds_of_expr(a, scope);
                                cb.push_back({i.min.defined() ? simplify(i.min) : Expr(),
                                              i.max.defined() ? simplify(i.max) : Expr()});
                            }
                            if (own) {
                                box = box_union(box, cb);
                                continue;
                            }
                            auto old = boxes_.find(c->name);
                            boxes_[c->name] = old == boxes_.end() ? cb : box_union(old->second, cb);
                        }
                    }
                }
                boxes_[f->name] = box;
            }
        }
    }

private:
    std::vector<FunctionPtr> order_; // consumers first
    std::map<std::string, Box> boxes_;
    std::map<std::string, Func> accumulators_, buffer_accumulators_, param_accumulators_;

    void topological_order(const FunctionPtr &out) {
        std::set<std::string> seen;
        std::vector<FunctionPtr> post;
        std::function<void(const FunctionPtr &)> visit = [&](const FunctionPtr &f) {
            if (!seen.insert(f->name).second) {
                return;
            }
            for (const Expr &e : stage_exprs(*f)) {
                FuncCalls calls;
                e.accept(&calls);
                for (const Call *c : calls.calls) {
                    if (c->name == f->name) {
                        continue;
                    }
                    FunctionPtr g = find_function(c->name);
                    user_assert(g) << "propagate_adjoints: " << f->name << " calls " << c->name
                                   << ", which is not a live Func";
                    visit(g);
                }
            }
            post.push_back(f);
        };
        visit(out);
        order_.assign(post.rbegin(), post.rend());
    }

    static Scope stage_scope(const StageInfo &s, const Box &box) {
        Scope scope;
        for (size_t i = 0; i < s.pure_vars.size() && i < box.size(); i++) {
            if (!s.pure_vars[i].empty()) {
                scope[s.pure_vars[i]] = box[i];
            }
        }
        if (s.rdom) {
            for (const ReductionVariable &rv : s.rdom->domain) {
                scope[rv.var] = Interval{rv.min, simplify(rv.min + rv.extent - 1)};
            }
        }
        return scope;
    }

    static Func zero_func(const std::string &name, int dims, const std::vector<Type> &types) {
        Func f(name);
        std::vector<Var> vars;
        for (int i = 0; i < dims; i++) {
            vars.push_back(Var());
        }
        std::vector<Expr> zeros;
        for (Type t : types) {
            zeros.push_back(make_zero(t.is_float() ? t : Float(32)));
        }
        if (zeros.size() == 1) {
            f(vars) = zeros[0];
        } else {
            f(vars) = Tuple(zeros);
        }
        return f;
    }

    // acc(at)[value_index] += v.
    static void add_to(Func &acc, const std::vector<Expr> &at, int value_index, const Expr &v) {
        if (acc.outputs() == 1) {
            acc(at) += cast(acc.type(), v);
            return;
        }
        std::vector<Expr> values;
        for (int j = 0; j < acc.outputs(); j++) {
            Expr old = acc(at)[j];
            values.push_back(j == value_index ? old + cast(old.type(), v) : old);
        }
        acc(at) = Tuple(values);
    }

    Func &accumulator_of(const Call *c, Type t) {
        if (c->call_type == Call::Image) {
            auto it = buffer_accumulators_.find(c->name);
            if (it == buffer_accumulators_.end()) {
                InputBufferPtr b = find_input_buffer(c->name);
                std::string user = b && !b->user_name.empty() ? b->user_name : c->name;
                it = buffer_accumulators_.emplace(c->name, zero_func(user + "_d__", (int)c->args.size(), {t})).first;
            }
            return it->second;
        }
        auto it = accumulators_.find(c->name);
        if (it == accumulators_.end()) {
            FunctionPtr g = find_function(c->name);
            std::string name = c->name + "_" + std::to_string(g->updates.size()) + "_d_def__";
            std::vector<Type> types;
            for (const Expr &v : g->values) {
                types.push_back(v.type());
            }
            it = accumulators_.emplace(c->name, zero_func(name, (int)c->args.size(), types)).first;
        }
        return it->second;
    }

    Func &param_accumulator(const std::string &name, Type t) {
        auto it = param_accumulators_.find(name);
        if (it == param_accumulators_.end()) {
            ParamPtr p = find_param(name);
            std::string user = p && !p->user_name.empty() ? p->user_name : name;
            it = param_accumulators_.emplace(name, zero_func(user + "_d__", 0, {t})).first;
        }
        return it->second;
    }

    // The reduction domain covering stage `s` of `f` over `box`: one
    // dimension per pure Var, then the stage's own RVars; the names of
    // those variables map to its RVars in `vars`.
    RDom stage_domain(const FunctionContents &f, const StageInfo &s, const Box &box,
                      std::map<std::string, Expr> &vars) {
        Region region;
        std::vector<std::string> names;
        for (size_t i = 0; i < s.pure_vars.size(); i++) {
            if (s.pure_vars[i].empty() || std::find(names.begin(), names.end(), s.pure_vars[i]) != names.end()) {
                continue; // f(x, x) = ...: one loop over x
            }
            user_assert(i < box.size() && box[i].is_bounded())
                << "propagate_adjoints: cannot bound dimension " << i << " of " << f.name
                << " (the region its consumers read is not bounded)";
            region.emplace_back(box[i].min, extent_of(box[i]));
            names.push_back(s.pure_vars[i]);
        }
        if (s.rdom) {
            for (const ReductionVariable &rv : s.rdom->domain) {
                region.emplace_back(rv.min, rv.extent);
                names.push_back(rv.var);
            }
        }
        if (region.empty()) {
            return RDom();
        }
        RDom r(region);
        for (size_t i = 0; i < names.size(); i++) {
            vars[names[i]] = Expr(r[(int)i]);
        }
        if (s.rdom) {
            for (const Expr &p : s.rdom->predicates) {
                r.where(substitute(vars, p));
            }
        }
        return r;
    }

    // Does the update write each point at most once: is every RVar of its
    // domain alone (up to an offset free of RVars) in its own coordinate?
    static bool writes_each_point_once(const StageInfo &s) {
        std::set<std::string> rvars, seen;
        for (const ReductionVariable &rv : s.rdom->domain) {
            rvars.insert(rv.var);
        }
        for (const Expr &a : s.lhs) {
            if (!expr_uses_any_var(a, rvars)) {
                continue;
            }
            Expr v = a;
            if (const Add *add = a.as<Add>()) {
                v = expr_uses_any_var(add->a, rvars) ? add->a : add->b;
                Expr other = expr_uses_any_var(add->a, rvars) ? add->b : add->a;
                if (expr_uses_any_var(other, rvars)) {
                    return false;
                }
            } else if (const Sub *sub = a.as<Sub>()) {
                v = expr_uses_any_var(sub->a, rvars) ? sub->a : sub->b;
                Expr other = expr_uses_any_var(sub->a, rvars) ? sub->b : sub->a;
                if (expr_uses_any_var(other, rvars)) {
                    return false;
                }
            }
            const Variable *var = v.as<Variable>();
            if (!var || !rvars.count(var->name) || !seen.insert(var->name).second) {
                return false;
            }
        }
        return seen.size() == rvars.size();
    }

    // Gathers the contribution when each coordinate of the call is a
    // distinct pure Var of the stage plus an offset free of them
    // (g(x + r, y - 1), g(y, x)): acc(u..) += adj with each such Var v at
    // u - offset (clamped into the stage's region, zero outside it), summed
    // over the stage's RDom and the pure Vars the call does not use.
    // False (nothing done) when the coordinates are not of that form.
    bool gather(const FunctionContents &f, const StageInfo &s, Func &acc, const std::vector<Expr> &args,
                int value_index, const Expr &adj) {
        std::set<std::string> pure;
        for (const std::string &v : s.pure_vars) {
            if (!v.empty()) {
                pure.insert(v);
            }
        }
        auto pure_var = [&](const Expr &e) -> std::string {
            const Variable *v = e.as<Variable>();
            return v && pure.count(v->name) ? v->name : std::string();
        };
        std::vector<Var> at(args.size());
        std::map<std::string, Expr> shifted; // pure Var -> u - offset
        for (size_t i = 0; i < args.size(); i++) {
            const Expr &a = args[i];
            std::string v = pure_var(a);
            Expr offset = make_zero(Int(32));
            if (v.empty()) {
                if (const Add *add = a.as<Add>()) {
                    v = pure_var(add->a);
                    offset = add->b;
                    if (v.empty()) {
                        v = pure_var(add->b);
                        offset = add->a;
                    }
                } else if (const Sub *sub = a.as<Sub>()) {
                    v = pure_var(sub->a);
                    offset = -sub->b;
                }
            }
            if (v.empty() || shifted.count(v) || expr_uses_any_var(offset, pure)) {
                return false;
            }
            shifted[v] = simplify(Expr(at[i]) - offset);
        }
        // A loop over the stage's pure Vars the call does not use, and over its RVars.
        StageInfo rest = s;
        for (std::string &v : rest.pure_vars) {
            if (shifted.count(v)) {
                v.clear();
            }
        }
        const Box &box = boxes_[f.name];
        std::map<std::string, Expr> vars;
        RDom r = stage_domain(f, rest, box, vars);
        Expr inside = const_true();
        for (auto &[v, e] : shifted) {
            Expr pos = substitute(vars, e);
            vars[v] = pos;
            size_t dim = std::find(s.pure_vars.begin(), s.pure_vars.end(), v) - s.pure_vars.begin();
            if (dim < box.size() && box[dim].is_bounded()) {
                inside = inside && pos >= box[dim].min && pos <= box[dim].max;
                vars[v] = clamp(pos, box[dim].min, box[dim].max);
            }
        }
        Expr value = substitute(vars, adj);
        inside = simplify(inside);
        if (!is_const_one(inside)) {
            value = select(inside, value, make_zero(adj.type()));
        }
        add_to(acc, std::vector<Expr>(at.begin(), at.end()), value_index, value);
        return true;
    }

    // Adds `adj` (an adjoint in terms of stage `s`'s variables) to the
    // accumulator `acc` at coordinates `args`: gathered if it can be,
    // else scattered.
    void contribute(const FunctionContents &f, const StageInfo &s, Func &acc, const std::vector<Expr> &args,
                    int value_index, const Expr &adj) {
        if (!args.empty() && gather(f, s, acc, args, value_index, adj)) {
            return;
        }
        std::map<std::string, Expr> vars;
        RDom r = stage_domain(f, s, boxes_[f.name], vars);
        std::vector<Expr> at;
        for (const Expr &a : args) {
            at.push_back(substitute(vars, a));
        }
        add_to(acc, at, value_index, substitute(vars, adj));
    }

    // Passes the adjoints `seeds` (one per value) of stage `s`'s values to
    // the calls they make. Returns self[j][i]: the partial derivative of
    // value j by the Func's own value i at the point written (for an update
    // that reads it there). Reads of its own values at other points go to
    // `self_other` (the call, and its partial times the seed).
    std::vector<std::vector<Expr>> propagate_values(const FunctionContents &f, const StageInfo &s,
                                                    const std::vector<Expr> &seeds,
                                                    std::vector<std::pair<Expr, Expr>> &self_other) {
        size_t n = s.values.size();
        std::vector<std::vector<Expr>> self(n);
        // Several calls of one Func at one point: one contribution.
        std::vector<std::pair<Expr, Expr>> merged;
        std::vector<std::pair<std::string, Expr>> params;
        for (size_t j = 0; j < n; j++) {
            const Expr &value = s.values[j];
            for (size_t i = 0; i < n; i++) {
                self[j].push_back(make_zero(value.type().is_float() ? value.type() : Float(32)));
            }
            ExprAdjoints d = differentiate_expr(value, make_const(value.type(), 1.0), f.name);
            for (auto &[call_expr, partial] : d.calls) {
                const Call *c = call_expr.as<Call>();
                if (c->call_type == Call::Halide && c->name == f.name) {
                    bool same_point = c->args.size() == s.lhs.size();
                    for (size_t i = 0; same_point && i < c->args.size(); i++) {
                        same_point = equal(c->args[i], s.lhs[i]);
                    }
                    if (same_point) {
                        self[j][c->value_index] = self[j][c->value_index] + partial;
                    } else {
                        self_other.emplace_back(call_expr, simplify(seeds[j] * partial));
                    }
                    continue;
                }
                Expr seeded = seeds[j] * partial;
                bool found = false;
                for (auto &m : merged) {
                    if (equal(m.first, call_expr)) {
                        m.second = m.second + seeded;
                        found = true;
                        break;
                    }
                }
                if (!found) {
                    merged.emplace_back(call_expr, seeded);
                }
            }
            for (auto &[name, partial] : d.params) {
                params.emplace_back(name, seeds[j] * partial);
            }
        }
        for (auto &[call_expr, adj] : merged) {
            const Call *c = call_expr.as<Call>();
            if (c->call_type == Call::Halide) {
                FunctionPtr g = find_function(c->name);
                user_assert(g && !g->extern_def)
                    << "propagate_adjoints: " << c->name << " is an extern stage; not supported";
            }
            Func &acc = accumulator_of(c, c->type);
            contribute(f, s, acc, c->args, c->value_index, simplify(adj));
        }
        for (auto &[name, adj] : params) {
            Func &acc = param_accumulator(name, adj.type());
            contribute(f, s, acc, {}, 0, simplify(adj));
        }
        for (auto &row : self) {
            for (Expr &e : row) {
                e = simplify(e);
            }
        }
        return self;
    }

    // The same for a stage of a Func with one value.
    Expr propagate_stage(const FunctionContents &f, const StageInfo &s, const Expr &seed,
                         std::vector<std::pair<Expr, Expr>> &self_other) {
        StageInfo one = s;
        one.values = {s.value};
        return propagate_values(f, one, {seed}, self_other)[0][0];
    }

    // f's only update is f(lhs) = max(f(lhs), e) (or min), as maximum()
    // and minimum() make: the adjoint reaches the e (and the pure value)
    // equal to f's final value there. Handles both stages; false if the
    // update is not of that form.
    bool extremum_reduction(const FunctionPtr &fp, const StageInfo &s, const Func &cur, const std::vector<Var> &vars) {
        const FunctionContents &f = *fp;
        Expr a, b;
        bool is_max = false;
        if (const Max *op = s.value.as<Max>()) {
            a = op->a, b = op->b, is_max = true;
        } else if (const Min *op = s.value.as<Min>()) {
            a = op->a, b = op->b;
        } else {
            return false;
        }
        auto is_self = [&](const Expr &e) {
            const Call *c = e.as<Call>();
            if (!c || c->call_type != Call::Halide || c->name != f.name || c->args.size() != s.lhs.size()) {
                return false;
            }
            for (size_t i = 0; i < c->args.size(); i++) {
                if (!equal(c->args[i], s.lhs[i])) {
                    return false;
                }
            }
            return true;
        };
        if (!is_self(a)) {
            std::swap(a, b);
        }
        if (!is_self(a) || exprs_call_func({b}, f.name) || !s.value.type().is_float()) {
            return false;
        }
        bool all_pure = true;
        for (size_t i = 0; i < s.pure_vars.size(); i++) {
            all_pure = all_pure && s.pure_vars[i] == f.args[i];
        }
        if (!all_pure) {
            return false;
        }
        // `a` calls f at the point written: f's final value there.
        Expr one = make_const(s.value.type(), 1.0), zero = make_zero(s.value.type());
        StageInfo e_stage = s;
        e_stage.value = b;
        std::vector<std::pair<Expr, Expr>> none;
        propagate_stage(f, e_stage, cur(s.lhs) * select(is_max ? b >= a : b <= a, one, zero), none);
        Func prev(f.name + "_0_d_def__");
        Expr init = f.values[0], final_value = Func(fp)(vars);
        prev(vars) = cur(vars) * select(is_max ? init >= final_value : init <= final_value, one, zero);
        adjoints[{f.name, -1}] = prev;
        StageInfo pure = stage_info(f, -1);
        propagate_stage(f, pure, prev(pure.lhs), none);
        return true;
    }

    // prev(w) = cur(w) * factor (zero if factor is 0) at each point w the
    // update s (over its RDom, each point written once) writes inside f's
    // region: outside it the adjoint is zero already, and those points
    // may be outside what is computed.
    void scale_written_points(const FunctionContents &f, const StageInfo &s, Func &prev, const Func &cur,
                              const Expr &factor) {
        std::map<std::string, Expr> rvars;
        StageInfo only_r = s;
        std::fill(only_r.pure_vars.begin(), only_r.pure_vars.end(), std::string());
        RDom r = stage_domain(f, only_r, {}, rvars);
        std::vector<Expr> at;
        const Box &box = boxes_[f.name];
        for (size_t i = 0; i < s.lhs.size(); i++) {
            at.push_back(substitute(rvars, s.lhs[i]));
            if (i < box.size() && box[i].is_bounded() && s.pure_vars[i].empty()) {
                r.where(at[i] >= box[i].min && at[i] <= box[i].max);
            }
        }
        prev(at) = is_const_zero(factor) ? make_zero(cur.type()) : cur(at) * substitute(rvars, factor);
    }

    // Update k of f is a scan over its RDom r (r.x innermost): each
    // dimension written is a pure Var, fixed, or +-r_j + k0 for its own RVar
    // r_j, so each iteration writes a point of its own; the update reads f
    // at the point written shifted by constants delta (f(r) = f(r - 1) * a +
    // g(r), or in two dimensions f(r.x, r.y) = f(r.x - 1, r.y) * a +
    // f(r.x, r.y - 1) * b + g(r.x, r.y)), each read being of the point
    // iteration r - s wrote, s a shift earlier in the RDom's order (its
    // outermost nonzero component positive), or of the value before the
    // update where r - s is outside the RDom. The adjoint of the value
    // written at iteration r is then a scan in reverse order,
    // V(w(r)) = cur(w(r)) + sum over reads of V(w(r + s)) * d e(r + s) / d f(w(r)),
    // which seeds the other calls of the update. Returns the adjoint of the
    // value before the update, or an undefined Func if the update reads no
    // other point (and is not a scan at all).
    Func scan_update(const FunctionContents &f, const StageInfo &s, int k, const Func &cur,
                     const std::vector<Var> &vars) {
        const std::vector<ReductionVariable> &domain = s.rdom->domain;
        const size_t nr = domain.size();
        ExprAdjoints d = differentiate_expr(s.value, make_const(s.value.type(), 1.0), f.name);
        // Per RVar j: the dimension it writes and the direction (+1 or -1).
        std::vector<int> dim_of(nr, -1), sign(nr, 0);
        const bool once = s.rdom->predicates.empty() && writes_each_point_once(s);
        for (size_t j = 0; once && j < nr; j++) {
            for (size_t i = 0; i < s.lhs.size(); i++) {
                if (expr_uses_any_var(s.lhs[i], {domain[j].var})) {
                    dim_of[j] = (int)i;
                    Expr r = Variable::make(Int(32), domain[j].var);
                    // (Held: as_const_int points into the node.)
                    const Expr moved = simplify(substitute({{domain[j].var, r + 1}}, s.lhs[i]) - s.lhs[i]);
                    const int64_t *step = as_const_int(moved);
                    sign[j] = step && (*step == 1 || *step == -1) ? (int)*step : 0;
                }
            }
        }
        struct Read {
            std::vector<Expr> delta; // by dimension: written point - point read
            std::vector<int> shift;  // by RVar: iterations back
            Expr partial;
        };
        std::vector<Read> reads;
        bool other_point = false, supported = true;
        for (auto &[call_expr, partial] : d.calls) {
            const Call *c = call_expr.as<Call>();
            if (c->call_type != Call::Halide || c->name != f.name) {
                continue;
            }
            bool same = c->args.size() == s.lhs.size();
            for (size_t i = 0; same && i < c->args.size(); i++) {
                same = equal(c->args[i], s.lhs[i]);
            }
            other_point = other_point || !same;
            Read read{std::vector<Expr>(s.lhs.size(), Expr(0)), std::vector<int>(nr, 0), partial};
            bool ok = once && !same && c->args.size() == s.lhs.size();
            for (size_t i = 0; ok && i < s.lhs.size(); i++) {
                int j = (int)(std::find(dim_of.begin(), dim_of.end(), (int)i) - dim_of.begin());
                if (j == (int)nr) {
                    ok = equal(c->args[i], s.lhs[i]);
                    continue;
                }
                Expr delta = simplify(s.lhs[i] - c->args[i]);
                const int64_t *dc = as_const_int(delta);
                ok = dc && sign[j] != 0;
                if (ok) {
                    read.delta[i] = delta;
                    read.shift[j] = (int)*dc * sign[j];
                }
            }
            // Earlier in the RDom's order: the outermost nonzero shift is positive.
            int first = 0;
            for (size_t j = nr; ok && j-- > 0 && first == 0;) {
                first = read.shift[j];
            }
            supported = supported && ok && first > 0;
            reads.push_back(read);
        }
        if (!other_point) {
            return Func();
        }
        user_assert(supported) << "propagate_adjoints: update " << k << " of " << f.name
                               << " reads it at other coordinates than those it writes over a reduction domain "
                                  "in a way not supported here (supported: each RVar r_j writing one dimension as "
                                  "f(.., k + r_j, ..) or f(.., k - r_j, ..), no RDom::where, and reads of f at "
                                  "constant offsets from the point written that an earlier iteration wrote)";
        std::vector<Expr> last(nr);
        Region extents;
        for (size_t j = 0; j < nr; j++) {
            last[j] = simplify(domain[j].min + domain[j].extent - 1);
            extents.push_back({0, domain[j].extent});
        }
        // Whether r + shift (r by RVar) is inside the RDom.
        auto inside = [&](const std::vector<Expr> &r) {
            Expr in = const_true();
            for (size_t j = 0; j < nr; j++) {
                in = in && r[j] >= domain[j].min && r[j] <= last[j];
            }
            return in;
        };
        auto at_rvars = [&](const std::vector<Expr> &r) {
            std::map<std::string, Expr> m;
            for (size_t j = 0; j < nr; j++) {
                m[domain[j].var] = r[j];
            }
            return m;
        };
        // V, in reverse order of the RDom.
        Func value_adjoint(f.name + "_" + std::to_string(k + 1) + "_d_scan__");
        value_adjoint(vars) = cur(vars);
        RDom rr(extents);
        std::vector<Expr> r_back(nr);
        for (size_t j = 0; j < nr; j++) {
            r_back[j] = last[j] - rr[(int)j];
        }
        std::vector<Expr> w;
        for (const Expr &a : s.lhs) {
            w.push_back(substitute(at_rvars(r_back), a));
        }
        Expr v = cur(w);
        for (const Read &read : reads) {
            std::vector<Expr> later = w, r_later(nr), r_clamped(nr);
            for (size_t i = 0; i < w.size(); i++) {
                later[i] = simplify(later[i] + read.delta[i]);
            }
            for (size_t j = 0; j < nr; j++) {
                r_later[j] = r_back[j] + read.shift[j];
                r_clamped[j] = clamp(r_later[j], domain[j].min, last[j]);
            }
            Expr partial_later = substitute(at_rvars(r_clamped), read.partial);
            v = v + select(inside(r_later), value_adjoint(later) * partial_later, make_zero(v.type()));
        }
        value_adjoint(w) = v;
        // The other calls of the update, seeded with V.
        std::vector<std::pair<Expr, Expr>> ignored;
        propagate_stage(f, s, value_adjoint(s.lhs), ignored);
        // Before the update: overwritten points get nothing; the values
        // read before any iteration wrote them (iterations r whose r - s is
        // outside the RDom) get their share.
        Func prev(f.name + "_" + std::to_string(k) + "_d_def__");
        prev(vars) = cur(vars);
        scale_written_points(f, s, prev, cur, make_zero(cur.type()));
        for (const Read &read : reads) {
            Region full;
            for (size_t j = 0; j < nr; j++) {
                full.push_back({domain[j].min, domain[j].extent});
            }
            RDom all(full);
            std::vector<Expr> r(nr), r_before(nr);
            for (size_t j = 0; j < nr; j++) {
                r[j] = all[(int)j];
                r_before[j] = r[j] - read.shift[j];
            }
            std::vector<Expr> wf, at;
            for (size_t i = 0; i < s.lhs.size(); i++) {
                wf.push_back(substitute(at_rvars(r), s.lhs[i]));
                at.push_back(simplify(wf[i] - read.delta[i]));
            }
            all.where(!inside(r_before));
            prev(at) += value_adjoint(wf) * substitute(at_rvars(r), read.partial);
        }
        return prev;
    }

    void process(const FunctionPtr &fp) {
        const FunctionContents &f = *fp;
        auto it = accumulators_.find(f.name);
        if (it == accumulators_.end()) {
            return; // nothing differentiable reaches it
        }
        user_assert(!f.extern_def) << "propagate_adjoints: " << f.name << " is an extern stage; not supported";
        Func cur = it->second;
        int updates = (int)f.updates.size();
        size_t n = f.values.size();
        adjoints[{f.name, updates - 1}] = cur;
        std::vector<Var> vars;
        std::vector<Expr> var_exprs;
        for (const std::string &a : f.args) {
            vars.emplace_back(a);
            var_exprs.push_back(Var(a));
        }
        // Value j of g at `at`, and g(at) = values.
        auto value_of = [&](const Func &g, const std::vector<Expr> &at, size_t j) -> Expr {
            return n == 1 ? Expr(g(at)) : Expr(g(at)[(int)j]);
        };
        auto define = [&](Func &g, const std::vector<Expr> &at, const std::vector<Expr> &values) {
            if (n == 1) {
                g(at) = values[0];
            } else {
                g(at) = Tuple(values);
            }
        };
        for (int k = updates - 1; k >= -1; k--) {
            StageInfo s = stage_info(f, k);
            std::vector<Expr> seeds;
            for (size_t j = 0; j < n; j++) {
                seeds.push_back(value_of(cur, s.lhs, j));
            }
            if (n == 1 && k == 0 && updates == 1 && extremum_reduction(fp, s, cur, vars)) {
                break;
            }
            if (n == 1 && k >= 0 && s.rdom) {
                Func prev = scan_update(f, s, k, cur, vars);
                if (prev.defined()) {
                    adjoints[{f.name, k - 1}] = prev;
                    cur = prev;
                    continue;
                }
            }
            std::vector<std::pair<Expr, Expr>> self_other;
            std::vector<std::vector<Expr>> self = propagate_values(f, s, seeds, self_other);
            if (k < 0) {
                break;
            }
            user_assert(!s.rdom || self_other.empty())
                << "propagate_adjoints: update " << k << " of " << f.name
                << " reads it at other coordinates than those it writes over a reduction domain (a scan); "
                   "this is not supported";
            bool identity = true, zero = true;
            for (size_t j = 0; j < n; j++) {
                for (size_t i = 0; i < n; i++) {
                    identity = identity && (i == j ? is_const_one(self[j][i]) : is_const_zero(self[j][i]));
                    zero = zero && is_const_zero(self[j][i]);
                }
            }
            // The adjoint of value i before the update, at `at`: sum over j
            // of the adjoint of value j after it times d value j / d value i.
            auto before = [&](const std::vector<Expr> &at, const std::map<std::string, Expr> &rename) {
                std::vector<Expr> out;
                for (size_t i = 0; i < n; i++) {
                    Expr sum;
                    for (size_t j = 0; j < n; j++) {
                        if (is_const_zero(self[j][i])) {
                            continue;
                        }
                        Expr term = value_of(cur, at, j) * substitute(rename, self[j][i]);
                        sum = sum.defined() ? sum + term : term;
                    }
                    out.push_back(sum.defined() ? simplify(sum) : make_zero(value_of(cur, at, i).type()));
                }
                return out;
            };
            std::vector<Expr> copy;
            for (size_t i = 0; i < n; i++) {
                copy.push_back(value_of(cur, var_exprs, i));
            }
            // The adjoint of the value before update k.
            Func prev(f.name + "_" + std::to_string(k) + "_d_def__");
            bool all_pure = true;
            for (size_t i = 0; i < s.pure_vars.size(); i++) {
                all_pure = all_pure && s.pure_vars[i] == f.args[i];
            }
            if (identity && self_other.empty()) {
                define(prev, var_exprs, copy); // accumulations: f(..) += ...
            } else if (!s.rdom && all_pure) {
                define(prev, var_exprs, before(var_exprs, {}));
            } else if (!s.rdom) {
                define(prev, var_exprs, copy);
                define(prev, s.lhs, before(s.lhs, {}));
            } else if (identity) {
                define(prev, var_exprs, copy);
            } else if (n == 1 && (zero || writes_each_point_once(s))) {
                // Each point the update writes: the old value's adjoint is
                // the new one's times the factor (zero: overwritten).
                define(prev, var_exprs, copy);
                scale_written_points(f, s, prev, cur, self[0][0]);
            } else {
                user_error << "propagate_adjoints: update " << k << " of " << f.name
                           << " reads its own value with a factor other than 1 over a reduction domain that "
                              "may write a point more than once"
                           << (n > 1 ? " (or is Tuple-valued)" : "") << "; this is not supported";
            }
            for (auto &[call_expr, adj] : self_other) {
                const Call *c = call_expr.as<Call>();
                contribute(f, s, prev, c->args, c->value_index, adj);
            }
            adjoints[{f.name, k - 1}] = prev;
            cur = prev;
        }
    }
};

} // namespace

std::map<Derivative::FuncKey, Func> propagate_adjoint_funcs(const Func &output, const Func &output_adjoint,
                                                            const Region &output_bounds) {
    Propagator p;
    Box box;
    for (const Range &r : output_bounds) {
        box.push_back({r.min, simplify(r.min + r.extent - 1)});
    }
    p.set_output_box(output.name(), box);
    p.run(output, output_adjoint);
    return std::move(p.adjoints);
}

} // namespace Internal
} // namespace Halide
