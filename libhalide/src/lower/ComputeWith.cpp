// See Passes.h: Stage::compute_with, the fusion of two stages' loop nests.
//
// Before (both Funcs computed at the same level, f's loops named f.s0.*):
//
//   for f.s0.y in [fy0, fy1]: for f.s0.x ...: f(x, y) = ...
//   ... (g's region lets)
//   for g.s0.y in [gy0, gy1]: for g.s0.x ...: g(x, y) = ...
//
// After g.compute_with(f, y), NoAlign:
//
//   for f.s0.y in [min(fy0, gy0), max(fy1, gy1)]:
//     if (fy0 <= f.s0.y <= fy1) for f.s0.x ...: f(x, y) = ...
//     if (gy0 <= f.s0.y <= gy1) for g.s0.x ...: g(x, f.s0.y) = ...
//
// AlignStart runs g's first iteration with f's first (g.s0.y = f.s0.y - fy0
// + gy0), AlignEnd its last with f's last. The parent's body comes first in
// each fused iteration. Stages in fusion are marked by schedule_functions
// (an IfThenElse on the "compute_with_stage" intrinsic around each stage of
// a Func in a fused group); the fused nest takes the place of whichever of
// the two ran later, so the region lets of both are in scope there
// (check_compute_with puts the Funcs of a group next to each other in the
// realization order, so only lets lie between their computations).
#include <algorithm>
#include <functional>
#include <set>

#include "Halide/Error.h"
#include "Halide/IRMutator.h"
#include "Halide/IROperator.h"
#include "Halide/IRVisitor.h"
#include "ir/Substitute.h"
#include "lower/ComputeWith.h"
#include "lower/Passes.h"

