// See Passes.h: a vector load that a store's value reads more than once is
// loaded once, into a LetStmt around the store.
//
// Inlining copies a producer's expression into every use, so a consumer
// that reads the same inlined value several times (the bilateral grid's
// interpolation reads the clamped input pixel once per grid corner, 16
// times) repeats the same vector load. LLVM merges repeated pure arithmetic
// but not these loads: a load whose index is a clamped ramp becomes a
// branch between a dense load and a gather (codegen's clamped_ramp_load),
// so each copy is a different value after its own branch, and everything
// computed from it (the grid's bin index, the gathers at that index) is
// computed again for each copy.
//
// Only vector loads are shared, and only where sharing changes nothing:
// - the value is read once before the store instead of at each use; an
//   expression writes no memory, so the loads read the same data;
// - loads inside masked_load (a predicated tail's lanes may be out of
//   bounds) are left where they are, and loads of a store inside an
//   Atomic block too (its codegen reads the store as written);
// - a load whose index uses a variable bound by a Let inside the value
//   stays inside that Let;
// - the store's index is not touched: codegen reads its shape (dense and
//   clamped ramps).
// Codegen emits Select as a select of both sides, so a load under a select
// was already read unconditionally.
#include <map>
#include <set>
#include <string>
#include <vector>

#include "Halide/IREquality.h"
#include "Halide/IRMutator.h"
#include "Halide/IRVisitor.h"
#include "lower/LoadsOutsideLets.h"
#include "lower/Passes.h"

namespace Halide {
namespace Internal {
namespace {

// The vector loads of a value that may be shared, with their counts, inner
// loads (those in another load's index) before the outer ones.
class CountLoads : public LoadsOutsideLetsVisitor {
public:
    std::map<Expr, int, ExprCompare> counts;
    std::vector<Expr> order;

private:
    using LoadsOutsideLetsVisitor::visit;
    void visit(const Load *op) override {
        IRVisitor::visit(op);
        if (!op->type.is_vector() || !movable(op)) {
            return;
        }
        Expr load = Load::make(op->type, op->name, op->index);
        if (counts[load]++ == 0) {
            order.push_back(load);
        }
    }
};

// Each shared load replaced by its variable.
class ReplaceLoads : public LoadsOutsideLetsMutator {
public:
    explicit ReplaceLoads(const std::map<Expr, std::string, ExprCompare> &names) : names_(names) {}

private:
    const std::map<Expr, std::string, ExprCompare> &names_;

    using LoadsOutsideLetsMutator::visit;
    Expr visit(const Load *op) override {
        auto it = names_.find(Load::make(op->type, op->name, op->index));
        if (it != names_.end() && movable(op)) {
            return Variable::make(op->type, it->second);
        }
        return IRMutator::visit(op);
    }
};

class ShareRepeatedLoads : public IRMutator {
    Stmt visit(const Atomic *op) override { return self_stmt(op); }

    Stmt visit(const Store *op) override {
        CountLoads count;
        count.include(op->value);
        std::vector<Expr> shared;
        std::map<Expr, std::string, ExprCompare> names;
        for (const Expr &load : count.order) {
            if (count.counts[load] > 1) {
                names[load] = op->name + ".loaded$" + std::to_string(shared.size());
                shared.push_back(load);
            }
        }
        if (shared.empty()) {
            return self_stmt(op);
        }
        ReplaceLoads replace(names);
        Stmt s = Store::make(op->name, replace.mutate(op->value), op->index);
        // Outer loads first, so that the inner loads their indices read
        // are bound outside them.
        for (auto it = shared.rbegin(); it != shared.rend(); ++it) {
            const Load *load = it->as<Load>();
            Expr value = Load::make(load->type, load->name, replace.mutate(load->index));
            s = LetStmt::make(names.at(*it), value, s);
        }
        return s;
    }
};

} // namespace

Stmt share_repeated_loads(const Stmt &s) {
    return ShareRepeatedLoads().mutate(s);
}

} // namespace Internal
} // namespace Halide
