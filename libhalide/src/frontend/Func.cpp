// See Func.h.
#include "Halide/Func.h"

#include <mutex>
#include <set>
#include <sstream>

#include "Function.h"
#include "Halide/Error.h"
#include "call_context.h"
#include "Halide/IR.h"
#include "Halide/IRPrinter.h"
#include "Halide/IRVisitor.h"
#include "jit/JIT.h"
#include "lower/Lower.h"

namespace Halide {

using namespace Internal;

namespace Internal {

struct JITCache {
    uint64_t epoch = ~uint64_t(0);
    LoweredPipeline lowered;
    std::shared_ptr<JITModule> module;
};

}  // namespace Internal

namespace {

FunctionPtr new_function(const std::string &requested) {
    auto f = std::make_shared<FunctionContents>();
    f->name = requested.empty() ? fresh_name('f') : unique_name(requested);
    register_function(f);
    return f;
}

// Runtime errors of JIT-compiled pipelines: the runtime linked into
// libhalide reports through this handler, which appends to the log of the
// call in progress (the call context follows the call onto pool threads).
struct JITErrorLog {
    std::mutex mutex;
    std::string text;
};

void capture_jit_error(void *, const char *message) {
    auto *log = static_cast<JITErrorLog *>(hlrt_get_call_context());
    if (!log) {
        return;
    }
    std::lock_guard<std::mutex> lock(log->mutex);
    log->text += (log->text.empty() ? "" : "\n") + std::string(message);
}

void run_jit(const JITModule &module, const std::string &name, void **args) {
    static std::once_flag once;
    std::call_once(once, [] { halide_set_error_handler(capture_jit_error); });
    JITErrorLog log;
    void *outer = hlrt_set_call_context(&log);
    int result = module.argv_function()(args);
    hlrt_set_call_context(outer);
    if (result != 0) {
        throw RuntimeError("Error running pipeline '" + name + "' (code " + std::to_string(result) +
                               "): " + (log.text.empty() ? "no message" : log.text),
                           result);
    }
}

// Names of the free variables of `e` that are not in `allowed`.
class FreeVariables : public IRVisitor {
public:
    explicit FreeVariables(const std::set<std::string> &allowed) : allowed_(allowed) {}
    std::vector<std::string> found;

    using IRVisitor::visit;
    void visit(const Variable *v) override {
        if (!allowed_.count(v->name) && !lets_.count(v->name) && !find_param(v->name)) {
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

}  // namespace

FuncRef::FuncRef(FunctionPtr f, std::vector<Expr> args) : f_(std::move(f)), args_(std::move(args)) {}

FuncRef &FuncRef::operator=(const Expr &value) {
    user_assert(value.defined()) << "Func '" << f_->name << "' is defined with an undefined expression";
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
    free.include(value);
    if (!free.found.empty()) {
        user_error << "Undefined variable '" << free.found[0] << "' in the definition of Func '" << f_->name
                   << "': it is not one of its arguments";
    }
    f_->args = names;
    f_->values = {value};
    bump_pipeline_epoch();
    return *this;
}

FuncRef &FuncRef::operator=(const FuncRef &other) { return *this = Expr(other); }

FuncRef::operator Expr() const {
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
    return Call::make(f_->values[0].type(), f_->name, std::move(args), Call::Halide);
}

[[noreturn]] static void unsupported_update(const std::string &name) {
    user_error << "Func '" << name << "': update definitions (+=, -=, ...) are not supported yet";
    throw CompileError("unreachable");  // user_error throws; this tells the compiler so
}

FuncRef &FuncRef::operator+=(const Expr &) { unsupported_update(f_->name); }
FuncRef &FuncRef::operator-=(const Expr &) { unsupported_update(f_->name); }
FuncRef &FuncRef::operator*=(const Expr &) { unsupported_update(f_->name); }
FuncRef &FuncRef::operator/=(const Expr &) { unsupported_update(f_->name); }

Func::Func() : f_(new_function("")) {}
Func::Func(const std::string &name) : f_(new_function(name)) {}
Func::Func(const Expr &e) : Func() { (*this)(std::vector<Expr>{}) = e; }

const std::string &Func::name() const { return f_->name; }
bool Func::defined() const { return f_->defined(); }
int Func::dimensions() const { return (int)f_->args.size(); }

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

Type Func::type() const { return value().type(); }

std::vector<Type> Func::output_types() const { return {type()}; }

FuncRef Func::operator()(std::vector<Expr> args) const { return FuncRef(f_, std::move(args)); }

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

void Func::compile_jit() {
    user_assert(defined()) << "Can't compile Func '" << name() << "' because it has not been defined";
    if (!jit_) {
        jit_ = std::make_shared<JITCache>();
    }
    if (jit_->epoch == pipeline_epoch() && jit_->module) {
        return;
    }
    jit_->lowered = lower({f_}, name());
    jit_->module = std::make_shared<JITModule>(JITModule::compile(jit_->lowered.func));
    jit_->epoch = pipeline_epoch();
}

void Func::realize_into(halide_buffer_t *dst) {
    compile_jit();
    const LoweredPipeline &lp = jit_->lowered;
    std::vector<void *> args;
    for (size_t i = 0; i < lp.sources.size(); i++) {
        const ArgumentSource &s = lp.sources[i];
        const LoweredArgument &a = lp.func.args[i];
        if (s.param) {
            args.push_back(&s.param->value);
        } else if (s.buffer) {
            user_assert(s.buffer->bound) << "ImageParam '" << s.buffer->name
                                         << "' has no buffer: call set() on it before realizing '" << name()
                                         << "'";
            args.push_back(s.buffer->bound);
        } else {
            internal_assert(a.kind == LoweredArgument::OutputBuffer && s.output_index == 0);
            args.push_back(dst);
        }
    }
    run_jit(*jit_->module, name(), args.data());
}

Buffer<> Func::realize(std::vector<int32_t> sizes) {
    user_assert((int)sizes.size() == dimensions())
        << "Func '" << name() << "' has " << dimensions() << " dimensions but realize() was given " << sizes.size()
        << " sizes";
    std::vector<int> extents(sizes.begin(), sizes.end());
    Buffer<> out(type(), extents, name());
    realize_into(out.raw_buffer());
    return out;
}

std::string Func::lowered_stmt() {
    compile_jit();
    std::ostringstream s;
    s << jit_->lowered.func.body;
    return s.str();
}

std::string Func::llvm_ir() {
    compile_jit();
    return jit_->module->llvm_ir();
}

std::string Func::assembly() {
    compile_jit();
    return jit_->module->assembly();
}

}  // namespace Halide
