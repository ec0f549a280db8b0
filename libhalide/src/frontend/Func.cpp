// See Func.h.
#include "Halide/Func.h"

#include <algorithm>
#include <mutex>
#include <set>
#include <sstream>

#include "Function.h"
#include "Halide/Error.h"
#include "Halide/IR.h"
#include "Halide/IROperator.h"
#include "Halide/IRPrinter.h"
#include "Halide/IRVisitor.h"
#include "Halide/Pipeline.h"
#include "lower/Lower.h"

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
        if (!allowed_.count(v->name) && !lets_.count(v->name) && !find_param(v->name) &&
            input_buffer_of_field(v->name).empty()) {
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

FuncRef &FuncRef::operator=(const Expr &value) {
    define({value});
    return *this;
}

FuncRef &FuncRef::operator=(const Tuple &values) {
    define(values.as_vector());
    return *this;
}

void FuncRef::define(const std::vector<Expr> &values) {
    for (const Expr &value : values) {
        user_assert(value.defined()) << "Func '" << f_->name << "' is defined with an undefined expression";
    }
    user_assert(!f_->defined()) << "Func '" << f_->name
                                << "' is already defined; update definitions are not supported yet";
    std::vector<std::string> names;
    std::set<std::string> seen;
    for (size_t i = 0; i < args_.size(); i++) {
        const Variable *v = args_[i].as<Variable>();
        user_assert(v && !find_param(v->name))
            << "Argument " << i << " in the definition of Func '" << f_->name
            << "' is not a Var: pure definitions take distinct Vars, e.g. f(x, y) = ...";
        user_assert(seen.insert(v->name).second)
            << "Var '" << v->name << "' is used twice in the definition of Func '" << f_->name << "'";
        names.push_back(v->name);
    }
    FreeVariables free(seen);
    for (const Expr &value : values) {
        free.include(value);
    }
    if (!free.found.empty()) {
        user_error << "Undefined variable '" << free.found[0] << "' in the definition of Func '" << f_->name
                   << "': it is not one of its arguments";
    }
    ReferencedObjects refs;
    for (const Expr &value : values) {
        refs.include(value);
    }
    f_->args = names;
    f_->values = values;
    f_->referenced = std::move(refs.found);
    f_->dims.clear();
    for (const std::string &n : names) {
        f_->dims.push_back({n, n, ForType::Serial});
    }
    bump_pipeline_epoch();
}

FuncRef &FuncRef::operator=(const FuncRef &other) {
    return *this = Expr(other);
}

FuncRef::operator Expr() const {
    user_assert(!f_->defined() || f_->values.size() == 1)
        << "Func '" << f_->name << "' has " << f_->values.size() << " values (a Tuple): call it with an index, "
        << f_->name << "(...)[i]";
    return call(0);
}

Expr FuncRef::operator[](int i) const {
    user_assert(f_->defined()) << "Can't call Func '" << f_->name << "' because it has not yet been defined";
    user_assert(i >= 0 && (size_t)i < f_->values.size())
        << "Func '" << f_->name << "' has " << f_->values.size() << " value(s); there is no value " << i;
    return call(i);
}

Expr FuncRef::call(int value_index) const {
    user_assert(f_->defined()) << "Can't call Func '" << f_->name << "' because it has not yet been defined";
    user_assert(args_.size() == f_->args.size())
        << "Func '" << f_->name << "' has " << f_->args.size() << " arguments but is called with " << args_.size();
    std::vector<Expr> args = args_;
    for (Expr &a : args) {
        user_assert(a.defined() && (a.type().is_int() || a.type().is_uint()))
            << "Arguments of a call to Func '" << f_->name << "' must be integers";
        if (a.type() != Int(32)) {
            a = Cast::make(Int(32), a);
        }
    }
    return Call::make(f_->values[(size_t)value_index].type(), f_->name, std::move(args), Call::Halide, value_index);
}

[[noreturn]] static void unsupported_update(const std::string &name) {
    user_error << "Func '" << name << "': update definitions (+=, -=, ...) are not supported yet";
    throw CompileError("unreachable"); // user_error throws; this tells the compiler so
}

FuncRef &FuncRef::operator+=(const Expr &) {
    unsupported_update(f_->name);
}
FuncRef &FuncRef::operator-=(const Expr &) {
    unsupported_update(f_->name);
}
FuncRef &FuncRef::operator*=(const Expr &) {
    unsupported_update(f_->name);
}
FuncRef &FuncRef::operator/=(const Expr &) {
    unsupported_update(f_->name);
}

Func::Func() : f_(new_function("")) {}
Func::Func(const std::string &name) : f_(new_function(name)) {}
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
    return (int)f_->args.size();
}

