// The loads of a store's value that a pass may move in front of the store
// (share_repeated_loads, share_strided_loads): not those under masked_load
// (a predicated tail's lanes may be out of bounds) and not those whose
// index uses a variable bound by a Let inside the value. A visitor and a
// mutator that track those Let variables and do not enter masked loads, and
// the key the passes group such loads by.
#ifndef HALIDE_LOWER_LOADS_OUTSIDE_LETS_H
#define HALIDE_LOWER_LOADS_OUTSIDE_LETS_H

#include <map>
#include <set>
#include <string>

#include "Halide/IREquality.h"
#include "Halide/IRMutator.h"
#include "Halide/IRVisitor.h"
#include "ir/UsesVars.h"

namespace Halide {
namespace Internal {

inline bool is_masked_load(const Call *op) {
    return op->call_type == Call::Intrinsic && op->name == "masked_load";
}

class LoadsOutsideLetsVisitor : public IRVisitor {
protected:
    // Whether the index of a load may be read outside the value.
    bool movable(const Load *op) const { return !expr_uses_any_var(op->index, bound_inside_); }

    void visit(const Call *op) override {
        if (!is_masked_load(op)) {
            IRVisitor::visit(op);
        }
    }
    void visit(const Let *op) override {
        include(op->value);
        bool fresh = bound_inside_.insert(op->name).second;
        include(op->body);
        if (fresh) {
            bound_inside_.erase(op->name);
        }
    }

private:
    std::set<std::string> bound_inside_;
};

class LoadsOutsideLetsMutator : public IRMutator {
protected:
    bool movable(const Load *op) const { return !expr_uses_any_var(op->index, bound_inside_); }

    Expr visit(const Call *op) override {
        if (is_masked_load(op)) {
            return self_expr(op);
        }
        return IRMutator::visit(op);
    }
    Expr visit(const Let *op) override {
        Expr value = mutate(op->value);
        bool fresh = bound_inside_.insert(op->name).second;
        Expr body = mutate(op->body);
        if (fresh) {
            bound_inside_.erase(op->name);
        }
        return Let::make(op->name, value, body);
    }

private:
    std::set<std::string> bound_inside_;
};

// Loads that may be served by one wider load: buffer, element type and
// lanes, stride (0 where the pass does not group by one) and the index
// pattern the loads share up to a constant offset.
struct LoadGroupKey {
    std::string name;
    Type type;
    int stride;
    Expr pattern;
};

struct LoadGroupKeyLess {
    bool operator()(const LoadGroupKey &a, const LoadGroupKey &b) const {
        if (a.name != b.name) {
            return a.name < b.name;
        }
        if (a.type != b.type) {
            return a.type < b.type;
        }
        if (a.stride != b.stride) {
            return a.stride < b.stride;
        }
        return ExprCompare()(a.pattern, b.pattern);
    }
};

// Per group of loads, a V (the offsets seen, or where each is served from).
template <typename V> using LoadGroups = std::map<LoadGroupKey, V, LoadGroupKeyLess>;

} // namespace Internal
} // namespace Halide

#endif
