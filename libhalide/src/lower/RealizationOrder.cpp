// See Passes.h: the Funcs a pipeline uses, producers first.
#include "Halide/Error.h"
#include "Halide/IRMutator.h"
#include "Halide/IRVisitor.h"
#include "lower/Passes.h"

#include <algorithm>
#include <set>
#include <sstream>

namespace Halide {
namespace Internal {
namespace {

class FindCalls : public IRVisitor {
public:
    std::vector<std::string> calls;
    std::vector<std::string> images; // input buffers loaded from
    using IRVisitor::visit;
    void visit(const Call *op) override {
        IRVisitor::visit(op);
        if (op->call_type == Call::Halide) {
            calls.push_back(op->name);
        } else if (op->call_type == Call::Image) {
            images.push_back(op->name);
        }
    }
};

// Calls of the Funcs (and loads of the buffers) in `to` (by name) made
// calls of their wrappers.
class RedirectCalls : public IRMutator {
public:
    explicit RedirectCalls(const std::map<std::string, FunctionPtr> &to) : to_(to) {}
    using IRMutator::visit;
    Expr visit(const Call *op) override {
        Expr e = IRMutator::visit(op);
        const Call *c = e.as<Call>();
        bool redirectable = c && (c->call_type == Call::Halide || c->call_type == Call::Image);
        auto it = redirectable ? to_.find(c->name) : to_.end();
        if (it == to_.end()) {
            return e;
        }
        return Call::make(c->type, it->second->name, c->args, Call::Halide, c->value_index, it->second);
    }

private:
    const std::map<std::string, FunctionPtr> &to_;
};

// The calls in f's definitions: its values, and its updates' arguments,
// values and reduction domains (bounds and where() predicates).
void include_definitions(FindCalls &calls, const FunctionContents &f) {
    for (const Expr &v : f.values) {
        calls.include(v);
    }
    for (const UpdateDefinition &u : f.updates) {
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
}

// A wrapper of a wrapper for the same consumer (w2 = f.in(g).in(g)) stands
// between them: g calls w2, which calls w1, which calls f (also clones).
FunctionPtr outermost_wrapper_for(FunctionPtr w, const FunctionContents &consumer) {
    for (int depth = 0; depth < 64; depth++) { // (a wrapper chain cannot loop; bounded anyway)
        auto next = w->wrappers.find(consumer.name);
        if (next == w->wrappers.end() || next->second.get() == &consumer || consumer.wraps == w->name) {
            break;
        }
        w = next->second;
    }
    return w;
}

// Func::in(): f as the pipeline sees it. If a Func f calls has a wrapper
// for f (or a global one, unless f is one of its wrappers), a copy of f
// whose calls go to the wrappers; otherwise f itself.
FunctionPtr with_wrapped_calls(const FunctionPtr &f) {
    FindCalls calls;
    include_definitions(calls, *f);
    std::map<std::string, FunctionPtr> redirect;
    for (const std::string &callee : calls.calls) {
        FunctionPtr g = callee == f->name ? nullptr : find_function(callee);
        if (!g || g->wrappers.empty() || f->wraps == g->name) {
            continue;
        }
        auto it = g->wrappers.find(f->name);
        if (it == g->wrappers.end()) {
            it = g->wrappers.find("");
        }
        if (it != g->wrappers.end() && it->second != f) {
            redirect[callee] = outermost_wrapper_for(it->second, *f);
        }
    }
    // ImageParam::in(): loads of a wrapped input buffer.
    for (const std::string &image : calls.images) {
        InputBufferPtr b = f->wraps == image ? nullptr : find_input_buffer(image);
        if (!b || b->wrappers.empty()) {
            continue;
        }
        auto it = b->wrappers.find(f->name);
        if (it == b->wrappers.end()) {
            it = b->wrappers.find("");
        }
        if (it != b->wrappers.end() && it->second != f) {
            redirect[image] = outermost_wrapper_for(it->second, *f);
        }
    }
    if (redirect.empty()) {
        return f;
    }
    auto copy = std::make_shared<FunctionContents>(*f);
    copy->original = f.get();
    f->frozen = true; // as the pipeline's own Funcs are
    RedirectCalls mutate(redirect);
    for (Expr &v : copy->values) {
        v = mutate.mutate(v);
    }
    for (UpdateDefinition &u : copy->updates) {
        for (Expr &e : u.args) {
            e = mutate.mutate(e);
        }
        for (Expr &e : u.values) {
            e = mutate.mutate(e);
        }
        if (u.rdom) {
            // The RDom is shared with the user's Func: the copy gets its own.
            auto rdom = std::make_shared<ReductionDomainContents>(*u.rdom);
            for (ReductionVariable &r : rdom->domain) {
                r.min = mutate.mutate(r.min);
                r.extent = mutate.mutate(r.extent);
            }
            for (Expr &p : rdom->predicates) {
                p = mutate.mutate(p);
            }
            u.rdom = rdom;
        }
    }
    return copy;
}

void visit_function(FunctionPtr f, Environment &env, std::vector<std::string> &order,
                    std::set<std::string> &in_progress) {
    if (env.count(f->name)) {
        user_assert(!in_progress.count(f->name))
            << "Func '" << f->name << "' depends on itself; recursive definitions are not supported";
        return;
    }
    user_assert(f->defined()) << "Func '" << f->name << "' is used but has not been defined";
    f = with_wrapped_calls(f);
    env[f->name] = f;
    in_progress.insert(f->name);
    FindCalls calls;
    include_definitions(calls, *f);
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

// Whether `consumer`'s call of `callee` goes to `target`: the callee
// itself, or a wrapper or clone of it for that consumer, or of those
// (a.clone_in(e).clone_in(e): e calls a, served by the clone of the clone).
bool reaches(const std::string &callee, const std::string &target, const std::string &consumer) {
    FunctionPtr at = find_function(callee);
    for (int depth = 0; at && depth < 64; depth++) { // (a chain cannot loop; bounded anyway)
        if (at->name == target) {
            return true;
        }
        auto next = at->wrappers.find(consumer);
        if (next == at->wrappers.end()) {
            next = at->wrappers.find("");
        }
        if (next == at->wrappers.end() || next->second == at) {
            break;
        }
        at = next->second;
    }
    return false;
}

// As upstream: f.in(g) or f.clone_in(g) for a Func g of the pipeline whose
// own definition does not call f is an error (the wrapper would be unused).
void check_wrapped_consumers(const Environment &env) {
    for (const auto &[name, f] : env) {
        if (!f->wraps.empty()) {
            continue; // a wrapper of a wrapper: g calls the chain's outer end
        }
        for (const auto &[consumer, wrapper] : f->wrappers) {
            auto c = env.find(consumer);
            if (consumer.empty() || c == env.end() || wrapper == c->second) {
                continue;
            }
            // The consumer as its user defined it, not lowering's redirected copy.
            const FunctionContents &user = c->second->original ? *c->second->original : *c->second;
            if (user.wraps == name) {
                continue;
            }
            FindCalls calls;
            include_definitions(calls, user);
            std::set<std::string> callees(calls.calls.begin(), calls.calls.end());
            callees.erase(consumer);
            if (std::any_of(callees.begin(), callees.end(),
                            [&](const std::string &n) { return reaches(n, name, consumer); })) {
                continue;
            }
            std::ostringstream listed;
            for (const std::string &n : callees) {
                listed << "  " << n << "\n";
            }
            user_error << "Cannot wrap \"" << name << "\" in \"" << consumer << "\" because \"" << consumer
                       << "\" does not call \"" << name << "\"\nDirect callees of \"" << consumer << "\" are:\n"
                       << listed.str();
        }
    }
}

} // namespace

std::vector<std::string> realization_order(const std::vector<FunctionPtr> &outputs, Environment &env) {
    std::vector<std::string> order;
    std::set<std::string> in_progress;
    for (const FunctionPtr &f : outputs) {
        visit_function(f, env, order, in_progress);
    }
    check_wrapped_consumers(env);
    return order;
}

} // namespace Internal
} // namespace Halide
