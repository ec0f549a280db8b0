// See Passes.h: Func::memoize through the runtime's memoization cache
// (upstream's ABI, HalideRuntime.h). After storage flattening, the
// allocation of a memoized Func f (f, or f.0, f.1, ... for a Tuple) over
// region f.min.d / f.extent.d with strides f.stride.d becomes
//
//   let f.memo.buffer.i = buffer_make(no host, value i's type, (f.min.d, f.extent.d, f.stride.d)...)
//   let f.memo.bounds = buffer_make(no host, handle, (f.min.d, f.extent.d, 0)...)
//     (the region computed, f.c.min.d / f.c.extent.d, where that is apart)
//   let f.memo.key = make_struct("<pipeline>.<f>", compilation id, the Params f depends on...)
//   let f.memo.buffers = make_struct(f.memo.buffer.0, ...)
//   let f.memo.result = halide_memoization_cache_lookup(uc, f.memo.key, key size, f.memo.bounds, n, f.memo.buffers)
//   assert(f.memo.result != -1, halide_error_out_of_memory(uc))
//   allocate f.i[...] custom_new { buffer_get_host(f.memo.buffer.i) } custom_delete { halide_memoization_cache_release
//   }
//     if (f.memo.result == 1) { produce f; halide_memoization_cache_store(..., has eviction key, key) }
//     consumers of f
//
// The key's Params are those read by f's production (loop bounds, RDom
// bounds, specializations too) and by the definitions of every Func f
// calls, transitively: a result depends on nothing else, except input
// buffers, which upstream refuses (their contents are not in the key).
// The name string's address and the compilation id keep apart Funcs of
// different pipelines and of different compilations of one pipeline.
#include <algorithm>
#include <atomic>
#include <set>

#include "Halide/Error.h"
#include "Halide/IREquality.h"
#include "Halide/IRMutator.h"
#include "Halide/IROperator.h"
#include "Halide/IRPrinter.h"
#include "Halide/IRVisitor.h"
#include "ir/BlockList.h"
#include "ir/StructLayout.h"
#include "lower/Passes.h"

namespace Halide {
namespace Internal {
namespace {

std::atomic<uint64_t> compilation_counter{0};

Expr handle_var(const std::string &name) {
    return Variable::make(Handle(), name);
}

// The pipeline's input arguments by name: the lowered statement uses the
// names the arguments were given, the Funcs' definitions the unique ones.
struct Arguments {
    std::map<std::string, std::pair<std::string, Type>> scalars; // either name -> given name, type
    std::map<std::string, InputBufferPtr> buffers;               // either name -> the buffer
};

// Params and input buffers an Expr or Stmt reads, and the Funcs it calls
// (Call::Halide before flattening, Load after it).
class FindDependencies : public IRVisitor {
public:
    explicit FindDependencies(const Arguments &a) : args_(a) {}
    std::set<std::string> params, funcs; // given names of the Params
    std::set<InputBufferPtr> buffers;
    std::vector<Expr> tags; // memoize_tag(): key values standing for what their result depends on
    using IRVisitor::visit;
    void visit(const Variable *op) override {
        auto it = args_.scalars.find(op->name);
        if (it != args_.scalars.end()) {
            params.insert(it->second.first);
        }
    }
    void visit(const Call *op) override {
        if (op->call_type == Call::Intrinsic && op->name == "memoize_expr") {
            // The result itself (one argument) or the values given.
            for (size_t i = op->args.size() == 1 ? 0 : 1; i < op->args.size(); i++) {
                add_tag(op->args[i]);
            }
            return;
        }
        IRVisitor::visit(op);
        if (op->call_type == Call::Halide) {
            funcs.insert(op->name);
        } else if (op->call_type == Call::Image) {
            buffer(op->name);
        }
    }
    void visit(const Load *op) override {
        IRVisitor::visit(op);
        funcs.insert(op->name);
        buffer(op->name);
    }

