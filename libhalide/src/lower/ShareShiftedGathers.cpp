// See ShareShiftedGathers.h: gathers of one buffer at the same lane-wise function of
// ramps shifted by constants, read by one store, become slices of one wider
// gather.
//
// The edge vectors of a 5x5 Gaussian read through mirror_interior load
// in[g(ramp(x + c, 1, n))] for c = -2 ... 2, g the boundary condition's
// mirrored coordinate (selects, clamps, a `%` far out). Codegen computes g for each
// of the five n-lane index vectors and gathers each. The lanes of the five
// are the n + 4 values g(x - 2), ..., g(x + n + 1): one gather of n + 4
// lanes at g(ramp(x - 2, 1, n + 4)) computes g once per element, and each
// tap is the slice of n lanes at c + 2 (slice_vector).
//
// A load qualifies when its index is not a plain ramp (codegen loads those
// densely), has a select, a division or a modulo in it (the shapes codegen
// gathers), reads no memory, and is built lane by lane (ramps of constant
// strides, broadcasts, casts, arithmetic, comparisons, logic and selects;
// nothing that mixes lanes), every ramp's base being some e plus a constant
// k plus c times its stride, c the same for all: the index shifted by c
// lanes. (The mirrored coordinate of mirror_interior has ramp(x + c - min,
// 1, n) and ramp(0 - (x + c - min), -1, n) side by side, mirror_image's
// ramp(-1 - (x + c - min), -1, n): all shifted by c.) Loads are grouped per
// store by buffer, type and the index with each ramp's shift taken off (its
// k kept); a group of two or more shifts whose neighbours are at most n
// apart is read by one load of n + cmax - cmin lanes: each of its lanes is a
// lane some load of the group read, so it reads no element they did not.
// As in share_strided_loads, the wide load is bound by a LetStmt around the
// store; loads in a masked_load, loads whose index uses a variable bound
// inside the value and stores inside an Atomic block are left alone.
#include <map>
#include <set>
#include <string>
#include <vector>

#include "Halide/IREquality.h"
#include "Halide/IRMutator.h"
#include "Halide/IROperator.h"
#include "Halide/Simplify.h"
#include "ir/UsesVars.h"
#include "lower/LoadsOutsideLets.h"
#include "lower/ShareShiftedGathers.h"

namespace Halide {
namespace Internal {
namespace {

// e as rest + c with c a constant (sums and differences only).
Expr split_constant(const Expr &e, int64_t &c) {
    if (const IntImm *k = e.as<IntImm>()) {
        c = k->value;
        return Expr();
    }
    const Add *add = e.as<Add>();
    const Sub *sub = e.as<Sub>();
    if (!add && !sub) {
        c = 0;
        return e;
    }
    int64_t ca = 0, cb = 0;
    Expr ra = split_constant(add ? add->a : sub->a, ca);
    Expr rb = split_constant(add ? add->b : sub->b, cb);
    c = add ? ca + cb : ca - cb;
    if (!rb.defined()) {
        return ra;
    }
    if (!ra.defined()) {
        return add ? rb : Sub::make(make_zero(rb.type()), rb);
    }
    return add ? Add::make(ra, rb) : Sub::make(ra, rb);
}

// The index with the constant of every ramp's base taken off (`offset`:
// that constant, the same for all), or undefined if the index does not
// qualify (see the top of the file).
class Template : public IRMutator {
public:
    bool ok = true, gathered = false, seen_ramp = false;
    int64_t offset = 0;

