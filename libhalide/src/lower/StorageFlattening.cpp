// See Passes.h. A Realize becomes an Allocate with dense strides (dimension
// 0 innermost); Provide and calls become Store and Load at
//   sum over d of (coordinate_d - name.min.d) * name.stride.d
// For buffer arguments, name.min/stride were bound by add_image_checks.
#include <algorithm>

#include "Halide/IRMutator.h"
#include "lower/Passes.h"

namespace Halide {
namespace Internal {
namespace {

Expr flat_index(const std::string &name, const std::vector<Expr> &coords) {
    Expr index;
    for (size_t d = 0; d < coords.size(); d++) {
        Expr term =
            Mul::make(Sub::make(coords[d], buffer_field(name, "min", (int)d)), buffer_field(name, "stride", (int)d));
        index = index.defined() ? Add::make(index, term) : term;
    }
    return index.defined() ? index : int32_const(0);
}

class Flatten : public IRMutator {
public:
    explicit Flatten(const Environment &env) : env_(env) {}
    using IRMutator::visit;

    Stmt visit(const Realize *op) override {
        Stmt body = mutate(op->body);
        std::vector<Expr> extents;
        for (const Range &r : op->bounds) {
            extents.push_back(r.extent);
        }
        body = Allocate::make(op->name, op->types[0], extents, body);
        // Dense strides in storage order (reorder_storage), dimension order by default.
        std::vector<int> order;
        const FunctionContents &f = *env_.at(op->name);
        for (const std::string &a : f.storage_order) {
            order.push_back((int)(std::find(f.args.begin(), f.args.end(), a) - f.args.begin()));
        }
        if (order.empty()) {
            for (size_t d = 0; d < op->bounds.size(); d++) {
                order.push_back((int)d);
            }
        }
        for (size_t k = order.size(); k-- > 0;) {
            Expr stride = k == 0 ? int32_const(1)
                                 : Mul::make(buffer_field(op->name, "stride", order[k - 1]),
                                             buffer_field(op->name, "extent", order[k - 1]));
            body = LetStmt::make(op->name + ".stride." + std::to_string(order[k]), stride, body);
        }
        return body;
    }

    Stmt visit(const Provide *op) override {
        std::vector<Expr> coords = mutate_exprs(op->args);
        return Store::make(op->name, mutate(op->values[0]), flat_index(op->name, coords));
    }

    Expr visit(const Call *op) override {
        if (op->call_type != Call::Halide && op->call_type != Call::Image) {
            return IRMutator::visit(op);
        }
        std::vector<Expr> coords = mutate_exprs(op->args);
        return Load::make(op->type, op->name, flat_index(op->name, coords));
    }

private:
    const Environment &env_;
};

} // namespace

Stmt storage_flattening(const Stmt &s, const Environment &env) {
    return Flatten(env).mutate(s);
}

} // namespace Internal
} // namespace Halide