    void add_tag(const Expr &e) {
        for (const Expr &t : tags) {
            if (equal(t, e)) {
                return;
            }
        }
        tags.push_back(e);
    }

private:
    void buffer(const std::string &name) {
        auto it = args_.buffers.find(name);
        if (it != args_.buffers.end()) {
            buffers.insert(it->second);
        }
    }
    const Arguments &args_;
};

void include_definition(FindDependencies &deps, const FunctionContents &g) {
    auto exprs = [&](const std::vector<Expr> &es) {
        for (const Expr &e : es) {
            if (e.defined()) {
                deps.include(e);
            }
        }
    };
    exprs(g.values);
    for (const UpdateDefinition &u : g.updates) {
        exprs(u.args);
        exprs(u.values);
        if (u.rdom) {
            for (const ReductionVariable &rv : u.rdom->domain) {
                exprs({rv.min, rv.extent});
            }
            exprs(u.rdom->predicates);
        }
    }
}

class InjectMemoization : public IRMutator {
public:
    InjectMemoization(const Environment &env, const std::string &pipeline, LoweredPipeline &p)
        : env_(env), pipeline_(pipeline), compilation_(++compilation_counter), pipeline_args_(p) {
        for (size_t i = 0; i < p.func.args.size(); i++) {
            const LoweredArgument &a = p.func.args[i];
            if (a.kind == LoweredArgument::Scalar) {
                args_.scalars[a.name] = {a.name, a.type};
                args_.scalars[p.sources[i].param->name] = {a.name, a.type};
            } else if (a.kind == LoweredArgument::InputBuffer) {
                args_.buffers[a.name] = p.sources[i].buffer;
                args_.buffers[p.sources[i].buffer->name] = p.sources[i].buffer;
            }
        }
    }
    using IRMutator::visit;

    Stmt visit(const LetStmt *op) override {
        lets_.push_back(op->name);
        Stmt s = IRMutator::visit(op);
        lets_.pop_back();
        return s;
    }

    Stmt visit(const Allocate *op) override {
        const FunctionContents *f = memoized_func_of(op->name);
        if (!f) {
            return IRMutator::visit(op);
        }
        // A Tuple's allocations nest: f.0 { f.1 { ... } }.
        size_t n = f->values.size();
        std::vector<const Allocate *> allocs = {op};
        while (allocs.size() < n) {
            const Allocate *inner = allocs.back()->body.as<Allocate>();
            internal_assert(inner && inner->name == value_buffer(*f, allocs.size()))
                << "the allocations of memoized Func " << f->name << " are not together";
            allocs.push_back(inner);
        }
        Stmt body = mutate(allocs.back()->body);
        return memoize(*f, allocs, body);
    }

private:
    // An eviction key's Params by their argument names; a Param only the
    // key reads (not an argument yet: arguments come from the statement
    // before this pass) becomes one, after the others.
    Expr with_argument_names(const Expr &e) {
        class Rename : public IRMutator {
        public:
            InjectMemoization &self;
            explicit Rename(InjectMemoization &self) : self(self) {}
            using IRMutator::visit;
            Expr visit(const Variable *op) override {
                auto it = self.args_.scalars.find(op->name);
                if (it == self.args_.scalars.end()) {
                    ParamPtr param = find_param(op->name);
                    if (!param) {
                        return IRMutator::visit(op);
                    }
                    self.pipeline_args_.func.args.push_back({op->name, LoweredArgument::Scalar, param->type, 0});
                    ArgumentSource src;
                    src.param = param;
                    self.pipeline_args_.sources.push_back(src);
                    it = self.args_.scalars.emplace(op->name, std::make_pair(op->name, param->type)).first;
                }
                return Variable::make(op->type, it->second.first);
            }
        } rename(*this);
        return rename.mutate(e);
    }

    const FunctionContents *memoized_func_of(const std::string &buffer) const {
        for (const auto &[name, f] : env_) {
            if (f->memoized && buffer == value_buffer(*f, 0)) {
                return f.get();
            }
        }
        return nullptr;
    }

    static std::string value_buffer(const FunctionContents &f, size_t i) {
        return f.values.size() > 1 ? f.name + "." + std::to_string(i) : f.name;
    }

    // Whether s writes f: stores to one of its buffers, or (an extern
    // stage) is the call computing it.
    static bool writes(const Stmt &s, const FunctionContents &f) {
        if (const LetStmt *let = s.as<LetStmt>(); let && f.extern_def && let->name == f.name + ".extern.result") {
            return true;
        }
        class Finder : public IRVisitor {
        public:
            const FunctionContents &f;
            bool found = false;
            explicit Finder(const FunctionContents &f) : f(f) {}
            using IRVisitor::visit;
            void visit(const Store *op) override {
                for (size_t i = 0; i < f.values.size(); i++) {
                    found = found || op->name == value_buffer(f, i);
                }
                IRVisitor::visit(op);
            }
            void visit(const LetStmt *op) override {
                found = found || (f.extern_def && op->name == f.name + ".extern.result");
                IRVisitor::visit(op);
            }
        } finder(f);
        finder.include(s);
        return finder.found;
    }

