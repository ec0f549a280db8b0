// See Passes.h: strided vector loads of one buffer at neighbouring offsets,
// read by one store, become slices of one dense load.
//
// A downsample reads f(2x - 1), f(2x), f(2x + 1) and f(2x + 2): after
// vectorization, loads at ramp(b - 1, 2, n), ramp(b, 2, n), ramp(b + 1, 2, n)
// and ramp(b + 2, 2, n). Codegen emits each stride-s load on its own (s
// dense loads and a shuffle, placed to read only the ramp's span), so the
// four ramps cost eight dense loads. The lanes of ramp(b - 1, 2, n) and
// ramp(b, 2, n) are the even and the odd lanes of the one dense vector
// ramp(b - 1, 1, 2n); loaded once, each ramp is a shuffle of it
// (slice_vector(v, start, stride, lanes): lanes start, start + stride, ...
// of v), and the four ramps cost four dense loads.
//
// Loads are grouped per store by buffer, element type, lane count, constant
// stride s (2 to 4) and the ramp's base apart from a constant offset c
// (base = e + c). Their distinct offsets, in increasing order, are cut into
// clusters starting at the smallest offset c0 left and taking every offset
// below c0 + s; a cluster of two or more offsets that ends exactly at
// c0 + s - 1 reads, together, exactly the s * n elements from e + c0 on, so
// the dense load reads no element the original loads did not (no reads
// past a buffer's end). Other offsets stay as they are.
//
// The dense load is bound by a LetStmt around the store. As in
// share_repeated_loads, loads in a masked_load, loads whose index uses a
// variable bound by a Let inside the value, stores inside an Atomic block
// and the store's own index are left alone; an expression writes no memory,
// so reading before the store reads the same data. Values are unchanged
// lane for lane.
#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "Halide/IREquality.h"
#include "Halide/IRMutator.h"
#include "Halide/IROperator.h"
#include "lower/LoadsOutsideLets.h"
#include "lower/Passes.h"

namespace Halide {
namespace Internal {
namespace {

// A load at ramp(e + c, s, n), s a constant from 2 to 4, split into its parts.
struct Strided {
    Expr e;
    int64_t c = 0;
    int s = 0;
};

bool as_strided(const Load *op, Strided &out) {
    const Ramp *r = op->index.as<Ramp>();
    const IntImm *stride = r ? r->stride.as<IntImm>() : nullptr;
    if (!op->type.is_vector() || !stride || stride->value < 2 || stride->value > 4) {
        return false;
    }
    out.s = (int)stride->value;
    out.e = r->base;
    out.c = 0;
    if (const Add *add = r->base.as<Add>()) {
        if (const IntImm *k = add->b.as<IntImm>()) {
            out.e = add->a, out.c = k->value;
        }
    } else if (const Sub *sub = r->base.as<Sub>()) {
        if (const IntImm *k = sub->b.as<IntImm>()) {
            out.e = sub->a, out.c = -k->value;
        }
    } else if (const IntImm *k = r->base.as<IntImm>()) {
        out.e = make_zero(k->type), out.c = k->value;
    }
    return true;
}

// The offsets c of each group's strided loads in a store's value.
class CollectStrided : public LoadsOutsideLetsVisitor {
public:
    LoadGroups<std::set<int64_t>> groups;

private:
    using LoadsOutsideLetsVisitor::visit;
    void visit(const Load *op) override {
        IRVisitor::visit(op);
        Strided st;
        if (as_strided(op, st) && movable(op)) {
            groups[LoadGroupKey{op->name, op->type, st.s, st.e}].insert(st.c);
        }
    }
};

// Where a shared load's lanes come from: the dense vector's variable and
// the offset of the load's first lane in it.
struct Source {
    std::string var;
    int64_t start;
};

// Each clustered load replaced by a slice of its dense vector.
class ReplaceStrided : public LoadsOutsideLetsMutator {
public:
    explicit ReplaceStrided(const LoadGroups<std::map<int64_t, Source>> &sources) : sources_(sources) {}

private:
    const LoadGroups<std::map<int64_t, Source>> &sources_;

    using LoadsOutsideLetsMutator::visit;
    Expr visit(const Load *op) override {
        Strided st;
        if (as_strided(op, st) && movable(op)) {
            auto group = sources_.find(LoadGroupKey{op->name, op->type, st.s, st.e});
            if (group != sources_.end()) {
                auto at = group->second.find(st.c);
                if (at != group->second.end()) {
                    Type dense = op->type.with_lanes(op->type.lanes() * st.s);
                    Expr v = Variable::make(dense, at->second.var);
                    return Call::make(op->type, "slice_vector", {v, (int)at->second.start, st.s, op->type.lanes()},
                                      Call::Intrinsic);
                }
            }
        }
        return IRMutator::visit(op);
    }
};

class ShareStridedLoads : public IRMutator {
    Stmt visit(const Atomic *op) override { return self_stmt(op); }

    Stmt visit(const Store *op) override {
        CollectStrided collect;
        collect.include(op->value);
        LoadGroups<std::map<int64_t, Source>> sources;
        std::vector<std::pair<std::string, Expr>> dense_loads;
        for (const auto &[key, offsets] : collect.groups) {
            std::vector<int64_t> cs(offsets.begin(), offsets.end());
            for (size_t i = 0; i < cs.size();) {
                size_t j = i;
                while (j + 1 < cs.size() && cs[j + 1] < cs[i] + key.stride) {
                    j++;
                }
                if (j == i || cs[j] != cs[i] + key.stride - 1) {
                    i++;
                    continue;
                }
                std::string var = op->name + ".strided$" + std::to_string(dense_loads.size());
                int lanes = key.type.lanes() * key.stride;
                Expr base = cs[i] == 0 ? key.pattern : key.pattern + make_const(key.pattern.type(), cs[i]);
                dense_loads.emplace_back(var, Load::make(key.type.with_lanes(lanes), key.name,
                                                         Ramp::make(base, make_one(key.pattern.type()), lanes)));
                for (size_t k = i; k <= j; k++) {
                    sources[key][cs[k]] = Source{var, cs[k] - cs[i]};
                }
                i = j + 1;
            }
        }
        if (dense_loads.empty()) {
            return self_stmt(op);
        }
        Stmt s = Store::make(op->name, ReplaceStrided(sources).mutate(op->value), op->index);
        for (auto it = dense_loads.rbegin(); it != dense_loads.rend(); ++it) {
            s = LetStmt::make(it->first, it->second, s);
        }
        return s;
    }
};

} // namespace

Stmt share_strided_loads(const Stmt &s) {
    return ShareStridedLoads().mutate(s);
}

} // namespace Internal
} // namespace Halide
