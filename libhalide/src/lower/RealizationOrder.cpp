// See Passes.h: the Funcs a pipeline uses, producers first.
#include <set>

#include "Halide/Error.h"
#include "Halide/IRVisitor.h"
#include "lower/Passes.h"

namespace Halide {
namespace Internal {
namespace {

class FindCalls : public IRVisitor {
public:
    std::vector<std::string> calls;
    using IRVisitor::visit;
    void visit(const Call *op) override {
        IRVisitor::visit(op);
        if (op->call_type == Call::Halide) {
            calls.push_back(op->name);
        }
    }
};

void visit_function(const FunctionPtr &f, Environment &env, std::vector<std::string> &order,
                    std::set<std::string> &in_progress) {
    if (env.count(f->name)) {
        user_assert(!in_progress.count(f->name))
            << "Func '" << f->name << "' depends on itself; recursive definitions are not supported";
        return;
    }
    user_assert(f->defined()) << "Func '" << f->name << "' is used but has not been defined";
    env[f->name] = f;
    in_progress.insert(f->name);
    FindCalls calls;
    for (const Expr &v : f->values) {
        calls.include(v);
    }
    for (const UpdateDefinition &u : f->updates) {
        for (const Expr &e : u.args) {
            calls.include(e);
        }
        for (const Expr &e : u.values) {
            calls.include(e);
        }
        if (u.rdom) {
            for (const ReductionVariable &r : u.rdom->domain) {
                calls.include(r.min);
                calls.include(r.extent);
            }
            for (const Expr &p : u.rdom->predicates) {
                calls.include(p);
            }
        }
    }
    for (const std::string &callee : calls.calls) {
        if (callee == f->name) {
            continue; // an update reading the Func's earlier values
        }
        FunctionPtr g = find_function(callee);
        internal_assert(g) << "call to unknown Func " << callee;
        if (env.count(callee) && in_progress.count(callee)) {
            user_error << "Func '" << callee << "' depends on itself; recursive definitions are not supported";
        }
        visit_function(g, env, order, in_progress);
    }
    in_progress.erase(f->name);
    order.push_back(f->name);
}

} // namespace

std::vector<std::string> realization_order(const std::vector<FunctionPtr> &outputs, Environment &env) {
    std::vector<std::string> order;
    std::set<std::string> in_progress;
    for (const FunctionPtr &f : outputs) {
        visit_function(f, env, order, in_progress);
    }
    return order;
}

} // namespace Internal
} // namespace Halide
