// See Passes.h: scatter()/gather() in Provides, expanded into one store per
// value. Bounds inference has already seen each scatter_gather call as the
// union of its values (analysis/Interval.cpp).
#include <string>
#include <utility>
#include <vector>

#include "Halide/IRMutator.h"
#include "Halide/IROperator.h"
#include "Halide/IRVisitor.h"
#include "ir/IntrinsicNames.h"
#include "lower/Passes.h"

namespace Halide {
namespace Internal {
namespace {

bool is_scatter_gather(const Call *op) {
    return op->call_type == Call::Intrinsic && op->name == kScatterGatherIntrinsic;
}

// The number of values of the scatter_gather calls in e (checked equal
// when the Func was defined), or 0.
int packet_size(const std::vector<Expr> &exprs) {
    struct Finder : IRVisitor {
        int size = 0;
        using IRVisitor::visit;
        void visit(const Call *op) override {
            if (is_scatter_gather(op)) {
                size = (int)op->args.size();
            }
            IRVisitor::visit(op);
        }
    } finder;
    for (const Expr &e : exprs) {
        finder.include(e);
    }
    return finder.size;
}

// e with every scatter_gather call replaced by its k-th value.
class PickValue : public IRMutator {
public:
    explicit PickValue(int k) : k_(k) {}
    using IRMutator::visit;
    Expr visit(const Call *op) override {
        if (is_scatter_gather(op)) {
            return mutate(op->args[k_]);
        }
        return IRMutator::visit(op);
    }

private:
    int k_;
};

class ExpandScatterGather : public IRMutator {
public:
    using IRMutator::visit;
    Stmt visit(const Provide *op) override {
        std::vector<Expr> all = op->args;
        all.insert(all.end(), op->values.begin(), op->values.end());
        int n = packet_size(all);
        if (n == 0) {
            return IRMutator::visit(op);
        }
        // Values first, each bound to a name, so every load happens before
        // the first store; then the stores, left to right.
        std::vector<std::pair<std::string, Expr>> lets;
        std::vector<Stmt> stores;
        for (int k = 0; k < n; k++) {
            PickValue pick(k);
            std::vector<Expr> args, values;
            for (const Expr &a : op->args) {
                args.push_back(pick.mutate(a));
            }
            for (const Expr &v : op->values) {
                Expr value = pick.mutate(v);
                if (!is_const(value)) {
                    std::string name =
                        op->name + ".gathered." + std::to_string(k) + "." + std::to_string(values.size());
                    lets.emplace_back(name, value);
                    value = Variable::make(value.type(), name);
                }
                values.push_back(value);
            }
            stores.push_back(Provide::make(op->name, values, args));
        }
        Stmt s = Block::make(stores);
        for (auto it = lets.rbegin(); it != lets.rend(); ++it) {
            s = LetStmt::make(it->first, it->second, s);
        }
        return s;
    }
};

} // namespace

Stmt lower_scatter_gather(const Stmt &s) {
    return ExpandScatterGather().mutate(s);
}

} // namespace Internal
} // namespace Halide
