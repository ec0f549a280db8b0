// See Func.h.
#include "Halide/Func.h"

#include <algorithm>
#include <mutex>
#include <set>
#include <sstream>

#include "Halide/Error.h"
#include "Halide/IR.h"
#include "Halide/IRMutator.h"
#include "Halide/IROperator.h"
#include "Halide/IRPrinter.h"
#include "Halide/IRVisitor.h"
#include "Halide/Pipeline.h"
#include "Halide/Random.h"
#include "ImplicitVars.h"
#include "ReductionDomainUse.h"
#include "ScatterGather.h"
#include "ir/ShareSubexpressions.h"
#include "lower/Function.h"

namespace Halide {

using namespace Internal;

namespace {

FunctionPtr new_function(const std::string &requested) {
    auto f = std::make_shared<FunctionContents>();
    f->name = requested.empty() ? fresh_name('f') : unique_name(requested);
    register_function(f);
    return f;
}

// Names of the free variables of `e` that are not in `allowed`.
class FreeVariables : public IRVisitor {
public:
    explicit FreeVariables(const std::set<std::string> &allowed) : allowed_(allowed) {}
    std::vector<std::string> found;

    using IRVisitor::visit;
    void visit(const Variable *v) override {
        // __user_context: user_context_value(), an argument of every pipeline.
        if (!allowed_.count(v->name) && !lets_.count(v->name) && !find_param(v->name) &&
            input_buffer_of_field(v->name).empty() && v->name != "__user_context") {
            found.push_back(v->name);
        }
    }
    void visit(const Let *l) override {
        include(l->value);
        lets_.insert(l->name);
        include(l->body);
        lets_.erase(l->name);
    }

private:
    const std::set<std::string> &allowed_;
    std::multiset<std::string> lets_;
};

// The Funcs, input buffers and Params a definition refers to: the defined
// Func keeps them alive, so a Func, ImageParam or Param that goes out of
// scope after being used (in a helper function, in generate()) is still
// there when the pipeline is compiled. Definitions only refer to earlier
// Funcs, so these references never form a cycle.
class ReferencedObjects : public IRVisitor {
public:
    std::vector<std::shared_ptr<void>> found;

    using IRVisitor::visit;
    void visit(const Call *op) override {
        IRVisitor::visit(op);
        if (op->call_type == Call::Halide) {
            keep(find_function(op->name));
        } else if (op->call_type == Call::Image) {
            keep(find_input_buffer(op->name));
        }
    }
    void visit(const Variable *op) override {
        keep(find_param(op->name));
        std::string buffer = input_buffer_of_field(op->name);
        if (!buffer.empty()) {
            keep(find_input_buffer(buffer));
        }
    }

private:
    template <typename T> void keep(const std::shared_ptr<T> &p) {
        if (p) {
            found.push_back(std::static_pointer_cast<void>(p));
        }
    }
};

} // namespace

FuncRef::FuncRef(FunctionPtr f, std::vector<Expr> args) : f_(std::move(f)), args_(std::move(args)) {}

Stage FuncRef::operator=(const Expr &value) {
    define({value});
    return last_stage();
}

Stage FuncRef::operator=(const Tuple &values) {
    define(values.as_vector());
    return last_stage();
}

Stage FuncRef::last_stage() const {
    return Stage(f_, (int)f_->updates.size());
}

namespace {

// Marks the Funcs a definition calls (other than the one defined) frozen.
class FreezeCallees : public IRVisitor {
public:
    explicit FreezeCallees(const std::string &self) : self_(self) {}
    using IRVisitor::visit;
    void visit(const Call *op) override {
        IRVisitor::visit(op);
        if (op->call_type == Call::Halide && op->name != self_) {
            if (FunctionPtr g = find_function(op->name)) {
                g->frozen = true;
            }
        }
    }

private:
    std::string self_;
};

} // namespace

void FuncRef::define(const std::vector<Expr> &values_in) {
    std::vector<Expr> values;
    for (const Expr &value : values_in) {
        user_assert(value.defined()) << "Func '" << f_->name << "' is defined with an undefined expression";
        // A value built by reusing Exprs over and over has repeated parts
        // bound in lets, so no pass walks its exponentially larger tree.
        values.push_back(share_repeated_subexpressions(value));
    }
    expand_placeholder_in_definition(f_->name, f_->defined(), args_, values);
    check_undef_placement(f_->name, values);
    check_scatter_gather(f_->name, args_, values);
    if (f_->defined()) {
        user_assert(!f_->frozen) << "Func " << f_->name
                                 << " cannot be given a new update definition, because it has already been realized "
                                    "or used in the definition of another Func.";
        define_update(values);
    } else {
        define_pure(values);
    }
    FreezeCallees freeze(f_->name);
    for (const Expr &v : values) {
        freeze.include(v);
    }
    for (const Expr &a : args_) {
        freeze.include(a);
    }
    mark_changed(*f_);
}

namespace {

// Func(types, dims, name): the definition must match, in upstream's words.
void check_required_types(const FunctionContents &f, int dimensions, const std::vector<Expr> &values) {
    user_assert(f.required_dimensions < 0 || f.required_dimensions == dimensions)
        << "Func \"" << f.name << "\" is constrained to have exactly " << f.required_dimensions
        << " dimensions, but is defined with " << dimensions << " dimensions.";
    std::vector<Type> given;
    for (const Expr &v : values) {
        given.push_back(v.type());
    }
    if (f.required_types.empty() || f.required_types == given) {
        return;
    }
    auto text = [](const std::vector<Type> &types) {
        std::string s = types.size() == 1 ? "" : "(";
        for (size_t i = 0; i < types.size(); i++) {
            s += (i ? ", " : "") + type_to_string(types[i]);
        }
        return types.size() == 1 ? s : s + ")";
    };
    user_error << "Func \"" << f.name << "\" is constrained to only hold values of type " << text(f.required_types)
               << " but is defined with values of type " << text(given) << ".";
}

} // namespace

void FuncRef::define_pure(const std::vector<Expr> &values) {
    std::vector<std::string> names;
    std::set<std::string> seen;
    for (size_t i = 0; i < args_.size(); i++) {
        const Variable *v = args_[i].as<Variable>();
        user_assert(v && !find_param(v->name) && !find_reduction_domain_of(v->name))
            << "Argument " << i + 1 << " in initial definition of \"" << f_->name
            << "\" is not a Var: pure definitions take distinct Vars, e.g. f(x, y) = ...";
        user_assert(seen.insert(v->name).second)
            << "Var '" << v->name << "' is used twice in the definition of Func '" << f_->name << "'";
        names.push_back(v->name);
    }
    FreeVariables free(seen);
    for (const Expr &value : values) {
        free.include(value);
    }
    if (!free.found.empty()) {
        user_error << "Undefined variable \"" << free.found[0] << "\" in definition of Func \"" << f_->name
                   << "\": it is not one of its arguments";
    }
    ReferencedObjects refs;
    for (const Expr &value : values) {
        refs.include(value);
    }
    check_required_types(*f_, (int)names.size(), values);
    f_->args = names;
    f_->values = values;
    int tag = next_random_tag(); // random_*(): a hash of the pure Vars
    for (Expr &v : f_->values) {
        v = lower_random(v, names, tag);
    }
    f_->referenced = std::move(refs.found);
    f_->dims.clear();
    for (const std::string &n : names) {
        f_->dims.push_back({n, n, ForType::Serial});
    }
}

namespace {

// The reduction domain an update's expressions use (at most one).
class FindReductionDomain : public IRVisitor {
public:
    explicit FindReductionDomain(const std::string &func) : func_(func) {}
    ReductionDomainPtr rdom;