std::vector<Var> Func::args() const {
    std::vector<Var> out;
    for (const auto &a : f_->args) {
        out.emplace_back(a);
    }
    return out;
}

Expr Func::value() const {
    user_assert(defined()) << "Func '" << name() << "' has no value: it has not been defined";
    return f_->values[0];
}

Type Func::type() const {
    return value().type();
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
    return defined() ? (int)f_->values.size() : 0;
}

FuncRef Func::operator()(std::vector<Expr> args) const {
    return FuncRef(f_, std::move(args));
}

FuncRef Func::operator()(const std::vector<Var> &args) const {
    std::vector<Expr> e(args.begin(), args.end());
    return FuncRef(f_, std::move(e));
}

Func &Func::compute_root() {
    f_->compute = ComputeLevel::Root;
    bump_pipeline_epoch();
    return *this;
}

Func &Func::compute_inline() {
    f_->compute = ComputeLevel::Inlined;
    bump_pipeline_epoch();
    return *this;
}

namespace {

// The index in f's loops of the Dim the user calls `name`.
size_t dim_index(const FunctionContents &f, const std::string &name, const char *what) {
    user_assert(f.defined()) << "Can't schedule Func '" << f.name << "' (" << what << ") before it has been defined";
    for (size_t i = 0; i < f.dims.size(); i++) {
        if (f.dims[i].name == name) {
            return i;
        }
    }
    std::string known;
    for (const Dim &d : f.dims) {
        known += (known.empty() ? "" : ", ") + d.name;
    }
    user_error << "In " << what << " of Func '" << f.name << "': it has no loop named '" << name << "'; its loops are "
               << known;
    return 0;
}

// A fresh internal name for a loop the user calls `name`.
std::string internal_var(const FunctionContents &f, const std::string &name) {
    auto taken = [&](const std::string &v) {
        for (const std::string &a : f.args) {
            if (a == v) {
                return true;
            }
        }
        for (const SplitStep &s : f.splits) {
            if (s.old_var == v || s.outer == v || s.inner == v) {
                return true;
            }
        }
        return false;
    };
    std::string v = name;
    for (int n = 1; taken(v); n++) {
        v = name + "$" + std::to_string(n);
    }
    return v;
}

TailKind tail_kind(TailStrategy t) {
    switch (t) {
    case TailStrategy::GuardWithIf: return TailKind::GuardWithIf;
    case TailStrategy::ShiftInwards: return TailKind::ShiftInwards;
    case TailStrategy::RoundUp: return TailKind::RoundUp;
    default: return TailKind::Auto;
    }
}

} // namespace

Func &Func::compute_at(const Func &f, const Var &var) {
    dim_index(*f.f_, var.name(), "compute_at");
    user_assert(f.f_ != f_) << "Func '" << name() << "' can't be computed at one of its own loops";
    f_->compute = ComputeLevel::At;
    f_->compute_at_func = f.name();
    f_->compute_at_var = var.name();
    bump_pipeline_epoch();
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
    bump_pipeline_epoch();
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
    bump_pipeline_epoch();
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
    bump_pipeline_epoch();
    return *this;
}