    using IRMutator::mutate;
    Expr mutate(const Expr &e) override {
        if (!ok || !e.defined() || e.type().is_scalar()) {
            return e;
        }
        switch (e->node_type) {
        case IRNodeType::Select:
        case IRNodeType::Div:
        case IRNodeType::Mod: gathered = true; break;
        case IRNodeType::Cast:
        case IRNodeType::Add:
        case IRNodeType::Sub:
        case IRNodeType::Mul:
        case IRNodeType::Min:
        case IRNodeType::Max:
        case IRNodeType::EQ:
        case IRNodeType::NE:
        case IRNodeType::LT:
        case IRNodeType::LE:
        case IRNodeType::GT:
        case IRNodeType::GE:
        case IRNodeType::And:
        case IRNodeType::Or:
        case IRNodeType::Not:
        case IRNodeType::Broadcast: break;
        case IRNodeType::Ramp: {
            // ramp(e + k + c * s, s, n) is ramp(e + k, s, n) shifted by c
            // lanes: the first ramp gives c (k in [0, |s|)), the others keep
            // their k (any constant) in the template.
            const Ramp *r = e.as<Ramp>();
            const int64_t *stride = as_const_int(r->stride);
            if (!stride || *stride == 0) {
                ok = false;
                return e;
            }
            int64_t c = 0, s = *stride, m = s < 0 ? -s : s;
            Expr rest = split_constant(r->base, c);
            if (!seen_ramp) {
                int64_t k = ((c % m) + m) % m;
                seen_ramp = true, offset = (c - k) / s;
            }
            int64_t k = c - offset * s;
            Expr base = rest.defined() ? rest : make_zero(r->base.type());
            if (k != 0) {
                base = Add::make(base, make_const(base.type(), k));
            }
            return Ramp::make(base, r->stride, r->lanes);
        }
        default: ok = false; return e;
        }
        return IRMutator::mutate(e);
    }
};

// A template's vectors widened to `lanes` lanes, every ramp starting `c`
// lanes later; lanes from `valid` on repeat lane valid - 1 (each ramp held
// at its value there), so that they read only what the loads shared read.
class Widen : public IRMutator {
public:
    Widen(int64_t c, int lanes, int valid) : c_(c), lanes_(lanes), valid_(valid) {}
    using IRMutator::mutate;
    Expr mutate(const Expr &e) override {
        if (!e.defined() || e.type().is_scalar()) {
            return e;
        }
        if (const Ramp *r = e.as<Ramp>()) {
            Expr base = c_ == 0 ? r->base : simplify(r->base + r->stride * make_const(r->base.type(), c_));
            Expr wide = Ramp::make(base, r->stride, lanes_);
            if (valid_ == lanes_) {
                return wide;
            }
            Expr last = Broadcast::make(simplify(base + r->stride * make_const(base.type(), valid_ - 1)), lanes_);
            return is_positive_const(r->stride) ? Min::make(wide, last) : Max::make(wide, last);
        }
        if (const Broadcast *b = e.as<Broadcast>()) {
            return Broadcast::make(b->value, lanes_);
        }
        if (const Cast *cast = e.as<Cast>()) {
            return Cast::make(cast->type.with_lanes(lanes_), mutate(cast->value));
        }
        return IRMutator::mutate(e);
    }

private:
    int64_t c_;
    int lanes_, valid_;
};

bool as_shifted(const Load *op, Expr &tmpl, int64_t &c) {
    if (!op->type.is_vector() || op->index.as<Ramp>() || expr_reads_memory(op->index)) {
        return false;
    }
    Template t;
    Expr e = t.mutate(op->index);
    if (!t.ok || !t.gathered || !t.seen_ramp) {
        return false;
    }
    tmpl = e, c = t.offset;
    return true;
}

class CollectShifted : public LoadsOutsideLetsVisitor {
public:
    LoadGroups<std::set<int64_t>> groups;

private:
    using LoadsOutsideLetsVisitor::visit;
    void visit(const Load *op) override {
        IRVisitor::visit(op);
        Expr tmpl;
        int64_t c;
        if (movable(op) && as_shifted(op, tmpl, c)) {
            groups[LoadGroupKey{op->name, op->type, 0, tmpl}].insert(c);
        }
    }
};

struct Source {
    std::string var;
    int lanes;
    int64_t start;
};

class ReplaceShifted : public LoadsOutsideLetsMutator {
public:
    explicit ReplaceShifted(const LoadGroups<std::map<int64_t, Source>> &sources) : sources_(sources) {}

private:
    const LoadGroups<std::map<int64_t, Source>> &sources_;

    using LoadsOutsideLetsMutator::visit;
    Expr visit(const Load *op) override {
        Expr tmpl;
        int64_t c;
        if (movable(op) && as_shifted(op, tmpl, c)) {
            auto group = sources_.find(LoadGroupKey{op->name, op->type, 0, tmpl});
            if (group != sources_.end()) {
                auto at = group->second.find(c);
                if (at != group->second.end()) {
                    Expr v = Variable::make(op->type.with_lanes(at->second.lanes), at->second.var);
                    return Call::make(op->type, "slice_vector", {v, (int)at->second.start, 1, op->type.lanes()},
                                      Call::Intrinsic);
                }
            }
        }
        return IRMutator::visit(op);
    }
};

class ShareShiftedGathers : public IRMutator {
    using IRMutator::visit;
    Stmt visit(const Atomic *op) override { return self_stmt(op); }

    Stmt visit(const Store *op) override {
        CollectShifted collect;
        collect.include(op->value);
        LoadGroups<std::map<int64_t, Source>> sources;
        std::vector<std::pair<std::string, Expr>> wide_loads;
        for (const auto &[key, offsets] : collect.groups) {
            std::vector<int64_t> cs(offsets.begin(), offsets.end());
            int n = key.type.lanes();
            bool close = cs.size() >= 2;
            for (size_t i = 1; i < cs.size(); i++) {
                close = close && cs[i] - cs[i - 1] <= n;
            }
            int64_t width = cs.back() - cs.front() + n;
            if (!close || width > 2 * n) {
                continue;
            }
            std::string var = op->name + ".shifted$" + std::to_string(wide_loads.size());
            // A power of two of lanes (vectors of other widths are split
            // lane by lane by LLVM's legalization); the lanes past `width`
            // repeat its last.
            int lanes = 1;
            while (lanes < width) {
                lanes *= 2;
            }
            Expr index = Widen(cs.front(), lanes, (int)width).mutate(key.pattern);
            wide_loads.emplace_back(var, Load::make(key.type.with_lanes(lanes), key.name, index));
            for (int64_t c : cs) {
                sources[key][c] = Source{var, lanes, c - cs.front()};
            }
        }
        if (wide_loads.empty()) {
            return self_stmt(op);
        }
        Stmt s = Store::make(op->name, ReplaceShifted(sources).mutate(op->value), op->index);
        for (auto it = wide_loads.rbegin(); it != wide_loads.rend(); ++it) {
            s = LetStmt::make(it->first, it->second, s);
        }
        return s;
    }
};

} // namespace

Stmt share_shifted_gathers(const Stmt &s) {
    return ShareShiftedGathers().mutate(s);
}

} // namespace Internal
} // namespace Halide