    // s with f's production (the statements up to the last that writes f,
    // after the lets that open s) run only on a miss, followed by the
    // store. `production` receives it, for the key's dependencies.
    static Stmt guard_production(const Stmt &s, const FunctionContents &f, const Expr &miss, const Stmt &store,
                                 Stmt *production) {
        std::vector<Stmt> list = block_statements(s);
        if (list.size() == 1) {
            if (const LetStmt *let = s.as<LetStmt>(); let && !writes(Evaluate::make(let->value), f) &&
                                                      !(f.extern_def && let->name == f.name + ".extern.result")) {
                return LetStmt::make(let->name, let->value, guard_production(let->body, f, miss, store, production));
            }
        }
        size_t last = list.size();
        for (size_t i = 0; i < list.size(); i++) {
            if (writes(list[i], f)) {
                last = i;
            }
        }
        internal_assert(last < list.size()) << "memoized Func " << f.name << ": its production was not found";
        std::vector<Stmt> produced(list.begin(), list.begin() + last + 1);
        *production = Block::make(produced);
        produced.push_back(store);
        std::vector<Stmt> out = {IfThenElse::make(miss, Block::make(produced))};
        out.insert(out.end(), list.begin() + last + 1, list.end());
        return Block::make(out);
    }

    // The Params of f's production and of every Func it depends on, and
    // the memoize_tag() values found there (`tags`).
    std::vector<std::string> key_params(const FunctionContents &f, const Stmt &production,
                                        std::vector<Expr> *tags) const {
        FindDependencies deps(args_);
        deps.include(production);
        include_definition(deps, f);
        std::set<std::string> done = {f.name};
        std::vector<std::string> todo(deps.funcs.begin(), deps.funcs.end());
        while (!todo.empty()) {
            std::string name = todo.back();
            todo.pop_back();
            auto it = env_.find(name);
            if (it == env_.end() || !done.insert(name).second) {
                continue;
            }
            FindDependencies inner(args_);
            include_definition(inner, *it->second);
            deps.params.insert(inner.params.begin(), inner.params.end());
            deps.buffers.insert(inner.buffers.begin(), inner.buffers.end());
            for (const Expr &t : inner.tags) {
                deps.add_tag(t);
            }
            todo.insert(todo.end(), inner.funcs.begin(), inner.funcs.end());
        }
        for (const InputBufferPtr &buffer : deps.buffers) {
            if (!buffer->concrete && !buffer->output) {
                user_error << "Buffer parameter " << buffer->user_name
                           << " encountered in computed_cached computation.\n"
                           << "Computations which depend on buffer parameters cannot be scheduled compute_cached.\n"
                           << "Use memoize_tag to provide cache key information for buffer.";
            }
        }
        *tags = deps.tags;
        return std::vector<std::string>(deps.params.begin(), deps.params.end());
    }