namespace Halide {
namespace Internal {
namespace {

constexpr const char *kMarker = "compute_with_stage";

const FuseLevel &fuse_of(const FunctionContents &f, int stage) {
    return stage == 0 ? f.fuse : f.updates[(size_t)stage - 1].fuse;
}
const std::vector<LoopDim> &dims_of(const FunctionContents &f, int stage) {
    return stage == 0 ? f.dims : f.updates[(size_t)stage - 1].dims;
}
const std::vector<SplitStep> &stage_splits(const FunctionContents &f, int stage) {
    return stage == 0 ? f.splits : f.updates[(size_t)stage - 1].splits;
}
// A variable as the user named it: "x" for the outer loop "x$o" of
// split(x, x, xi).
std::string user_name(const std::string &var) {
    return var.substr(0, var.find('$'));
}
// A loop's name with the variables it was split from, as upstream names it: "y.yi".
std::string dim_path(const std::vector<SplitStep> &splits, const std::string &var) {
    for (const SplitStep &s : splits) {
        if (s.kind == SplitStep::Split && (s.outer == var || s.inner == var)) {
            return dim_path(splits, s.old_var) + "." + user_name(var);
        }
    }
    return user_name(var);
}
std::string stage_name(const std::string &f, int stage) {
    return f + ".s" + std::to_string(stage);
}

class FindCalls : public IRVisitor {
public:
    std::set<std::string> calls;
    using IRVisitor::visit;
    void visit(const Call *op) override {
        IRVisitor::visit(op);
        if (op->call_type == Call::Halide) {
            calls.insert(op->name);
        }
    }
};

std::set<std::string> direct_calls(const FunctionContents &f) {
    FindCalls c;
    for (const Expr &v : f.values) {
        c.include(v);
    }
    for (const UpdateDefinition &u : f.updates) {
        for (const Expr &e : u.args) {
            c.include(e);
        }
        for (const Expr &e : u.values) {
            c.include(e);
        }
        if (u.rdom) {
            for (const ReductionVariable &r : u.rdom->domain) {
                c.include(r.min);
                c.include(r.extent);
            }
            for (const Expr &p : u.rdom->predicates) {
                c.include(p);
            }
        }
    }
    c.calls.erase(f.name);
    return c.calls;
}

// The name of Var::outermost(), the level above every loop.
const char *const kOutermost = "__outermost";

// Whether `from` calls `to`, directly or through other Funcs.
bool depends_on(const std::map<std::string, std::set<std::string>> &calls, const std::string &from,
                const std::string &to) {
    std::set<std::string> seen;
    std::vector<std::string> work{from};
    while (!work.empty()) {
        std::string f = work.back();
        work.pop_back();
        auto it = calls.find(f);
        if (it == calls.end()) {
            continue;
        }
        for (const std::string &g : it->second) {
            if (g == to) {
                return true;
            }
            if (seen.insert(g).second) {
                work.push_back(g);
            }
        }
    }
    return false;
}

// Where f is computed, in upstream's words: ".__root" or "h.y".
std::string level_text(const FunctionContents &f, bool is_output) {
    if (is_output || f.compute == ComputeLevel::Root) {
        return ".__root";
    }
    if (f.compute == ComputeLevel::Inlined) {
        return ".__inlined";
    }
    return f.compute_at_func + "." + f.compute_at_var;
}

// How many loops of `stage` of f, from the outermost, down to the one named
// `var` (0: none, and for Var::outermost(), which fuses no loop: the stages
// are only placed together, as upstream's).
size_t fused_depth(const FunctionContents &f, int stage, const std::string &var) {
    const std::vector<LoopDim> &dims = dims_of(f, stage);
    for (size_t i = 0; i < dims.size(); i++) {
        if (dims[i].name == var) {
            return dims.size() - i;
        }
    }
    return 0;
}

struct Pair {
    std::string child;
    int child_stage;
    std::string parent;
    int parent_stage;
};

std::vector<Pair> fused_pairs(const Environment &env) {
    std::vector<Pair> pairs;
    for (const auto &[name, f] : env) {
        for (int k = 0; k <= (int)f->updates.size(); k++) {
            const FuseLevel &fuse = fuse_of(*f, k);
            if (!fuse.parent_func.empty()) {
                pairs.push_back({name, k, fuse.parent_func, fuse.parent_stage});
            }
        }
    }
    return pairs;
}

bool is_marker(const IfThenElse *op, std::string *func = nullptr, int *stage = nullptr) {
    const Call *c = op ? op->condition.as<Call>() : nullptr;
    if (!c || c->name != kMarker) {
        return false;
    }
    if (func) {
        *func = c->args[0].as<StringImm>()->value;
    }
    if (stage) {
        *stage = (int)c->args[1].as<IntImm>()->value;
    }
    return true;
}
bool is_marker(const Stmt &s, std::string *func = nullptr, int *stage = nullptr) {
    return is_marker(s.as<IfThenElse>(), func, stage);
}

// The markers of the stages in order of execution, each with how often it appears.
class ListMarkers : public IRVisitor {
public:
    std::vector<std::pair<std::string, int>> order;
    std::map<std::pair<std::string, int>, int> count;
    using IRVisitor::visit;
    void visit(const IfThenElse *op) override {
        std::string f;
        int k = 0;
        if (is_marker(op, &f, &k)) {
            order.emplace_back(f, k);
            count[{f, k}]++;
        }
        IRVisitor::visit(op);
    }
};

// Takes out the marked stage `e` and the marked stages after it in the same
// block that belong to `group` (later stages of the Funcs fused with it,
// which must still run after it); `stop` is not taken, nor anything after it.
class Extract : public IRMutator {
public:
    Extract(std::pair<std::string, int> e, std::pair<std::string, int> stop, const std::set<std::string> &group)
        : e_(std::move(e)), stop_(std::move(stop)), group_(group) {}
    Stmt taken;                 // e's marker
    std::vector<Stmt> trailing; // the others, in order