Func &Func::set_estimates(const Region &estimates) {
    user_assert(f_->defined()) << "set_estimates of Func '" << name() << "' before it is defined";
    user_assert(estimates.size() == f_->args.size())
        << "set_estimates of Func '" << name() << "' needs " << f_->args.size() << " ranges, not " << estimates.size();
    f_->estimates = estimates;
    return *this;
}

Func &Func::store_root() {
    f_->store = ComputeLevel::Root;
    bump_pipeline_epoch();
    return *this;
}

Func &Func::store_at(const Func &f, const Var &var) {
    dim_index(*f.f_, var.name(), "store_at");
    user_assert(f.f_ != f_) << "Func '" << name() << "' can't be stored at one of its own loops";
    f_->store = ComputeLevel::At;
    f_->store_at_func = f.name();
    f_->store_at_var = var.name();
    bump_pipeline_epoch();
    return *this;
}

Func &Func::split(const Var &old, const Var &outer, const Var &inner, const Expr &factor, TailStrategy tail) {
    size_t i = dim_index(*f_, old.name(), "split");
    user_assert(factor.defined() && (factor.type().is_int() || factor.type().is_uint()))
        << "The split factor of '" << old.name() << "' in Func '" << name() << "' must be an integer";
    if (const IntImm *c = factor.as<IntImm>()) {
        user_assert(c->value > 0) << "The split factor of '" << old.name() << "' in Func '" << name()
                                  << "' must be positive, not " << c->value;
    }
    for (const Dim &d : f_->dims) {
        user_assert(d.name == old.name() || (d.name != outer.name() && d.name != inner.name()))
            << "In split of Func '" << name() << "': a loop named '"
            << (d.name == outer.name() ? outer.name() : inner.name()) << "' already exists";
    }
    user_assert(outer.name() != inner.name())
        << "In split of Func '" << name() << "': the outer and inner loops need different names";
    SplitStep step;
    step.kind = SplitStep::Split;
    step.old_var = f_->dims[i].var;
    step.factor = factor.type() == Int(32) ? factor : cast(Int(32), factor);
    step.tail = tail_kind(tail);
    // Reserve the names one at a time so outer and inner never collide.
    step.outer = internal_var(*f_, outer.name() + (outer.name() == old.name() ? "$o" : ""));
    f_->splits.push_back(step);
    f_->splits.back().inner = internal_var(*f_, inner.name() + (inner.name() == old.name() ? "$i" : ""));
    // Both halves keep the loop's type, as upstream's do (a split of a
    // parallel loop gives two parallel loops).
    ForType type = f_->dims[i].for_type;
    f_->dims[i] = {inner.name(), f_->splits.back().inner, type};
    f_->dims.insert(f_->dims.begin() + i + 1, Dim{outer.name(), f_->splits.back().outer, type});
    bump_pipeline_epoch();
    return *this;
}

Func &Func::fuse(const Var &inner, const Var &outer, const Var &fused) {
    size_t i = dim_index(*f_, inner.name(), "fuse");
    size_t o = dim_index(*f_, outer.name(), "fuse");
    user_assert(o == i + 1) << "In fuse of Func '" << name() << "': '" << outer.name()
                            << "' must be the loop just outside '" << inner.name() << "'";
    SplitStep step;
    step.kind = SplitStep::Fuse;
    step.inner = f_->dims[i].var;
    step.outer = f_->dims[o].var;
    step.old_var = internal_var(*f_, fused.name());
    f_->splits.push_back(step);
    f_->dims[i] = {fused.name(), step.old_var, f_->dims[o].for_type};
    f_->dims.erase(f_->dims.begin() + o);
    bump_pipeline_epoch();
    return *this;
}

