// Func::in and ImageParam::in (wrappers), ImageParam and Buffer as a Func, Func::clone_in and Func::async.
// A wrapper is an ordinary Func w(args) = f(args) (or im(args)); a clone is
// a copy of f's definitions and schedule under another name. Lowering
// (RealizationOrder.cpp) redirects the calls to f (or loads of im) in the
// consumers they serve to them.
#include "Halide/Error.h"
#include "Halide/Func.h"
#include "Halide/IR.h"
#include "Halide/IRMutator.h"
#include "Halide/Param.h"
#include "lower/Function.h"

namespace Halide {

using namespace Internal;

namespace {

// The wrapper (or clone) `consumers` already share in `wrappers`, null if
// none of them has one; their names go to `names`. Consumers with different
// ones are an error naming `call`. The consumers are marked changed, and an
// existing wrapper is registered for all of them.
FunctionPtr shared_wrapper(std::map<std::string, FunctionPtr> &wrappers, const std::vector<Func> &consumers,
                           const std::string &call, const char *kinds, std::vector<std::string> &names) {
    FunctionPtr existing;
    for (const Func &c : consumers) {
        names.push_back(c.name());
        auto it = wrappers.find(c.name());
        if (it == wrappers.end()) {
            continue;
        }
        user_assert(!existing || existing == it->second)
            << call << ": the consumers given already use different " << kinds << " ('" << existing->name << "' and '"
            << it->second->name << "')";
        existing = it->second;
    }
    for (const Func &c : consumers) {
        mark_changed(*c.function());
    }
    if (existing) {
        for (const std::string &n : names) {
            wrappers[n] = existing;
        }
    }
    return existing;
}

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

// Renames the calls of one Func (a clone's calls of itself).
class RenameSelfCalls : public IRMutator {
public:
    RenameSelfCalls(const std::string &from, const std::string &to) : from_(from), to_(to) {}
    using IRMutator::visit;
    Expr visit(const Call *op) override {
        Expr e = IRMutator::visit(op);
        const Call *c = e.as<Call>();
        if (!c || c->call_type != Call::Halide || c->name != from_) {
            return e;
        }
        // No callee: the clone must not keep itself alive.
        return Call::make(c->type, to_, c->args, Call::Halide, c->value_index);
    }

private:
    std::string from_, to_;
};

} // namespace

Func Func::clone_in(const Func &consumer) {
    return clone_in(std::vector<Func>{consumer});
}

Func Func::clone_in(const std::vector<Func> &consumers) {
    user_assert(f_->defined()) << "Can't clone Func '" << name() << "' before it is defined";
    user_assert(!consumers.empty()) << "Func '" << name() << "'.clone_in() was given an empty list of consumers";
    for (const Func &c : consumers) {
        user_assert(c.function() != f_) << "Func '" << name() << "' can't be cloned for itself";
    }
    std::vector<std::string> names;
    if (FunctionPtr existing =
            shared_wrapper(f_->wrappers, consumers, "Func '" + name() + "'.clone_in()", "wrappers or clones", names)) {
        return Func(existing);
    }
    auto clone = std::make_shared<FunctionContents>(*f_);
    clone->name = unique_name(name() + "_clone_in_" + names[0]);
    clone->wrappers.clear();
    clone->wraps.clear();
    clone->original = nullptr;
    clone->frozen = false;
    clone->output_buffers.clear();
    RenameSelfCalls rename(f_->name, clone->name);
    for (Expr &v : clone->values) {
        v = rename.mutate(v);
    }
    for (UpdateDefinition &u : clone->updates) {
        for (Expr &e : u.args) {
            e = rename.mutate(e);
        }
        for (Expr &e : u.values) {
            e = rename.mutate(e);
        }
    }
    register_function(clone);
    mark_changed(*clone);
    for (const std::string &n : names) {
        f_->wrappers[n] = clone;
    }
    return Func(clone);
}

Func Func::in(const Func &consumer) {
    return in(std::vector<Func>{consumer});
}

Func Func::in(const std::vector<Func> &consumers) {
    user_assert(!consumers.empty()) << "Func '" << name() << "'.in() was given an empty list of consumers";
    for (const Func &c : consumers) {
        user_assert(c.function() != f_) << "Func '" << name() << "' can't be wrapped for itself";
    }
    std::vector<std::string> names;
    if (FunctionPtr existing =
            shared_wrapper(f_->wrappers, consumers, "Func '" + name() + "'.in()", "wrappers", names)) {
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

namespace {

// A new wrapper w(_0, _1, ...) = im(_0, _1, ...) of input buffer `b`,
// registered for `consumers` (lowering redirects their calls of the buffer).
Func make_image_wrapper(const InputBufferPtr &b, const std::string &name, const std::vector<std::string> &consumers) {
    std::vector<Var> vars;
    std::vector<Expr> args;
    for (int d = 0; d < b->dimensions; d++) {
        vars.emplace_back("_" + std::to_string(d));
        args.push_back(Variable::make(Int(32), vars.back().name()));
    }
    Func w(name);
    w(vars) = Call::make(b->type, b->name, args, Call::Image);
    w.function()->wraps = b->name;
    for (const std::string &c : consumers) {
        b->wrappers[c] = w.function();
    }
    return w;
}

} // namespace

Func ImageParam::in(const Func &consumer) {
    return in(std::vector<Func>{consumer});
}

Func ImageParam::in(const std::vector<Func> &consumers) {
    check_defined();
    user_assert(!consumers.empty()) << "ImageParam '" << name() << "'.in() was given an empty list of consumers";
    std::vector<std::string> names;
    if (FunctionPtr existing =
            shared_wrapper(contents_->wrappers, consumers, "ImageParam '" + name() + "'.in()", "wrappers", names)) {
        return Func(existing);
    }
    return make_image_wrapper(contents_, name() + "_in_" + names[0], names);
}

Func ImageParam::in() {
    check_defined();
    auto it = contents_->wrappers.find("");
    if (it != contents_->wrappers.end()) {
        return Func(it->second);
    }
    mark_everything_changed(); // its consumers are not known here
    return make_image_wrapper(contents_, name() + "_global_wrapper", {""});
}

void Func::define_as_call_of(const Buffer<> &im) {
    std::vector<Var> vars;
    std::vector<Expr> args;
    for (int d = 0; d < im.dimensions(); d++) {
        vars.emplace_back("_" + std::to_string(d));
        args.push_back(vars.back());
    }
    (*this)(vars) = im(args);
}

ImageParam::operator Func() const {
    check_defined();
    if (!contents_->as_func) {
        std::vector<Var> vars;
        std::vector<Expr> args;
        for (int d = 0; d < contents_->dimensions; d++) {
            vars.emplace_back("_" + std::to_string(d));
            args.push_back(Variable::make(Int(32), vars.back().name()));
        }
        // Constrained as the buffer is, as upstream's (Function::required_types()).
        Func f(contents_->type, contents_->dimensions, name() + "_im");
        f(vars) = Call::make(contents_->type, contents_->name, args, Call::Image);
        contents_->as_func = f.function();
    }
    return Func(contents_->as_func);
}

Func &Func::async() {
    f_->async = true;
    mark_changed(*f_);
    return *this;
}

Func &Func::ring_buffer(Expr extent) {
    user_assert(extent.defined() && (extent.type().is_int() || extent.type().is_uint()))
        << "ring_buffer of Func '" << name() << "': the extent must be an integer expression";
    if (const IntImm *k = extent.as<IntImm>()) {
        user_assert(k->value > 0) << "ring_buffer of Func '" << name() << "': the extent must be positive, not "
                                  << k->value;
    }
    f_->ring_buffer = std::move(extent);
    mark_changed(*f_);
    return *this;
}

} // namespace Halide
