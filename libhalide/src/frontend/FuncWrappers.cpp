// Func::in (wrappers) and Func::async. A wrapper is an ordinary Func
// w(args) = f(args); lowering (RealizationOrder.cpp) redirects the calls to
// f in the consumers it serves to w.
#include "Halide/Error.h"
#include "Halide/Func.h"
#include "Halide/IR.h"
#include "lower/Function.h"

namespace Halide {

using namespace Internal;

namespace {

// A new wrapper of f, called `name`, registered for `consumers`.
Func make_wrapper(const FunctionPtr &f, const std::string &name, const std::vector<std::string> &consumers) {
    user_assert(f->defined()) << "Can't wrap Func '" << f->name << "' before it is defined";
    std::vector<Var> vars;
    std::vector<Expr> args;
    for (const std::string &a : f->args) {
        vars.emplace_back(a);
        args.push_back(Variable::make(Int(32), a));
    }
    std::vector<Expr> values;
    for (size_t v = 0; v < f->values.size(); v++) {
        // No callee: the wrapper must not keep f alive (f keeps it).
        values.push_back(Call::make(f->values[v].type(), f->name, args, Call::Halide, (int)v));
    }
    Func w(name);
    if (values.size() == 1) {
        w(vars) = values[0];
    } else {
        w(vars) = Tuple(values);
    }
    w.function()->referenced.clear();
    w.function()->wraps = f->name;
    for (const std::string &c : consumers) {
        f->wrappers[c] = w.function();
    }
    return w;
}

} // namespace

Func Func::in(const Func &consumer) {
    return in(std::vector<Func>{consumer});
}

Func Func::in(const std::vector<Func> &consumers) {
    user_assert(!consumers.empty()) << "Func '" << name() << "'.in() was given an empty list of consumers";
    FunctionPtr existing;
    std::vector<std::string> names;
    for (const Func &c : consumers) {
        user_assert(c.function() != f_) << "Func '" << name() << "' can't be wrapped for itself";
        names.push_back(c.name());
        auto it = f_->wrappers.find(c.name());
        if (it == f_->wrappers.end()) {
            continue;
        }
        user_assert(!existing || existing == it->second)
            << "Func '" << name() << "'.in(): the consumers given already use different wrappers ('" << existing->name
            << "' and '" << it->second->name << "')";
        existing = it->second;
    }
    for (const Func &c : consumers) {
        mark_changed(*c.function());
    }
    if (existing) {
        for (const std::string &n : names) {
            f_->wrappers[n] = existing;
        }
        return Func(existing);
    }
    return make_wrapper(f_, name() + "_in_" + names[0], names);
}

Func Func::in() {
    auto it = f_->wrappers.find("");
    if (it != f_->wrappers.end()) {
        return Func(it->second);
    }
    // Its consumers are not known here: every compiled pipeline is stale.
    mark_everything_changed();
    return make_wrapper(f_, name() + "_global_wrapper", {""});
}

Func &Func::async() {
    f_->async = true;
    mark_changed(*f_);
    return *this;
}

} // namespace Halide