    Stmt memoize(const FunctionContents &f, const std::vector<const Allocate *> &allocs, const Stmt &inner_body) {
        const std::string p = f.name + ".memo.";
        const int dims = (int)f.args.size();
        const Expr uc = handle_var("__user_context");
        const Expr bounds = handle_var(p + "bounds"), buffers = handle_var(p + "buffers"), key = handle_var(p + "key");
        const Expr result = var_int32(p + "result");

        // The region computed is the key's (as upstream's realized bounds):
        // f.c.* where it is narrower than the storage (whose loads past it
        // do not matter), else the storage's. The buffers' shapes must
        // match too for a hit.
        const bool computed_apart = std::find(lets_.begin(), lets_.end(), f.name + ".c.min.0") != lets_.end();
        auto make_buffer = [&](Type t, bool with_strides) {
            std::vector<Expr> args = {int32_const(0),        int32_const(0),         int32_const(t.code()),
                                      int32_const(t.bits()), int32_const(t.lanes()), int32_const(dims)};
            const std::string region = with_strides || !computed_apart ? f.name : f.name + ".c";
            for (int d = 0; d < dims; d++) {
                args.push_back(buffer_field(region, "min", d));
                args.push_back(buffer_field(region, "extent", d));
                args.push_back(with_strides ? buffer_field(f.name, "stride", d) : int32_const(0));
            }
            return Call::make(Handle(), "buffer_make", args, Call::Intrinsic);
        };

        // The eviction key, as upstream checks it.
        Expr eviction = f.memoize_eviction_key;
        if (eviction.defined()) {
            user_assert(!eviction.type().is_float())
                << "Can't use floating-point types as a memoization eviction key. Expression is: " << eviction;
            user_assert(eviction.type().is_int() || eviction.type().is_uint() || eviction.type().is_handle())
                << "Can't use " << eviction.type() << " as a memoization eviction key. Expression is: " << eviction;
            eviction = eviction.type().is_handle() ? reinterpret(UInt(64), eviction) : cast(UInt(64), eviction);
            eviction = with_argument_names(eviction);
        }

        std::vector<Expr> buffer_list;
        for (size_t i = 0; i < allocs.size(); i++) {
            buffer_list.push_back(handle_var(p + "buffer." + std::to_string(i)));
        }
        Expr miss = EQ::make(result, int32_const(1));
        // Found first (with a placeholder store) for the key's dependencies.
        Stmt production;
        guard_production(inner_body, f, miss, Evaluate::make(int32_const(0)), &production);

        // The key: who (the address of a string naming the pipeline and
        // the Func, and this compilation) and what it depends on.
        std::vector<Expr> key_values = {StringImm::make(std::to_string(pipeline_.size()) + ":" + pipeline_ +
                                                        std::to_string(f.name.size()) + ":" + f.name),
                                        make_const(UInt(64), compilation_)};
        std::vector<Expr> tags;
        std::vector<Expr> key_parts;
        for (const std::string &name : key_params(f, production, &tags)) {
            key_parts.push_back(Variable::make(args_.scalars.at(name).second, name));
        }
        for (const Expr &t : tags) {
            user_assert(t.type().is_scalar())
                << "memoize_tag of Func " << f.name << ": a cache key value must be a scalar: " << t;
            key_parts.push_back(with_argument_names(t));
        }
        for (Expr v : key_parts) {
            if (v.type().is_bool()) {
                v = cast(UInt(8), v);
            }
            key_values.push_back(v);
        }
        std::vector<Type> key_types;
        for (const Expr &v : key_values) {
            key_types.push_back(v.type());
        }
        // The key's bytes, padding (zeroed) included.
        int64_t key_size = (int64_t)struct_layout(key_types).size;
        Stmt store = Evaluate::make(Call::make(
            Int(32), "halide_memoization_cache_store",
            {uc, key, int32_const(key_size), bounds, int32_const((int64_t)allocs.size()), buffers,
             make_const(UInt(1), eviction.defined() ? 1 : 0), eviction.defined() ? eviction : make_const(UInt(64), 0)},
            Call::Extern));
        Stmt body = guard_production(inner_body, f, miss, store, &production);

        for (size_t i = allocs.size(); i-- > 0;) {
            const Allocate *a = allocs[i];
            Expr host = Call::make(Handle(), "buffer_get_host", {buffer_list[i]}, Call::Intrinsic);
            body = Allocate::make(a->name, a->type, a->memory_type, a->extents, body, host,
                                  "halide_memoization_cache_release");
        }
        Expr lookup = Call::make(Int(32), "halide_memoization_cache_lookup",
                                 {uc, key, int32_const(key_size), bounds, int32_const((int64_t)allocs.size()), buffers},
                                 Call::Extern);
        Stmt check = AssertStmt::make(NE::make(result, int32_const(-1)),
                                      Call::make(Int(32), "halide_error_out_of_memory", {uc}, Call::Extern));
        Stmt s = Block::make(check, body);
        s = LetStmt::make(p + "result", lookup, s);
        s = LetStmt::make(p + "buffers", Call::make(Handle(), "make_struct", buffer_list, Call::Intrinsic), s);
        s = LetStmt::make(p + "key", Call::make(Handle(), "make_struct", key_values, Call::Intrinsic), s);
        s = LetStmt::make(p + "bounds", make_buffer(Handle(), false), s);
        for (size_t i = allocs.size(); i-- > 0;) {
            s = LetStmt::make(p + "buffer." + std::to_string(i), make_buffer(allocs[i]->type, true), s);
        }
        return s;
    }

    const Environment &env_;
    std::vector<std::string> lets_; // the LetStmts around the node visited
    Arguments args_;
    std::string pipeline_;
    uint64_t compilation_;
    LoweredPipeline &pipeline_args_;
};

} // namespace

void check_memoization(const FunctionContents &f, const std::vector<FunctionPtr> &outputs) {
    if (!f.memoized) {
        return;
    }
    for (const FunctionPtr &out : outputs) {
        user_assert(out->name != f.name)
            << "Can't compile Pipeline with memoized output Func: " << f.name
            << ". Memoization is valid only on intermediate Funcs because it takes control of buffer allocation.";
    }
    user_assert(f.compute != ComputeLevel::Inlined)
        << "Cannot memoize function " << f.name << " because the function is scheduled inline.";
    bool same_level =
        f.store == ComputeLevel::Inlined ||
        (f.store == f.compute && f.store_at_func == f.compute_at_func && f.store_at_var == f.compute_at_var);
    user_assert(same_level) << "Function " << f.name
                            << " cannot be memoized because it has compute and storage scheduled at different loop "
                               "levels.";
    user_assert(f.hoist == ComputeLevel::Inlined)
        << "Function " << f.name
        << " cannot be memoized because its storage is hoisted (hoist_storage): the memoization cache allocates it.";
}

Stmt inject_memoization(const Stmt &s, const Environment &env, LoweredPipeline &p) {
    for (const auto &[name, f] : env) {
        if (f->memoized) {
            return InjectMemoization(env, p.func.name, p).mutate(s);
        }
    }
    return s;
}

} // namespace Internal
} // namespace Halide