    using IRMutator::visit;
    Stmt visit(const Block *op) override {
        std::vector<Stmt> items;
        flatten(op->first, items);
        flatten(op->rest, items);
        size_t at = items.size();
        for (size_t i = 0; i < items.size(); i++) {
            std::string f;
            int k = 0;
            if (is_marker(items[i], &f, &k) && std::make_pair(f, k) == e_) {
                at = i;
                break;
            }
        }
        if (at == items.size()) {
            return IRMutator::visit(op);
        }
        std::vector<Stmt> kept(items.begin(), items.begin() + at);
        taken = items[at];
        bool stopped = false;
        for (size_t i = at + 1; i < items.size(); i++) {
            std::string f;
            int k = 0;
            bool marker = is_marker(items[i], &f, &k);
            if (marker && std::make_pair(f, k) == stop_) {
                stopped = true;
            }
            if (!stopped && marker && group_.count(f)) {
                trailing.push_back(items[i]);
            } else {
                kept.push_back(items[i]);
            }
        }
        return kept.empty() ? Evaluate::make(IntImm::make(Int(32), 0)) : Block::make(kept);
    }

private:
    static void flatten(const Stmt &s, std::vector<Stmt> &out) {
        if (const Block *b = s.as<Block>()) {
            flatten(b->first, out);
            flatten(b->rest, out);
        } else if (s.defined()) {
            out.push_back(s);
        }
    }
    std::pair<std::string, int> e_, stop_;
    std::set<std::string> group_;
};

// Replaces the marked stage `target` by `with`.
class ReplaceMarker : public IRMutator {
public:
    ReplaceMarker(std::pair<std::string, int> target, Stmt with) : target_(std::move(target)), with_(std::move(with)) {}
    bool done = false;
    using IRMutator::visit;
    Stmt visit(const IfThenElse *op) override {
        std::string f;
        int k = 0;
        if (is_marker(op, &f, &k) && std::make_pair(f, k) == target_) {
            done = true;
            return with_;
        }
        return IRMutator::visit(op);
    }

private:
    std::pair<std::string, int> target_;
    Stmt with_;
};

// A stage's statement taken apart: the lets and checks before its loop nest,
// and the nest's loops from the outermost.
struct Peeled {
    std::vector<const LetStmt *> lets;
    std::vector<Stmt> checks;
    std::vector<const For *> loops;
};

Peeled peel(Stmt s, const std::string &func, int stage, size_t depth) {
    Peeled p;
    while (true) {
        if (const LetStmt *l = s.as<LetStmt>()) {
            p.lets.push_back(l);
            s = l->body;
            continue;
        }
        if (const Block *b = s.as<Block>()) {
            std::vector<Stmt> items;
            while (const Block *bb = s.as<Block>()) {
                items.push_back(bb->first);
                s = bb->rest;
            }
            for (const Stmt &i : items) {
                p.checks.push_back(i);
            }
            (void)b;
            continue;
        }
        break;
    }
    for (size_t i = 0; i < depth; i++) {
        const For *f = s.as<For>();
        user_assert(f) << "Invalid compute_with: the loops of " << stage_name(func, stage)
                       << " are not a simple loop nest (specializations or an extern stage)";
        p.loops.push_back(f);
        s = f->body;
    }
    return p;
}

LoopAlignStrategy strategy_for(const FuseLevel &fuse, const std::string &child_dim, const std::string &parent_dim) {
    for (const auto &[name, s] : fuse.align) {
        if (name == child_dim || name == parent_dim) {
            return s;
        }
    }
    return fuse.all;
}

// The loop of Var::outermost() of stage `stage` of f around `s`, if s is
// that loop (schedule_functions makes one where a Func is placed at it).
const For *outermost_loop(const Stmt &s, const FunctionContents &f, int stage) {
    const For *loop = s.as<For>();
    return loop && loop->name == loop_var_name(f.name, kOutermost, stage) ? loop : nullptr;
}

Stmt fuse_loops(const FunctionContents &cf, int cs, const Stmt &child, const FunctionContents &pf, int ps,
                const Stmt &parent, size_t depth, const std::set<std::string> &kept,
                const For *child_outermost = nullptr);

// The parent's stage statement `parent` and the child's `child`, fused over
// their `depth` outermost loops. Var::outermost() is the loop above them all:
// the parent's loop of it (a Func is placed there) holds the fused nest, as
// upstream's, so whatever is computed there serves both stages. The child's
// loop of it, if any, goes around the child's part.
Stmt fuse_nests(const FunctionContents &cf, int cs, const Stmt &child, const FunctionContents &pf, int ps,
                const Stmt &parent, size_t depth, const std::set<std::string> &kept) {
    const For *po = outermost_loop(parent, pf, ps), *co = outermost_loop(child, cf, cs);
    if (!po && !co) {
        return fuse_loops(cf, cs, child, pf, ps, parent, depth, kept);
    }
    Stmt fused = fuse_loops(cf, cs, co ? co->body : child, pf, ps, po ? po->body : parent, depth, kept, co);
    return po ? For::make(po->name, po->min, po->extent, po->for_type, fused) : fused;
}

// fuse_nests without the loops of Var::outermost(); `child_outermost` (the
// child's, taken off) goes around the child's part, inside the fused loops.
Stmt fuse_loops(const FunctionContents &cf, int cs, const Stmt &child, const FunctionContents &pf, int ps,
                const Stmt &parent, size_t depth, const std::set<std::string> &kept, const For *child_outermost) {
    auto around_child = [&](const Stmt &body) {
        return child_outermost ? For::make(child_outermost->name, child_outermost->min, child_outermost->extent,
                                           child_outermost->for_type, body)
                               : body;
    };
    if (depth == 0) { // at Var::outermost(): one after the other, no loop shared
        return Block::make(parent, around_child(child));
    }
    Peeled p = peel(parent, pf.name, ps, depth), c = peel(child, cf.name, cs, depth);
    const std::vector<LoopDim> &pdims = dims_of(pf, ps), &cdims = dims_of(cf, cs);
    const FuseLevel &fuse = fuse_of(cf, cs);
    std::map<std::string, Expr> child_vars;
    std::vector<Expr> fused_min(depth), fused_extent(depth);
    Expr p_in, c_in;
    std::vector<Expr> child_loops; // where each fused loop of the child is, in the parent's variables
    for (size_t i = 0; i < depth; i++) {
        const For *pl = p.loops[i], *cl = c.loops[i];
        Expr v = Variable::make(Int(32), pl->name);
        Expr pmin = pl->min, pmax = pl->min + pl->extent - 1;
        Expr cmin = cl->min, cext = cl->extent;
        const std::string &pname = pdims[pdims.size() - 1 - i].name, &cname = cdims[cdims.size() - 1 - i].name;
        LoopAlignStrategy s = strategy_for(fuse, cname, pname);
        Expr lo, hi, cv; // the child's range in fused coordinates, and its loop variable
        if (s == LoopAlignStrategy::AlignStart) {
            lo = pmin;
            hi = pmin + cext - 1;
            cv = v - pmin + cmin;
        } else if (s == LoopAlignStrategy::AlignEnd) {
            lo = pmax - cext + 1;
            hi = pmax;
            cv = v - pmax + (cmin + cext - 1);
        } else {
            lo = cmin;
            hi = cmin + cext - 1;
            cv = v;
        }
        child_loops.push_back(cv);
        if (!kept.count(cl->name)) {
            child_vars[cl->name] = cv;
        }
        Expr fmin = min(pmin, lo), fmax = max(pmax, hi);
        fused_min[i] = fmin;
        fused_extent[i] = fmax - fmin + 1;
        Expr pi = pmin <= v && v <= pmax, ci = lo <= v && v <= hi;
        p_in = p_in.defined() ? (p_in && pi) : pi;
        c_in = c_in.defined() ? (c_in && ci) : ci;
    }
    // A loop of the child a Func is placed at (kept) stays, as a loop of one
    // iteration at the fused loop's point, so that Func is computed within
    // the child's part.
    Stmt child_body = substitute(child_vars, c.loops[depth - 1]->body);
    for (size_t i = depth; i-- > 0;) {
        if (kept.count(c.loops[i]->name)) {
            child_body = For::make(c.loops[i]->name, substitute(child_vars, child_loops[i]), int32_const(1),
                                   ForType::Serial, child_body);
        }
    }
    Stmt body =
        Block::make(IfThenElse::make(p_in, p.loops[depth - 1]->body), IfThenElse::make(c_in, around_child(child_body)));
    for (size_t i = depth; i-- > 0;) {
        const For *pl = p.loops[i];
        body = For::make(pl->name, fused_min[i], fused_extent[i], pl->for_type, body);
    }
    std::vector<Stmt> checks = p.checks;
    checks.insert(checks.end(), c.checks.begin(), c.checks.end());
    checks.push_back(body);
    Stmt s = Block::make(checks);
    for (auto it = c.lets.rbegin(); it != c.lets.rend(); ++it) {
        s = LetStmt::make((*it)->name, (*it)->value, s);
    }
    for (auto it = p.lets.rbegin(); it != p.lets.rend(); ++it) {
        s = LetStmt::make((*it)->name, (*it)->value, s);
    }
    return s;
}

class StripMarkers : public IRMutator {
public:
    using IRMutator::visit;
    Stmt visit(const IfThenElse *op) override {
        if (is_marker(op)) {
            return mutate(op->then_case);
        }
        return IRMutator::visit(op);
    }
};

// The Funcs fused with f (directly or through others), f included.
std::set<std::string> group_of(const std::vector<Pair> &pairs, const std::string &f) {
    std::set<std::string> group{f};
    bool grew = true;
    while (grew) {
        grew = false;
        for (const Pair &p : pairs) {
            if (group.count(p.child) != group.count(p.parent)) {
                group.insert(p.child);
                group.insert(p.parent);
                grew = true;
            }
        }
    }
    return group;
}

} // namespace

Stmt mark_compute_with_stage(const FunctionContents &f, int stage, const Stmt &s) {
    return IfThenElse::make(
        Call::make(Bool(), kMarker, {StringImm::make(f.name), IntImm::make(Int(32), stage)}, Call::Intrinsic), s);
}

std::set<std::string> compute_with_funcs(const Environment &env) {
    std::set<std::string> funcs;
    for (const Pair &p : fused_pairs(env)) {
        funcs.insert(p.child);
        funcs.insert(p.parent);
    }
    return funcs;
}

std::vector<std::string> check_compute_with(const Environment &env, const std::vector<std::string> &order,
                                            const std::vector<FunctionPtr> &outputs) {
    std::vector<Pair> pairs = fused_pairs(env);
    if (pairs.empty()) {
        return order;
    }
    std::set<std::string> output_names;
    for (const FunctionPtr &f : outputs) {
        output_names.insert(f->name);
    }
    std::map<std::string, std::set<std::string>> calls;
    for (const auto &[name, f] : env) {
        calls[name] = direct_calls(*f);
    }
    for (const Pair &p : pairs) {
        std::string child = stage_name(p.child, p.child_stage);
        auto it = env.find(p.parent);
        user_assert(it != env.end()) << "Illegal compute_with: \"" << p.child
                                     << "\" is scheduled to be computed with \"" << p.parent
                                     << "\" which is not used anywhere.";
        const FunctionContents &cf = *env.at(p.child), &pf = *it->second;
        user_assert(p.parent_stage <= (int)pf.updates.size())
            << "Invalid compute_with: " << p.parent << " has no stage " << p.parent_stage;
        std::string parent = stage_name(p.parent, p.parent_stage);
        bool c_out = output_names.count(cf.name) > 0, p_out = output_names.count(pf.name) > 0;
        user_assert(c_out || cf.compute != ComputeLevel::Inlined)
            << "Invalid compute_with: " << child << " is scheduled inline.";
        user_assert(p_out || pf.compute != ComputeLevel::Inlined)
            << "Invalid compute_with: " << parent << " is scheduled inline.";
        std::string cl = level_text(cf, c_out), pl = level_text(pf, p_out);
        user_assert(cl == pl) << "Invalid compute_with: the compute levels of " << parent << " (computed at " << pl
                              << ") and " << child << " (" << cl << ") do not match.";
        user_assert(c_out == p_out) << "Invalid compute_with: " << child << " and " << parent
                                    << " must both be outputs of the pipeline or neither (fusing an output with a "
                                       "compute_root Func is not supported here)";
        user_assert(!cf.extern_def && !pf.extern_def)
            << "Invalid compute_with: " << (cf.extern_def ? child : parent) << " is an extern stage.";
        for (const FunctionContents *f : {&cf, &pf}) {
            bool specialized = !f->specializations.empty();
            for (const UpdateDefinition &u : f->updates) {
                specialized = specialized || !u.specializations.empty();
            }
            user_assert(!specialized) << "Func " << cf.name << " is scheduled to be computed with " << pf.name
                                      << ", so it must not have any specializations.";
        }
        const std::string &var = fuse_of(cf, p.child_stage).var;
        const bool outermost = var == kOutermost;
        size_t pd = fused_depth(pf, p.parent_stage, var);
        user_assert(pd > 0 || outermost) << "Invalid compute_with: cannot find " << var << " in " << parent;
        size_t cd = fused_depth(cf, p.child_stage, var);
        user_assert(cd > 0 || outermost) << "Invalid compute_with: cannot find " << var << " in " << child;
        user_assert(pd == cd) << "Invalid compute_with: # of fused dims of " << parent << " and " << child
                              << " do not match.";
        const std::vector<LoopDim> &pdims = dims_of(pf, p.parent_stage), &cdims = dims_of(cf, p.child_stage);
        for (size_t i = pd; i-- > 0;) { // innermost fused loop first, as upstream checks
            const LoopDim &a = pdims[pdims.size() - 1 - i], &b = cdims[cdims.size() - 1 - i];
            user_assert(a.name == b.name)
                << "Invalid compute_with: names of dim " << pdims.size() - 1 - i << " of " << parent << "("
                << dim_path(stage_splits(pf, p.parent_stage), a.var) << ") and " << child << "("
                << dim_path(stage_splits(cf, p.child_stage), b.var) << ") do not match.";
            // A parallel loop fused with one that is not: upstream's error
            // (dims counted from the innermost fused one). A vectorized
            // loop may be fused with a serial one, as upstream allows.
            auto kind = [](ForType t) { return t == ForType::Parallel ? "parallel" : "for"; };
            user_assert((a.for_type == ForType::Parallel) == (b.for_type == ForType::Parallel))
                << "Invalid compute_with: for types of dim " << pd - 1 - i << " of " << parent << "("
                << dim_path(stage_splits(pf, p.parent_stage), a.var) << " is " << kind(a.for_type) << ") and " << child
                << "(" << dim_path(stage_splits(cf, p.child_stage), b.var) << " is " << kind(b.for_type)
                << ") do not match.";
        }
        user_assert(!depends_on(calls, cf.name, pf.name) && !depends_on(calls, pf.name, cf.name))
            << "Invalid compute_with: there is dependency between " << pf.name << " and " << cf.name;
    }
    // Stages of two Funcs fused pairwise must keep their order on both sides.
    for (const Pair &a : pairs) {
        for (const Pair &b : pairs) {
            bool same = a.child == b.child && a.parent == b.parent;
            if (same && a.child_stage < b.child_stage && a.parent_stage > b.parent_stage) {
                user_error << "Invalid compute_with: impossible to establish correct stage order between "
                           << stage_name(a.child, a.child_stage) << " with " << stage_name(a.parent, a.parent_stage)
                           << " and " << stage_name(b.child, b.child_stage) << " with "
                           << stage_name(b.parent, b.parent_stage);
            }
        }
    }
    // The realization order with each fused group's Funcs next to each
    // other: a topological order of the groups (earliest first, as given),
    // each group's Funcs in their given order.
    std::map<std::string, std::string> group; // Func -> its group's first Func in `order`
    for (const std::string &f : order) {
        if (group.count(f)) {
            continue;
        }
        for (const std::string &g : group_of(pairs, f)) {
            group[g] = f;
        }
    }
    std::vector<std::string> result;
    std::set<std::string> done;
    while (result.size() < order.size()) {
        bool progressed = false;
        for (const std::string &f : order) {
            if (done.count(f)) {
                continue;
            }
            std::vector<std::string> members;
            for (const std::string &g : order) {
                if (group.at(g) == group.at(f)) {
                    members.push_back(g);
                }
            }
            bool ready = true;
            for (const std::string &m : members) {
                for (const std::string &callee : calls[m]) {
                    ready = ready && (!group.count(callee) || done.count(callee) || group.at(callee) == group.at(f));
                }
            }
            if (!ready) {
                continue;
            }
            for (const std::string &m : members) {
                result.push_back(m);
                done.insert(m);
            }
            progressed = true;
            break;
        }
        user_assert(progressed) << "Invalid compute_with: the fused Funcs can't be computed together: another Func "
                                   "between them in the pipeline depends on one and is used by the other";
    }
    return result;
}

EarlyFusion fused_before_placing(const Environment &env) {
    EarlyFusion early;
    std::vector<Pair> pairs = fused_pairs(env);
    // The loops of each stage fused with a child (its dims fused, by name):
    // a Func placed at one of them, or at Var::outermost() of a parent, is
    // placed where the child's part is too.
    struct Level {
        std::string func, dim; // a loop level: the loop named dim of stage `stage` of func
        int stage;
        std::string var; // its loop variable (a split's outer loop named y may be y.yo)
    };
    std::vector<Level> fused_levels, child_levels;
    for (const Pair &p : pairs) {
        const FunctionContents &cf = *env.at(p.child), &pf = *env.at(p.parent);
        const std::string &var = fuse_of(cf, p.child_stage).var;
        fused_levels.push_back({p.parent, kOutermost, p.parent_stage, kOutermost});
        for (const FunctionContents *f : {&pf, &cf}) {
            int stage = f == &pf ? p.parent_stage : p.child_stage;
            const std::vector<LoopDim> &dims = dims_of(*f, stage);
            size_t depth = fused_depth(*f, stage, var);
            for (size_t i = dims.size() - depth; i < dims.size(); i++) {
                (f == &pf ? fused_levels : child_levels).push_back({f->name, dims[i].name, stage, dims[i].var});
            }
        }
    }
    auto names = [](const std::vector<Level> &levels, const std::string &func, const std::string &dim, int stage) {
        std::vector<const Level *> found;
        for (const Level &l : levels) {
            if (l.func == func && l.dim == dim && (stage < 0 || stage == l.stage)) {
                found.push_back(&l);
            }
        }
        return found;
    };
    std::vector<Level> placed; // every compute_at and store_at level (stage -1: each stage)
    for (const auto &[name, g] : env) {
        if (g->compute == ComputeLevel::At) {
            placed.push_back({g->compute_at_func, g->compute_at_var, g->compute_at_stage, ""});
        }
        if (g->store == ComputeLevel::At) {
            placed.push_back({g->store_at_func, g->store_at_var, g->store_at_stage, ""});
        }
    }
    for (const Level &at : placed) {
        for (const Level *l : names(fused_levels, at.func, at.dim, at.stage)) {
            early.groups.insert(group_of(pairs, l->func));
        }
    }
    for (const Level &at : placed) {
        for (const Level *l : names(child_levels, at.func, at.dim, at.stage)) {
            bool in_early = std::any_of(early.groups.begin(), early.groups.end(),
                                        [&](const std::set<std::string> &g) { return g.count(l->func) > 0; });
            if (in_early) {
                early.kept_loops.insert(loop_var_name(l->func, l->var, l->stage));
            }
        }
    }
    return early;
}

namespace {

// fuse_compute_with over the pairs whose child is in `only` (all: empty).
Stmt fuse(const Stmt &stmt, const Environment &env, const std::set<std::string> &only,
          const std::set<std::string> &kept_loops) {
    std::vector<Pair> pairs = fused_pairs(env);
    if (!only.empty()) {
        pairs.erase(std::remove_if(pairs.begin(), pairs.end(), [&](const Pair &p) { return !only.count(p.child); }),
                    pairs.end());
    }
    if (pairs.empty()) {
        return stmt;
    }
    // Deepest children first, so a stage fused with a parent of its own
    // carries its children along.
    auto depth = [&](const Pair &p) {
        int d = 0;
        std::string f = p.parent;
        int k = p.parent_stage;
        while (d < 64) {
            const FuseLevel &up = fuse_of(*env.at(f), k);
            if (up.parent_func.empty()) {
                break;
            }
            f = up.parent_func;
            k = up.parent_stage;
            d++;
        }
        return d;
    };
    std::stable_sort(pairs.begin(), pairs.end(), [&](const Pair &a, const Pair &b) { return depth(a) > depth(b); });
    Stmt s = stmt;
    for (const Pair &p : pairs) {
        const FunctionContents &cf = *env.at(p.child), &pf = *env.at(p.parent);
        std::pair<std::string, int> cm{p.child, p.child_stage}, pm{p.parent, p.parent_stage};
        ListMarkers list;
        list.include(s);
        if (!list.count.count(cm) || !list.count.count(pm)) {
            continue; // one of them is not computed (nothing uses it): nothing to fuse
        }
        user_assert(list.count[cm] == 1 && list.count[pm] == 1)
            << "Invalid compute_with: " << stage_name(p.child, p.child_stage) << " and "
            << stage_name(p.parent, p.parent_stage)
            << " are computed in several places (at a loop of each stage of a Func with update definitions); "
               "fusing them there is not supported";
        auto first = std::find_if(list.order.begin(), list.order.end(),
                                  [&](const std::pair<std::string, int> &m) { return m == cm || m == pm; });
        bool parent_first = *first == pm;
        std::pair<std::string, int> early = parent_first ? pm : cm, late = parent_first ? cm : pm;
        Extract extract(early, late, group_of(pairs, early.first));
        s = extract.mutate(s);
        internal_assert(extract.taken.defined()) << "compute_with: stage " << early.first << " not found in a block";
        class Find : public IRVisitor {
        public:
            std::pair<std::string, int> want;
            Stmt found;
            using IRVisitor::visit;
            void visit(const IfThenElse *op) override {
                std::string f;
                int k = 0;
                if (is_marker(op, &f, &k) && std::make_pair(f, k) == want) {
                    found = op->then_case;
                    return;
                }
                IRVisitor::visit(op);
            }
        } find;
        find.want = late;
        find.include(s);
        internal_assert(find.found.defined()) << "compute_with: stage " << late.first << " not found";
        Stmt early_body = extract.taken.as<IfThenElse>()->then_case;
        Stmt late_body = find.found;
        Stmt parent_body = parent_first ? early_body : late_body, child_body = parent_first ? late_body : early_body;
        size_t d = fused_depth(pf, p.parent_stage, fuse_of(cf, p.child_stage).var);
        Stmt fused = mark_compute_with_stage(
            pf, p.parent_stage,
            fuse_nests(cf, p.child_stage, child_body, pf, p.parent_stage, parent_body, d, kept_loops));
        std::vector<Stmt> placed{fused};
        placed.insert(placed.end(), extract.trailing.begin(), extract.trailing.end());
        ReplaceMarker replace(late, Block::make(placed));
        s = replace.mutate(s);
        internal_assert(replace.done);
    }
    return only.empty() ? StripMarkers().mutate(s) : s;
}

} // namespace

Stmt fuse_group(const Stmt &s, const Environment &env, const std::set<std::string> &group,
                const std::set<std::string> &kept_loops) {
    internal_assert(!group.empty());
    return fuse(s, env, group, kept_loops);
}

Stmt fuse_compute_with(const Stmt &s, const Environment &env) {
    return fuse(s, env, {}, {});
}

} // namespace Internal
} // namespace Halide