Func &Func::reorder(const std::vector<Var> &vars) {
    std::vector<size_t> positions;
    for (const Var &v : vars) {
        size_t p = dim_index(*f_, v.name(), "reorder");
        for (size_t q : positions) {
            user_assert(q != p) << "In reorder of Func '" << name() << "': '" << v.name() << "' appears twice";
        }
        positions.push_back(p);
    }
    std::vector<Dim> picked;
    for (size_t p : positions) {
        picked.push_back(f_->dims[p]);
    }
    std::vector<size_t> sorted = positions;
    std::sort(sorted.begin(), sorted.end());
    for (size_t k = 0; k < sorted.size(); k++) {
        f_->dims[sorted[k]] = picked[k];
    }
    bump_pipeline_epoch();
    return *this;
}

Func &Func::tile(const Var &x, const Var &y, const Var &xo, const Var &yo, const Var &xi, const Var &yi,
                 const Expr &xfactor, const Expr &yfactor, TailStrategy tail) {
    split(x, xo, xi, xfactor, tail);
    split(y, yo, yi, yfactor, tail);
    return reorder(xi, yi, xo, yo);
}

Func &Func::tile(const Var &x, const Var &y, const Var &xi, const Var &yi, const Expr &xfactor, const Expr &yfactor,
                 TailStrategy tail) {
    return tile(x, y, x, y, xi, yi, xfactor, yfactor, tail);
}

namespace {

void set_loop_type(FunctionContents &f, const Var &v, ForType type, const char *what) {
    f.dims[dim_index(f, v.name(), what)].for_type = type;
    bump_pipeline_epoch();
}

} // namespace

Func &Func::parallel(const Var &v) {
    set_loop_type(*f_, v, ForType::Parallel, "parallel");
    return *this;
}

Func &Func::vectorize(const Var &v) {
    set_loop_type(*f_, v, ForType::Vectorized, "vectorize");
    return *this;
}

Func &Func::unroll(const Var &v) {
    set_loop_type(*f_, v, ForType::Unrolled, "unroll");
    return *this;
}

namespace {

// A loop name based on `base` that f does not use yet (vectorizing the same
// Var twice splits it twice).
std::string fresh_loop_name(const FunctionContents &f, const std::string &base) {
    auto used = [&](const std::string &n) {
        return std::any_of(f.dims.begin(), f.dims.end(), [&](const Dim &d) { return d.name == n; });
    };
    std::string name = base;
    for (int k = 1; used(name); k++) {
        name = base + "$" + std::to_string(k);
    }
    return name;
}

} // namespace

// parallel(v, n), vectorize(v, n), unroll(v, n): split v by n, keep the
// name v for the outer loop, and mark the inner (or, for parallel, outer) one.
Func &Func::parallel(const Var &v, const Expr &task_size, TailStrategy tail) {
    split(v, v, Var(fresh_loop_name(*f_, v.name() + "_par_inner")), task_size, tail);
    return parallel(v);
}

Func &Func::vectorize(const Var &v, int factor, TailStrategy tail) {
    Var inner(fresh_loop_name(*f_, v.name() + "_vec"));
    split(v, v, inner, factor, tail);
    return vectorize(inner);
}

Func &Func::unroll(const Var &v, int factor, TailStrategy tail) {
    Var inner(fresh_loop_name(*f_, v.name() + "_unroll"));
    split(v, v, inner, factor, tail);
    return unroll(inner);
}

// One Pipeline per Func, made on first use, so the compiled code is cached.
Pipeline &Func::pipeline() {
    if (!pipeline_) {
        pipeline_ = std::make_shared<Pipeline>(*this);
    }
    return *pipeline_;
}

void Func::compile_jit() {
    pipeline().compile_jit();
}

void Func::realize_into(halide_buffer_t *dst) {
    pipeline().run({dst});
}

void Func::realize(const Realization &dst) {
    pipeline().realize(dst);
}

Realization Func::realize(std::vector<int32_t> sizes) {
    return pipeline().realize(std::move(sizes));
}

std::string Func::lowered_stmt() {
    return pipeline().lowered_stmt();
}

std::string Func::llvm_ir() {
    return pipeline().llvm_ir();
}

std::string Func::assembly() {
    return pipeline().assembly();
}

} // namespace Halide
