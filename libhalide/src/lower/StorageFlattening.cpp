// See Passes.h. A Realize becomes an Allocate (in the Func's store_in()
// memory) with dense strides (dimension 0 innermost), one per value of a
// Tuple (name.0, name.1, ...); Provide and calls become Store and Load at
//   sum over d of (coordinate_d - name.min.d) * name.stride.d
// For buffer arguments, name.min/stride were bound by add_image_checks.
// A prefetch (Prefetch.h) starts at such an index, with each dimension's
// stride beside its extent.
#include <algorithm>
#include <set>

#include "Halide/IRMutator.h"
#include "Halide/IROperator.h"
#include "ir/UsesVars.h"
#include "lower/Passes.h"
#include "lower/Prefetch.h"

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
        realized_.insert(op->name);
        Stmt body = mutate(op->body);
        realized_.erase(realized_.find(op->name));
        const FunctionContents &f = *env_.at(op->name);
        // bound_storage(): that many coordinates whatever the region is,
        // checked when run (storage_bound[d] is the bound, or undefined).
        std::vector<Expr> extents, storage_bound(op->bounds.size());
        std::vector<Stmt> checks;
        for (size_t d = 0; d < op->bounds.size(); d++) {
            extents.push_back(op->bounds[d].extent);
            auto b = d < f.args.size() ? f.storage_bounds.find(f.args[d]) : f.storage_bounds.end();
            if (b != f.storage_bounds.end()) {
                storage_bound[d] = b->second;
                extents[d] = b->second;
                Expr required = op->bounds[d].extent;
                checks.push_back(
                    AssertStmt::make(LE::make(required, b->second),
                                     Call::make(Int(32), "halide_error_storage_bound_too_small",
                                                {Variable::make(Handle(), "__user_context"), StringImm::make(f.name),
                                                 StringImm::make(f.args[d]), b->second, required},
                                                Call::Extern)));
            }
        }
        // align_storage(): the storage extent padded to a multiple (so the
        // strides of the dimensions outside are multiples of it too).
        for (size_t d = 0; d < op->bounds.size() && d < f.args.size(); d++) {
            auto a = f.storage_alignments.find(f.args[d]);
            if (a != f.storage_alignments.end()) {
                Expr k = a->second;
                Expr base = storage_bound[d].defined() ? storage_bound[d] : buffer_field(op->name, "extent", (int)d);
                storage_bound[d] = Mul::make(Div::make(Add::make(base, Sub::make(k, int32_const(1))), k), k);
                extents[d] = Mul::make(Div::make(Add::make(extents[d], Sub::make(k, int32_const(1))), k), k);
            }
        }
        // One allocation per value (a Tuple's values share the shape and strides).
        for (size_t i = op->types.size(); i-- > 0;) {
            body = Allocate::make(buffer_name(op->name, (int)i), op->types[i], f.memory_type, extents, body);
        }
        // Dense strides in storage order (reorder_storage), dimension order by default.
        std::vector<int> order;
        for (const std::string &a : f.storage_order) {
            order.push_back((int)(std::find(f.args.begin(), f.args.end(), a) - f.args.begin()));
        }
        if (order.empty()) {
            for (size_t d = 0; d < op->bounds.size(); d++) {
                order.push_back((int)d);
            }
        }
        for (size_t k = order.size(); k-- > 0;) {
            Expr inner_extent = k == 0 ? Expr()
                                : storage_bound[order[k - 1]].defined()
                                    ? storage_bound[order[k - 1]]
                                    : buffer_field(op->name, "extent", order[k - 1]);
            Expr stride =
                k == 0 ? int32_const(1) : Mul::make(buffer_field(op->name, "stride", order[k - 1]), inner_extent);
            body = LetStmt::make(op->name + ".stride." + std::to_string(order[k]), stride, body);
        }
        checks.push_back(body);
        return Block::make(checks);
    }

    Stmt visit(const Provide *op) override {
        std::vector<Expr> coords = mutate_exprs(op->args);
        // A Tuple definition reads all its values before it writes any (a
        // swap f(x) = {f(x)[1], f(x)[0]} exchanges them): when the values
        // read the Func itself, each is bound to a let before the stores.
        bool reads_itself = op->values.size() > 1 && exprs_call_func(op->values, op->name);
        std::vector<std::pair<std::string, Expr>> lets;
        std::vector<Stmt> stores;
        for (size_t i = 0; i < op->values.size(); i++) {
            if (is_undef(op->values[i])) {
                continue; // undef(): this value of the point stays as it is
            }
            std::string buffer = buffer_name(op->name, (int)i);
            Expr value = mutate(op->values[i]);
            if (reads_itself) {
                lets.emplace_back(unique_name(op->name + ".value." + std::to_string(i)), value);
                value = Variable::make(value.type(), lets.back().first);
            }
            stores.push_back(Store::make(buffer, value, flat_index(index_fields(op->name, buffer), coords)));
        }
        Stmt s = stores.empty() ? Evaluate::make(int32_const(0)) : Block::make(stores);
        for (auto let = lets.rbegin(); let != lets.rend(); ++let) {
            s = LetStmt::make(let->first, let->second, s);
        }
        return s;
    }

    Expr visit(const Call *op) override {
        if (op->call_type == Call::Intrinsic && op->name == kPrefetchIntrinsic) {
            return flatten_prefetch(op);
        }
        if (op->call_type != Call::Halide && op->call_type != Call::Image) {
            return IRMutator::visit(op);
        }
        std::vector<Expr> coords = mutate_exprs(op->args);
        std::string buffer = op->call_type == Call::Halide ? buffer_name(op->name, op->value_index) : op->name;
        return Load::make(op->type, buffer, flat_index(index_fields(op->name, buffer), coords));
    }

private:
    // prefetch(g(start...), extents...) (Prefetch.cpp) to prefetch(g.host,
    // flat start, extent_0, stride_0, extent_1, stride_1, ...).
    Expr flatten_prefetch(const Call *op) {
        const Call *start = op->args[0].as<Call>();
        internal_assert(start && (start->call_type == Call::Halide || start->call_type == Call::Image))
            << "prefetch expects a call of the prefetched Func or buffer first";
        std::string buffer =
            start->call_type == Call::Halide ? buffer_name(start->name, start->value_index) : start->name;
        std::string fields = index_fields(start->name, buffer);
        std::vector<Expr> args = {Variable::make(Handle(), buffer + ".host"),
                                  flat_index(fields, mutate_exprs(start->args))};
        for (size_t d = 1; d < op->args.size(); d++) {
            args.push_back(mutate(op->args[d]));
            args.push_back(buffer_field(fields, "stride", (int)d - 1));
        }
        return Call::make(op->type, op->name, args, Call::Intrinsic);
    }

    // The flat buffer of value i of Func `name`: name, or name.i for a Tuple.
    std::string buffer_name(const std::string &name, int i) const {
        auto f = env_.find(name);
        bool tuple = f != env_.end() && f->second->values.size() > 1;
        return tuple ? name + "." + std::to_string(i) : name;
    }
    // Whose min/stride fields index `buffer`: a realization's (shared by its
    // values), or each output buffer's own.
    std::string index_fields(const std::string &func, const std::string &buffer) const {
        return realized_.count(func) ? func : buffer;
    }

    std::multiset<std::string> realized_;
    const Environment &env_;
};

} // namespace

Stmt storage_flattening(const Stmt &s, const Environment &env) {
    return Flatten(env).mutate(s);
}

} // namespace Internal
} // namespace Halide