    using IRVisitor::visit;
    void visit(const Variable *v) override {
        ReductionDomainPtr r = find_reduction_domain_of(v->name);
        if (r && rdom && r != rdom) {
            user_error << "In the update definition of Func '" << func_ << "': it uses RVars of two RDoms ('"
                       << rdom->name << "' and '" << r->name << "'); an update definition loops over one RDom";
        }
        if (r) {
            rdom = r;
        }
    }

private:
    std::string func_;
};

// Calls of Func `name` without the reference that keeps it alive: an
// update reading its own Func would otherwise keep itself alive forever.
class DropSelfReferences : public IRMutator {
public:
    explicit DropSelfReferences(const std::string &name) : name_(name) {}
    using IRMutator::visit;
    Expr visit(const Call *op) override {
        Expr e = IRMutator::visit(op);
        const Call *c = e.as<Call>();
        if (c && c->call_type == Call::Halide && c->name == name_ && c->callee) {
            return Call::make(c->type, c->name, c->args, c->call_type, c->value_index);
        }
        return e;
    }

private:
    std::string name_;
};

// Where an update reads its own Func, each pure Var of the update must
// stand at its own position, as on the left (f(x) = f(x - 1) is refused, as
// upstream refuses it: the loop over x would race with itself).
void check_self_references(const UpdateDefinition &u, const std::string &name, const std::string &where) {
    class Check : public IRVisitor {
    public:
        Check(const UpdateDefinition &u, const std::string &name, const std::string &where)
            : u_(u), name_(name), where_(where) {}
        using IRVisitor::visit;
        void visit(const Call *op) override {
            IRVisitor::visit(op);
            if (op->call_type != Call::Halide || op->name != name_) {
                return;
            }
            for (size_t i = 0; i < u_.pure_vars.size() && i < op->args.size(); i++) {
                const Variable *v = op->args[i].as<Variable>();
                user_assert(u_.pure_vars[i].empty() || (v && v->name == u_.pure_vars[i]))
                    << where_ << "recursive references to Func \"" << name_
                    << "\" must contain the same pure variables in the same places as on the left-hand side: "
                    << "argument " << i << " should be '" << u_.pure_vars[i] << "'";
            }
        }

    private:
        const UpdateDefinition &u_;
        const std::string &name_, &where_;
    } check(u, name, where);
    for (const Expr &v : u.values) {
        check.include(v);
    }
    for (const Expr &a : u.args) {
        check.include(a);
    }
}

} // namespace

void FuncRef::define_update(const std::vector<Expr> &values_in) {
    DropSelfReferences drop(f_->name);
    std::vector<Expr> values;
    for (const Expr &v : values_in) {
        values.push_back(drop.mutate(v));
    }
    const std::string &name = f_->name;
    int index = (int)f_->updates.size();
    std::string where = "In update definition " + std::to_string(index) + " of Func \"" + name + "\":\n";
    user_assert(args_.size() == f_->args.size())
        << where << "it has " << args_.size() << " arguments, but the Func has " << f_->args.size() << " dimensions";
    user_assert(values.size() == f_->values.size())
        << where << "Number of tuple elements for update definition must match number of tuple elements for pure "
        << "definition (it defines " << values.size() << ", the pure definition " << f_->values.size() << ")";
    UpdateDefinition u;
    for (size_t i = 0; i < values.size(); i++) {
        user_assert(values[i].type() == f_->values[i].type())
            << where << "Tuple element " << i << " of update definition has type " << values[i].type()
            << ", but pure definition has type " << f_->values[i].type();
    }
    u.values = values;
    FindReductionDomain rdoms(name);
    for (Expr a : args_) {
        user_assert(a.defined() && (a.type().is_int() || a.type().is_uint()))
            << where << "its arguments must be integers";
        a = drop.mutate(a);
        u.args.push_back(a.type() == Int(32) ? a : cast(Int(32), a));
        rdoms.include(a);
    }
    for (const Expr &v : values) {
        rdoms.include(v);
    }
    u.rdom = rdoms.rdom;
    // A pure Var of the update: a Var alone at a position, which the update
    // loops over that dimension of the region. Upstream's: the pure
    // definition's Var at its own position. Ours also takes a Var alone at
    // another position (f(y, x), f(a, b)), where upstream reports an
    // undefined variable. A Var alone at several positions (f(x, x), the
    // diagonal) is pure at its own one, or else its first; the others are
    // expressions of it.
    std::set<std::string> allowed;
    u.pure_vars.assign(u.args.size(), std::string());
    auto bare_var = [&](size_t i) -> const Variable * {
        const Variable *v = u.args[i].as<Variable>();
        return v && !find_param(v->name) && !find_reduction_domain_of(v->name) && input_buffer_of_field(v->name).empty()
                   ? v
                   : nullptr;
    };
    for (size_t i = 0; i < u.args.size(); i++) {
        const Variable *v = bare_var(i);
        if (v && i < f_->args.size() && v->name == f_->args[i]) {
            u.pure_vars[i] = v->name;
            allowed.insert(v->name);
        }
    }
    for (size_t i = 0; i < u.args.size(); i++) {
        const Variable *v = bare_var(i);
        if (v && allowed.insert(v->name).second) {
            u.pure_vars[i] = v->name;
        }
    }
    if (u.rdom) {
        for (const ReductionVariable &r : u.rdom->domain) {
            allowed.insert(r.var);
        }
    }
    check_self_references(u, name, where);
    FreeVariables free(allowed);
    for (const Expr &e : u.args) {
        free.include(e);
    }
    for (const Expr &e : values) {
        free.include(e);
    }
    if (u.rdom) {
        for (const Expr &p : u.rdom->predicates) {
            free.include(p);
        }
    }
    if (!free.found.empty()) {
        bool misplaced = false;
        for (const std::string &p : f_->args) {
            misplaced |= p == free.found[0];
        }
        user_error << where << "Undefined variable \"" << free.found[0] << "\" in definition of Func \"" << f_->name
                   << "\""
                   << (misplaced ? ": a pure Var must appear alone at its own position among the arguments"
                                 : ": it is neither a pure Var of the update nor an RVar");
    }
    ReferencedObjects refs;
    for (const Expr &e : u.args) {
        refs.include(e);
    }
    for (const Expr &e : values) {
        refs.include(e);
    }
    if (u.rdom) {
        mark_reduction_domain_used(u.rdom);
        f_->referenced.push_back(u.rdom);
        for (const ReductionVariable &r : u.rdom->domain) {
            refs.include(r.min);
            refs.include(r.extent);
        }
        for (const Expr &p : u.rdom->predicates) {
            refs.include(p);
        }
        for (const ReductionVariable &r : u.rdom->domain) {
            u.dims.push_back({r.var, r.var, ForType::Serial, true});
        }
    }
    std::vector<std::string> coordinates; // random_*(): a hash of the pure Vars and RVars
    for (const std::string &v : u.pure_vars) {
        if (!v.empty()) {
            u.dims.push_back({v, v, ForType::Serial, false});
            coordinates.push_back(v);
        }
    }
    if (u.rdom) {
        for (const ReductionVariable &r : u.rdom->domain) {
            coordinates.push_back(r.var);
        }
    }
    int tag = next_random_tag();
    for (Expr &e : u.args) {
        e = lower_random(e, coordinates, tag);
    }
    for (Expr &e : u.values) {
        e = lower_random(e, coordinates, tag);
    }
    for (auto &r : refs.found) {
        if (r.get() != f_.get()) { // a self-reference would keep the Func alive forever
            f_->referenced.push_back(std::move(r));
        }
    }
    f_->updates.push_back(std::move(u));
}

// f(...) op= e: a Tuple update of one value, after the checks that only a
// single value has (no cast: e of another type is an error, a constant
// adapts, as in any arithmetic, as upstream's).
Stage FuncRef::update_with(const Expr &e, const Expr &identity, Expr (*op)(const Expr &, const Expr &)) {
    user_assert(e.defined()) << "Func '" << f_->name << "' is updated with an undefined expression";
    user_assert(!f_->defined() || f_->values.size() == 1)
        << "Func '" << f_->name << "' has several values (a Tuple): update it with f(...) = Tuple(...)";
    return update_with(Tuple(e), identity, op);
}

Stage FuncRef::operator+=(const Expr &e) {
    return update_with(e, 0, [](const Expr &a, const Expr &b) { return a + b; });
}
Stage FuncRef::operator-=(const Expr &e) {
    return update_with(e, 0, [](const Expr &a, const Expr &b) { return a - b; });
}
Stage FuncRef::operator*=(const Expr &e) {
    return update_with(e, 1, [](const Expr &a, const Expr &b) { return a * b; });
}
Stage FuncRef::operator/=(const Expr &e) {
    return update_with(e, 1, [](const Expr &a, const Expr &b) { return a / b; });
}

Stage FuncRef::update_with(const Tuple &t, const Expr &identity, Expr (*op)(const Expr &, const Expr &)) {
    for (const Expr &e : t.as_vector()) {
        user_assert(e.defined()) << "Func '" << f_->name << "' is updated with an undefined expression";
    }
    // f(_) += g(_) of a Func not defined yet: `_` stands for the implicit
    // Vars the values use, in the pure definition made below as in the update.
    expand_placeholder_in_definition(f_->name, f_->defined(), args_, t.as_vector());
    if (!f_->defined()) {
        // Define it first as the identity over fresh Vars.
        std::vector<Expr> pure, init;
        for (size_t i = 0; i < args_.size(); i++) {
            pure.push_back(Var());
        }
        for (const Expr &e : t.as_vector()) {
            init.push_back(cast(e.type(), identity));
        }
        FuncRef(f_, pure) = Tuple(init);
    }
    user_assert(f_->values.size() == t.size())
        << "Number of tuple elements for update definition must match number of tuple elements for pure "
        << "definition (Func '" << f_->name << "' has " << f_->values.size() << ", the Tuple " << t.size() << ")";
    std::vector<Expr> values;
    for (size_t i = 0; i < t.size(); i++) {
        values.push_back(op(call((int)i), t[i]));
    }
    define(values);
    return last_stage();
}

Stage FuncRef::operator+=(const Tuple &t) {
    return update_with(t, 0, [](const Expr &a, const Expr &b) { return a + b; });
}
Stage FuncRef::operator-=(const Tuple &t) {
    return update_with(t, 0, [](const Expr &a, const Expr &b) { return a - b; });
}
Stage FuncRef::operator*=(const Tuple &t) {
    return update_with(t, 1, [](const Expr &a, const Expr &b) { return a * b; });
}
Stage FuncRef::operator/=(const Tuple &t) {
    return update_with(t, 1, [](const Expr &a, const Expr &b) { return a / b; });
}

Stage FuncRef::operator=(const FuncRef &other) {
    if (other.f_->defined() && other.f_->values.size() > 1) {
        return *this = Tuple(other);
    }
    return *this = Expr(other);
}

FuncRef::operator Expr() const {
    user_assert(!f_->defined() || f_->values.size() == 1)
        << "Func '" << f_->name << "' has " << f_->values.size() << " values (a Tuple): call it with an index, "
        << f_->name << "(...)[i]";
    return call(0);
}

FuncTupleElementRef FuncRef::operator[](int i) const {
    user_assert(f_->defined()) << "Can't call Func \"" << f_->name << "\" because it has not yet been defined.";
    user_assert(i >= 0 && (size_t)i < f_->values.size())
        << "Tuple index out of range in reference to Func \"" << f_->name << "\". (It has " << f_->values.size()
        << " value(s); there is no value " << i << ")";
    return FuncTupleElementRef(*this, i);
}

void FuncRef::define_element(int i, const Expr &value) {
    std::vector<Expr> values;
    for (size_t k = 0; k < f_->values.size(); k++) {
        values.push_back((int)k == i ? value : undef(f_->values[k].type()));
    }
    define(values);
}

FuncTupleElementRef::FuncTupleElementRef(const FuncRef &ref, int index)
    : Expr(ref.call(index)), ref_(ref), index_(index) {}

Stage FuncTupleElementRef::operator=(const Expr &e) {
    ref_.define_element(index_, e);
    return ref_.last_stage();
}

size_t FuncRef::size() const {
    user_assert(f_->defined()) << "Can't call Func \"" << f_->name << "\" because it has not yet been defined.";
    return f_->values.size();
}

Tuple::Tuple(const FuncRef &f) {
    for (size_t i = 0; i < f.size(); i++) {
        exprs_.push_back(f[(int)i]);
    }
}

Expr FuncRef::call(int value_index) const {
    user_assert(f_->defined()) << "Can't call Func \"" << f_->name << "\" because it has not yet been defined.";
    user_assert(args_.size() == f_->args.size()) << "Func \"" << f_->name << "\" was called with " << args_.size()
                                                 << " arguments, but was defined with " << f_->args.size();
    std::vector<Expr> args = args_;
    for (Expr &a : args) {
        user_assert(a.defined() && (a.type().is_int() || a.type().is_uint()))
            << "Arguments of a call to Func '" << f_->name << "' must be integers";
        if (a.type() != Int(32)) {
            a = Cast::make(Int(32), a);
        }
    }
    return Call::make(f_->values[(size_t)value_index].type(), f_->name, std::move(args), Call::Halide, value_index, f_);
}

Func::Func() : f_(new_function("")) {}
Func::Func(const std::string &name) : f_(new_function(name)) {}
Func::Func(std::shared_ptr<FunctionContents> f) : f_(std::move(f)) {
    user_assert(f_) << "Func: a handle on no Func";
}
Func::Func(const Type &required_type, int required_dims, const std::string &name)
    : Func(std::vector<Type>{required_type}, required_dims, name) {}
Func::Func(const std::vector<Type> &required_types, int required_dims, const std::string &name)
    : f_(new_function(name)) {
    f_->required_types = required_types;
    f_->required_dimensions = required_dims;
}
Func::Func(const Expr &e) : Func() {
    (*this)(std::vector<Expr>{}) = e;
}

const std::string &Func::name() const {
    return f_->name;
}
bool Func::defined() const {
    return f_->defined();
}
int Func::dimensions() const {
    if (defined()) {
        return (int)f_->args.size();
    }
    user_assert(f_->required_dimensions >= 0) << "Can't call Func::dimensions on Func \"" << name()
                                              << "\" because it is undefined or has no dimension requirements.";
    return f_->required_dimensions;
}

std::vector<Var> Func::args() const {
    std::vector<Var> out;
    for (const auto &a : f_->args) {
        out.emplace_back(a);
    }
    return out;
}

Expr Func::value() const {
    user_assert(defined()) << "Can't call Func::value() on an undefined Func ('" << name()
                           << "'). To check if a Func is defined, call Func::defined().";
    return f_->values[0];
}

Tuple Func::values() const {
    user_assert(defined()) << "Can't call Func::values() on an undefined Func ('" << name()
                           << "'). To check if a Func is defined, call Func::defined().";
    return Tuple(f_->values);
}

std::vector<Type> Func::types() const {
    if (defined()) {
        return output_types();
    }
    user_assert(!f_->required_types.empty())
        << "Can't call Func::types on Func \"" << name() << "\" because it is undefined or has no type requirements.";
    return f_->required_types;
}

Type Func::type() const {
    user_assert(defined() || !f_->required_types.empty())
        << "Can't call Func::type on Func \"" << name() << "\" because it is undefined or has no type requirements.";
    std::vector<Type> t = types();
    user_assert(t.size() == 1) << "Can't call Func::type on Func \"" << name() << "\" because it returns a Tuple.";
    return t[0];
}

std::vector<Type> Func::output_types() const {
    user_assert(defined()) << "Func '" << name() << "' has no value: it has not been defined";
    std::vector<Type> types;
    for (const Expr &v : f_->values) {
        types.push_back(v.type());
    }
    return types;
}

int Func::outputs() const {
    if (defined()) {
        return (int)f_->values.size();
    }
    user_assert(!f_->required_types.empty())
        << "Can't call Func::outputs on Func \"" << name() << "\" because it is undefined or has no type requirements.";
    return (int)f_->required_types.size();
}

bool Func::has_update_definition() const {
    return !f_->updates.empty();
}

int Func::num_update_definitions() const {
    return (int)f_->updates.size();
}

namespace {
const UpdateDefinition &update_at(const FunctionContents &f, int idx) {
    user_assert(idx >= 0 && (size_t)idx < f.updates.size())
        << "Func '" << f.name << "' has " << f.updates.size() << " update definition(s); there is no update " << idx;
    return f.updates[(size_t)idx];
}
} // namespace

const std::vector<Expr> &Func::update_args(int idx) const {
    return update_at(*f_, idx).args;
}

std::vector<RVar> Func::rvars(int idx) const {
    const UpdateDefinition &u = update_at(*f_, idx);
    std::vector<RVar> result;
    if (u.rdom) {
        for (size_t i = 0; i < u.rdom->domain.size(); i++) {
            result.emplace_back(u.rdom, (int)i);
        }
    }
    return result;
}

Expr Func::update_value(int idx) const {
    const UpdateDefinition &u = update_at(*f_, idx);
    user_assert(u.values.size() == 1) << "Func '" << name() << "' has a Tuple update: use update_values()";
    return u.values[0];
}

Tuple Func::update_values(int idx) const {
    return Tuple(update_at(*f_, idx).values);
}

Stage Func::update(int idx) {
    update_at(*f_, idx);
    return Stage(f_, idx + 1);
}

FuncRef Func::operator()(std::vector<Expr> args) const {
    expand_placeholder_in_call(name(), defined() ? dimensions() : -1, args);
    return FuncRef(f_, std::move(args));
}

FuncRef Func::operator()(const std::vector<Var> &args) const {
    return (*this)(std::vector<Expr>(args.begin(), args.end()));
}

Func &Func::compute_root() {
    f_->compute = ComputeLevel::Root;
    f_->compute_level.reset();
    mark_changed(*f_);
    return *this;
}

Func &Func::memoize(const EvictionKey &eviction_key) {
    f_->memoized = true;
    f_->memoize_eviction_key = eviction_key.key;
    mark_changed(*f_);
    return *this;
}

Func &Func::compute_inline() {
    f_->compute = ComputeLevel::Inlined;
    f_->compute_level.reset();
    mark_changed(*f_);
    return *this;
}

namespace {

// hoist_storage(f, name): some stage of f has a loop the user calls `name`.
// compute_at and store_at are checked when the pipeline is lowered, as
// upstream's (f may get that loop later, or be defined later: upstream's
// test sliding_window schedules at a Func it defines afterwards), with
// upstream's message listing the legal locations (lower/LegalLocations.cpp).
void check_hoist_level(const FunctionContents &f, const std::string &name) {
    const char *what = "hoist_storage";
    user_assert(f.defined()) << "Can't schedule Func '" << f.name << "' (" << what << ") before it has been defined";
    std::vector<std::string> loops; // every stage's, and their specializations'
    for (int stage = 0; stage <= (int)f.updates.size(); stage++) {
        for_each_stage_dim(f, stage, [&](const LoopDim &d) {
            if (std::find(loops.begin(), loops.end(), d.name) == loops.end()) {
                loops.push_back(d.name);
            }
        });
    }
    if (std::find(loops.begin(), loops.end(), name) != loops.end()) {
        return;
    }
    std::string known;
    for (const std::string &l : loops) {
        known += (known.empty() ? "" : ", ") + l;
    }
    user_error << "In " << what << " of Func '" << f.name << "': it has no loop named '" << name << "'; its loops are "
               << known;
}

} // namespace

Func &Func::compute_at(const Func &f, const Var &var) {
    user_assert(f.f_ != f_) << "Func '" << name() << "' can't be computed at one of its own loops";
    f_->compute = ComputeLevel::At;
    f_->compute_at_func = f.name();
    f_->compute_at_var = var.name();
    f_->compute_at_stage = -1;
    f_->compute_level.reset();
    mark_changed(*f_);
    return *this;
}

namespace {

void check_pure_arg(const FunctionContents &f, const Var &v, const char *what) {
    user_assert(f.defined()) << "Can't schedule Func '" << f.name << "' (" << what << ") before it has been defined";
    user_assert(std::find(f.args.begin(), f.args.end(), v.name()) != f.args.end())
        << "In " << what << " of Func '" << f.name << "': '" << v.name() << "' is not one of its arguments";
}

Expr int32_expr(const Expr &e, const char *what) {
    user_assert(e.defined() && (e.type().is_int() || e.type().is_uint()))
        << "The " << what << " must be an integer expression";
    return e.type() == Int(32) ? e : cast(Int(32), e);
}

} // namespace

Func &Func::bound(const Var &var, const Expr &min, const Expr &extent) {
    check_pure_arg(*f_, var, "bound");
    f_->explicit_bounds[var.name()] = {int32_expr(min, "bound's min"), int32_expr(extent, "bound's extent")};
    mark_changed(*f_);
    return *this;
}

Func &Func::align_bounds(const Var &var, const Expr &modulus, const Expr &remainder) {
    check_pure_arg(*f_, var, "align_bounds");
    if (const IntImm *m = modulus.as<IntImm>()) {
        user_assert(m->value > 0) << "align_bounds of '" << var.name() << "' in Func '" << name()
                                  << "': the modulus must be positive";
    }
    f_->alignments[var.name()] = {int32_expr(modulus, "alignment modulus"),
                                  int32_expr(remainder, "alignment remainder")};
    mark_changed(*f_);
    return *this;
}

Func &Func::align_extent(const Var &var, Expr modulus) {
    check_pure_arg(*f_, var, "align_extent");
    if (const IntImm *m = modulus.as<IntImm>()) {
        user_assert(m->value > 0) << "align_extent of '" << var.name() << "' in Func '" << name()
                                  << "': the modulus must be positive";
    }
    f_->extent_alignments[var.name()] = int32_expr(modulus, "alignment modulus");
    mark_changed(*f_);
    return *this;
}

Func &Func::bound_extent(const Var &var, Expr extent) {
    check_pure_arg(*f_, var, "bound_extent");
    f_->extent_bounds[var.name()] = int32_expr(extent, "bound_extent's extent");
    mark_changed(*f_);
    return *this;
}

Func &Func::align_storage(const Var &dim, const Expr &alignment) {
    check_pure_arg(*f_, dim, "align_storage");
    Expr e = int32_expr(alignment, "align_storage's alignment");
    if (const IntImm *k = e.as<IntImm>()) {
        user_assert(k->value > 0) << "align_storage of '" << dim.name() << "' in Func '" << name()
                                  << "': the alignment must be positive, not " << k->value;
    }
    f_->storage_alignments[dim.name()] = e;
    mark_changed(*f_);
    return *this;
}

Func &Func::fold_storage(const Var &dim, const Expr &extent, bool fold_forward) {
    check_pure_arg(*f_, dim, "fold_storage");
    Expr e = int32_expr(extent, "fold_storage's extent");
    const IntImm *k = e.as<IntImm>();
    user_assert(k && k->value > 0) << "fold_storage of '" << dim.name() << "' in Func '" << name()
                                   << "': the fold factor must be a positive integer constant, not " << e;
    f_->storage_folds[dim.name()] = {e, fold_forward};
    mark_changed(*f_);
    return *this;
}

Func &Func::store_in(MemoryType memory_type) {
    f_->memory_type = memory_type;
    mark_changed(*f_);
    return *this;
}

Func &Func::hoist_storage(const Func &f, const Var &var) {
    check_hoist_level(*f.f_, var.name());
    user_assert(f.f_ != f_) << "Func '" << name() << "' can't hoist its storage to one of its own loops";
    f_->hoist = ComputeLevel::At;
    f_->hoist_at_func = f.name();
    f_->hoist_at_var = var.name();
    f_->hoist_at_stage = -1;
    f_->hoist_level.reset();
    mark_changed(*f_);
    return *this;
}

Func &Func::hoist_storage_root() {
    f_->hoist = ComputeLevel::Root;
    f_->hoist_level.reset();
    mark_changed(*f_);
    return *this;
}

Func &Func::bound_storage(const Var &dim, const Expr &bound) {
    check_pure_arg(*f_, dim, "bound_storage");
    f_->storage_bounds[dim.name()] = int32_expr(bound, "bound_storage's bound");
    mark_changed(*f_);
    return *this;
}

Func &Func::reorder_storage(const std::vector<Var> &dims) {
    user_assert(dims.size() == f_->args.size())
        << "reorder_storage of Func '" << name() << "' needs all " << f_->args.size() << " of its arguments";
    std::vector<std::string> order;
    for (const Var &v : dims) {
        check_pure_arg(*f_, v, "reorder_storage");
        user_assert(std::find(order.begin(), order.end(), v.name()) == order.end())
            << "reorder_storage of Func '" << name() << "': '" << v.name() << "' appears twice";
        order.push_back(v.name());
    }
    f_->storage_order = order;
    mark_changed(*f_);
    return *this;
}

std::vector<OutputImageParam> Func::output_buffers() const {
    // A typed Func (Func(types, dims, name)) has them before its definition, as upstream's.
    const bool typed = !f_->required_types.empty() && f_->required_dimensions >= 0;
    user_assert(f_->defined() || typed) << "Can't access the output buffer(s) of Func '" << name()
                                        << "' before it is defined";
    std::vector<Type> types = f_->required_types;
    if (f_->defined()) {
        types.clear();
        for (const Expr &v : f_->values) {
            types.push_back(v.type());
        }
    }
    const int dims = f_->defined() ? (int)f_->args.size() : f_->required_dimensions;
    if (f_->output_buffers.size() != types.size()) {
        // The names the pipeline's output arguments have (InferArguments).
        f_->output_buffers.clear();
        for (size_t v = 0; v < types.size(); v++) {
            auto c = std::make_shared<InputBufferContents>();
            c->name = types.size() == 1 ? f_->name : f_->name + "." + std::to_string(v);
            c->user_name = c->name;
            c->type = types[v];
            c->dimensions = dims;
            c->constraints = default_constraints(c->dimensions);
            c->output = true;
            c->func = f_.get();
            f_->output_buffers.push_back(c);
        }
    }
    std::vector<OutputImageParam> result;
    for (const auto &c : f_->output_buffers) {
        result.push_back(OutputImageParam(c, Argument::OutputBuffer));
    }
    return result;
}

OutputImageParam Func::output_buffer() const {
    std::vector<OutputImageParam> buffers = output_buffers();
    user_assert(buffers.size() == 1) << "Func '" << name() << "' computes a Tuple of " << buffers.size()
                                     << " values: use output_buffers(), one buffer per value";
    return buffers[0];
}

Func &Func::set_estimates(const Region &estimates) {
    user_assert(f_->defined()) << "set_estimates of Func '" << name() << "' before it is defined";
    user_assert(estimates.size() == f_->args.size())
        << "set_estimates of Func '" << name() << "' needs " << f_->args.size() << " ranges, not " << estimates.size();
    f_->estimates = estimates;
    return *this;
}

Func &Func::set_estimate(const Var &var, const Expr &min, const Expr &extent) {
    user_assert(f_->defined()) << "set_estimate of Func '" << name() << "' before it is defined";
    auto it = std::find(f_->args.begin(), f_->args.end(), var.name());
    user_assert(it != f_->args.end()) << "set_estimate of Func '" << name() << "': it has no Var named '" << var.name()
                                      << "'";
    f_->estimates.resize(f_->args.size());
    f_->estimates[(size_t)(it - f_->args.begin())] = Range{min, extent};
    return *this;
}

Func &Func::rename(const VarOrRVar &old_name, const VarOrRVar &new_name) {
    Stage(f_, 0).rename(old_name, new_name);
    return *this;
}

Func &Func::store_root() {
    f_->store = ComputeLevel::Root;
    f_->store_level.reset();
    mark_changed(*f_);
    return *this;
}

Func &Func::store_at(const Func &f, const Var &var) {
    user_assert(f.f_ != f_) << "Func '" << name() << "' can't be stored at one of its own loops";
    f_->store = ComputeLevel::At;
    f_->store_at_func = f.name();
    f_->store_at_var = var.name();
    f_->store_at_stage = -1;
    f_->store_level.reset();
    mark_changed(*f_);
    return *this;
}

// The pure definition's schedule is Stage 0's (Stage.cpp).
Func &Func::split(const VarOrRVar &old, const VarOrRVar &outer, const VarOrRVar &inner, const Expr &factor,
                  TailStrategy tail) {
    Stage(f_, 0).split(old, outer, inner, factor, tail);
    return *this;
}

Func &Func::fuse(const VarOrRVar &inner, const VarOrRVar &outer, const VarOrRVar &fused) {
    Stage(f_, 0).fuse(inner, outer, fused);
    return *this;
}

Func &Func::reorder(const std::vector<VarOrRVar> &vars) {
    Stage(f_, 0).reorder(vars);
    return *this;
}

Func &Func::tile(const VarOrRVar &x, const VarOrRVar &y, const VarOrRVar &xo, const VarOrRVar &yo, const VarOrRVar &xi,
                 const VarOrRVar &yi, const Expr &xfactor, const Expr &yfactor, TailStrategy tail) {
    Stage(f_, 0).tile(x, y, xo, yo, xi, yi, xfactor, yfactor, tail);
    return *this;
}

Func &Func::tile(const VarOrRVar &x, const VarOrRVar &y, const VarOrRVar &xi, const VarOrRVar &yi, const Expr &xfactor,
                 const Expr &yfactor, TailStrategy tail) {
    Stage(f_, 0).tile(x, y, xi, yi, xfactor, yfactor, tail);
    return *this;
}

Func &Func::tile(const std::vector<VarOrRVar> &previous, const std::vector<VarOrRVar> &outers,
                 const std::vector<VarOrRVar> &inners, const std::vector<Expr> &factors,
                 const std::vector<TailStrategy> &tails) {
    Stage(f_, 0).tile(previous, outers, inners, factors, tails);
    return *this;
}

Func &Func::tile(const std::vector<VarOrRVar> &previous, const std::vector<VarOrRVar> &outers,
                 const std::vector<VarOrRVar> &inners, const std::vector<Expr> &factors, TailStrategy tail) {
    Stage(f_, 0).tile(previous, outers, inners, factors, tail);
    return *this;
}

Func &Func::tile(const std::vector<VarOrRVar> &previous, const std::vector<VarOrRVar> &inners,
                 const std::vector<Expr> &factors, TailStrategy tail) {
    Stage(f_, 0).tile(previous, inners, factors, tail);
    return *this;
}

Func &Func::parallel(const VarOrRVar &v) {
    Stage(f_, 0).parallel(v);
    return *this;
}

Func &Func::parallel(const VarOrRVar &v, const Expr &task_size, TailStrategy tail) {
    Stage(f_, 0).parallel(v, task_size, tail);
    return *this;
}

Func &Func::vectorize(const VarOrRVar &v) {
    Stage(f_, 0).vectorize(v);
    return *this;
}

Func &Func::vectorize(const VarOrRVar &v, const Expr &factor, TailStrategy tail) {
    Stage(f_, 0).vectorize(v, factor, tail);
    return *this;
}

Func &Func::unroll(const VarOrRVar &v) {
    Stage(f_, 0).unroll(v);
    return *this;
}

Func &Func::unroll(const VarOrRVar &v, const Expr &factor, TailStrategy tail) {
    Stage(f_, 0).unroll(v, factor, tail);
    return *this;
}

Func &Func::serial(const VarOrRVar &v) {
    Stage(f_, 0).serial(v);
    return *this;
}

Func &Func::partition(const VarOrRVar &v, Partition policy) {
    Stage(f_, 0).partition(v, policy);
    return *this;
}

Func &Func::never_partition(const std::vector<VarOrRVar> &vars) {
    Stage(f_, 0).never_partition(vars);
    return *this;
}

Func &Func::always_partition(const std::vector<VarOrRVar> &vars) {
    Stage(f_, 0).always_partition(vars);
    return *this;
}

Func &Func::never_partition_all() {
    Stage(f_, 0).never_partition_all();
    return *this;
}

Func &Func::always_partition_all() {
    Stage(f_, 0).always_partition_all();
    return *this;
}

void Func::add_custom_lowering_pass(IRMutator *pass, std::function<void()> deleter) {
    pipeline().add_custom_lowering_pass(pass, std::move(deleter));
}
void Func::clear_custom_lowering_passes() {
    pipeline().clear_custom_lowering_passes();
}
const std::vector<CustomLoweringPass> &Func::custom_lowering_passes() {
    return pipeline().custom_lowering_passes();
}

// One Pipeline per Func, made on first use, so the compiled code is cached.
Pipeline &Func::pipeline() {
    if (!pipeline_) {
        pipeline_ = std::make_shared<Pipeline>(*this);
    }
    return *pipeline_;
}

void Func::compile_jit(const Target &target) {
    pipeline().compile_jit(target);
}

void Func::realize(const Realization &dst, const Target &target) {
    pipeline().realize(dst, target);
}

void Func::realize(JITUserContext *context, const Realization &dst, const Target &target) {
    pipeline().realize(context, dst, target);
}

Realization Func::realize(std::vector<int32_t> sizes, const Target &target) {
    return pipeline().realize(std::move(sizes), target);
}

Realization Func::realize(JITUserContext *context, std::vector<int32_t> sizes, const Target &target) {
    return pipeline().realize(context, std::move(sizes), target);
}

std::string Func::lowered_stmt() {
    return pipeline().lowered_stmt();
}

void Func::print_loop_nest() {
    pipeline().print_loop_nest();
}

std::string Func::llvm_ir() {
    return pipeline().llvm_ir();
}

std::string Func::assembly() {
    return pipeline().assembly();
}

} // namespace Halide
